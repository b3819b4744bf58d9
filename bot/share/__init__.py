"""The spoiler-free share card of a finished game: outcome and one emoji per round.

`share_card(record, player_id, locale)` is pure; `ShareCard.text()` is the card as one
Discord message. The legend and its thresholds are in `bot/share/_card.py`.
"""

from bot.share._card import EMOJI, Mark, ShareCard, round_mark, round_marks, share_card

__all__ = ["EMOJI", "Mark", "ShareCard", "round_mark", "round_marks", "share_card"]
