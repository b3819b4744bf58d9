"""A private round that waits for its player's next press (issue 28).

An interaction's token lives 15 minutes, and a private game's round can only be shown
through its player's token (an ephemeral message has no bot-token path). When the one
the game holds has aged past what the round needs, or Discord called it dead, the round
was never seen: it waits unseen, its clock not started, until the player presses again
(`Shows.again`, from /training, /qualification or /practice), and then starts afresh.
The re-post schedule, which voids a game after some eight minutes, is for a post
Discord refused or a round a crash may have shown, and a sweep would time it out
unseen: neither ends it. Only a player away for `WAITS_AT_MOST_S` does: the game is
void, no attempt used, and their next press says so (`Shows.tell_owed`), since a
Qualification day stays sealed while a game of it runs and an abandoned wait must not
hold it for good. The wait is saved with the game (`GameMeta.waits_round`), so a
restart keeps it waiting, to the same end (`waits_until`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Protocol

from bot.play._active import ActiveGames
from bot.play._timers import RoundTimers
from bot.storage import GameRecord
from rules import GameState


class Steps(Protocol):
    """What waiting needs of the game flow (`Shows`' steps have it: no import of them)."""

    active: ActiveGames
    timers: RoundTimers

    async def commit(self, record: GameRecord, state: GameState) -> GameRecord: ...


log = logging.getLogger(__name__)

WAITS_AT_MOST_S = 3600.0
"""How long a round waits unseen for its player before the game is void (no attempt used)."""
UNSEEN = "round_waited_unseen"
"""The void reason of a game whose round waited `WAITS_AT_MOST_S` for its player."""


def waits_for_player(record: GameRecord) -> bool:
    """Whether the game's open round waits, unseen, for its player's next press."""
    rnd = record.state.current_round
    return (
        record.meta.private and rnd is not None and rnd.shown_at is None
        and record.meta.waits_round == rnd.number and record.state.outcome is None
    )  # fmt: skip


def waits_until(record: GameRecord) -> float:
    """When a waiting round's game is given up: an hour after the round began (when no
    token could carry it), through restarts."""
    rnd = record.state.current_round
    assert rnd is not None
    return rnd.started_at + WAITS_AT_MOST_S


async def wait_for_player(steps: Steps, game_id: str, number: int) -> None:
    """Round `number`, which no token of its player's could carry, waits for their next
    press, the wait saved; the caller holds its timer to the end (`waits_until`). Under
    the game's lock."""
    live = steps.active.get(game_id)
    rnd = live.state.current_round if live is not None else None
    if live is None or rnd is None or rnd.number != number or rnd.shown_at is not None:
        return
    steps.timers.cancel(game_id)  # a re-post of a hold that ended too late
    meta = replace(live.meta, waits_round=number, repost_round=None, repost_tries=None)
    waiting = replace(live, meta=meta)
    steps.active.remember(waiting)
    try:
        await steps.commit(waiting, waiting.state)
    except Exception:  # in memory it waits; a restart without the note takes the re-post way
        log.warning("game %s: saving that round %s waits for its player failed", game_id, number)
