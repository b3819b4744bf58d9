"""Who may share a finished game, once: the checks behind the Share button.

The card is the presser's (`bot.share.share_card`: no Digits, no formula, no
Result), so only a player of the game may post it. A share is claimed in the
store before it is posted (`InstallStore.claim_state`, an insert that only one caller
wins), so two presses, or two bot processes, never post it twice; a post that
fails gives the claim back (`GameService.unshare`), so the player can press again.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play._refusals import Refusal
from bot.play._types import GameError
from bot.share import ShareCard, share_card
from bot.storage import GameRecord, Store
from rules import Termination


def share_key(game_id: str, user_id: int) -> str:
    return f"share:{game_id}:{user_id}"


def share_target(record: GameRecord, configured: int | None) -> int:
    """The channel the card goes to: the server's (`/config channel`), else the one the
    game's thread hangs off."""
    return configured or record.meta.parent_channel_id or record.channel_id


@dataclass(frozen=True, slots=True)
class Share:
    """A claimed share: the card, in the game's language, and the channel it goes to."""

    card: ShareCard
    locale: str
    channel_id: int
    guild_id: int


async def claim_share(
    store: Store, record: GameRecord | None, guild_id: int, user_id: int, locale: str,
    now: float,
) -> Share:  # fmt: skip
    """The card to post, or a GameError: not a player, not over (or void), shared already.
    In the game's language (`locale` when there is no game), for the server's day."""
    card_locale = record.meta.locale if record is not None else locale
    settings = await store.servers.settings(guild_id)
    if record is None or str(user_id) not in record.state.players:
        raise GameError(Refusal.SHARE_NOT_A_PLAYER)
    outcome = record.state.outcome
    if outcome is None or outcome.termination is Termination.VOID:
        raise GameError(Refusal.SHARE_NOT_OVER)
    card = share_card(record, user_id, card_locale, tz=settings.zone)
    if not await store.install.claim_state(share_key(record.state.id, user_id), str(now)):
        raise GameError(Refusal.SHARE_DONE)
    target = share_target(record, settings.channel_id)
    return Share(card, card_locale, target, record.guild_id)
