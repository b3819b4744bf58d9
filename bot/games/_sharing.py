"""Who may share a finished game, once: the checks behind the Share button.

The card is the presser's (`bot.share.share_card`: no Digits, no formula, no
Result), so only a player of the game may post it. A share is claimed in the
store before it is posted (`Store.claim_state`, an insert that only one caller
wins), so two presses, or two bot processes, never post it twice; a post that
fails gives the claim back, so the player can press again.
"""

from __future__ import annotations

from datetime import UTC, tzinfo

from bot.play import GameError
from bot.share import ShareCard, share_card
from bot.storage import GameRecord, Store
from rules import Termination


def share_key(game_id: str, user_id: int) -> str:
    return f"share:{game_id}:{user_id}"


def share_target(record: GameRecord, configured: int | None) -> int:
    """The channel the card goes to: the server's (`/config channel`), else the one the
    game's thread hangs off."""
    return configured or record.meta.parent_channel_id or record.channel_id


async def claim_share(
    store: Store, record: GameRecord | None, user_id: int, locale: str, now: float,
    zone: tzinfo = UTC,
) -> ShareCard:  # fmt: skip
    """The card to post, or a GameError: not a player, not over (or void), shared already."""
    if record is None or str(user_id) not in record.state.players:
        raise GameError("share_not_a_player")
    outcome = record.state.outcome
    if outcome is None or outcome.termination is Termination.VOID:
        raise GameError("share_not_over")
    card = share_card(record, user_id, locale, tz=zone)
    if not await store.claim_state(share_key(record.state.id, user_id), str(now)):
        raise GameError("share_done")
    return card
