"""A round's note that it is up: what its post changes in the game (`Shows._post_round`),
and the same note laid on the store's copy, which gets it only with the next save
(`Shows.with_unsaved`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import rules
from bot.play._types import Posted
from bot.storage import GameRecord, Reveal


def meta_once_up(
    best: tuple[Reveal, ...], found: tuple[Reveal, ...], posted: Posted | None, number: int
) -> dict[str, Any]:
    """The meta's changes once round `number` is up (`Shows._post_round`): the longer of the
    best answers, no failed post left to count, and the message it went up as."""
    noted: dict[str, Any] = {
        "best": max(best, found, key=len), "repost_round": None, "repost_tries": None,
        "waits_round": None,
    }  # fmt: skip
    if posted is not None:
        noted["round_message_id"], noted["round_message_of"] = posted.message_id, number
        if posted.pinged:
            noted["pinged_at"] = posted.at
    return noted


def with_note(stored: GameRecord, mine: GameRecord) -> GameRecord | None:
    """`stored` with `mine`'s note that its open round is up (when, which message), or
    None when the two are not at that same round, unshown in the store (it moved on)."""
    rnd, up = stored.state.current_round, mine.state.current_round
    same = (
        rnd is not None and up is not None and up.shown_at is not None
        and rnd.shown_at is None and (rnd.number, rnd.started_at) == (up.number, up.started_at)
    )  # fmt: skip
    if not same or up is None or up.shown_at is None:
        return None
    meta = replace(
        stored.meta, round_message_id=mine.meta.round_message_id,
        round_message_of=mine.meta.round_message_of, pinged_at=mine.meta.pinged_at,
    )  # fmt: skip
    state = rules.apply(stored.state, rules.RoundShown(up.shown_at))
    return replace(stored, state=state, meta=meta)
