"""How a voided game reads wherever a game is shown: void, and why (a reason of the bot's
own in words, an admin's as they wrote it), whatever result it had before."""

from __future__ import annotations

from bot.i18n import t
from bot.storage import GameRecord
from rules import Termination

VOID_REASON_MAX = 80
"""A void's reason as the history list shows it; `/game` shows it whole."""
VOID_CODES = frozenset(
    {"forbidden", "not_found", "bot_removed", "thread_deleted", "channel_deleted", "player_left"}
)
"""The reasons the bot itself voids a game for (Discord took its place away)."""
SHOWN_CODES = {
    "round_not_posted": "token.reason_unposted",
    "round_waited_unseen": "token.reason_waited",
}
"""The bot's reasons for a round no one could be shown (issue 28: they read as an admin's
words), each its own text: `bot.play.UNPOSTED`, `UNSEEN`."""
ADMIN_PREFIX = "admin: "
"""How a void an admin asked for is stored (`Moderation.void`)."""


def voided(record: GameRecord) -> bool:
    """Ended without a result, or voided by an admin after it ended: it counts nowhere."""
    outcome = record.state.outcome
    if outcome is not None and outcome.termination is Termination.VOID:
        return True
    return record.meta.void_reason is not None


def void_text(record: GameRecord, locale: str, limit: int | None = None) -> str:
    """ "void" and why: a reason of the bot's own in words, an admin's as they wrote it."""
    reason = (record.meta.void_reason or "").strip()
    if reason in VOID_CODES:
        why = t(f"void.reason.{reason}", locale)
    elif reason in SHOWN_CODES:
        why = t(SHOWN_CODES[reason], locale)
    elif not reason:
        why = t("void.reason.unknown", locale)
    else:
        given = reason.removeprefix(ADMIN_PREFIX).strip()
        if limit is not None and len(given) > limit:
            given = given[: limit - 1] + "…"
        why = t("void.admin", locale, reason=given)
    return t("void.shown", locale, why=why)
