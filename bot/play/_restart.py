"""A restart: this process's running games loaded before the gateway is up, then armed,
posted or replayed once players can see the bot (`RoundFlow.load`, `RoundFlow.recover`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

import rules
from bot.play._active import ActiveGames
from bot.play._faces import Faces
from bot.play._showing import Shows, Steps
from bot.play._waiting import waits_for_player
from bot.storage import GameRecord

log = logging.getLogger(__name__)


class Restarting(Steps, Protocol):
    """What a restart needs of the game flow (`RoundFlow`): what showing needs, and the
    flow's games, faces and shows (named here, so `_flow` imports this module and not
    the other way round)."""

    active: ActiveGames
    faces: Faces
    shows: Shows
    owns: Callable[[int], bool]

    async def next_round(self, record: GameRecord) -> GameRecord: ...


class Restart:
    """The restart's half of `RoundFlow`, which it works through."""

    def __init__(self, flow: Restarting) -> None:
        self.flow = flow

    async def load(self) -> int:
        """This process's running games into memory, before the gateway is ready: an
        Answer pressed right after a restart finds its game (a modal is opened from
        memory alone). `recover` arms and posts them once players can see the bot."""
        games = [r for r in await self.flow.store.games.active_games() if self._mine(r)]
        for record in games:
            if record.state.id not in self.flow.active:
                self.flow.active.remember(record)
        return len(games)

    def _mine(self, record: GameRecord) -> bool:
        """A game this process resumes: on its shards, of a face it has (a game the
        terminal started is the terminal's to play, never a bot's to resume)."""
        return self.flow.owns(record.guild_id) and self.flow.faces.serves(record.face)

    async def recover(self) -> int:
        """Re-arm every active game of this process's shards after a restart; how many.

        A round whose deadline passed while the bot was down is replayed with
        the same Digits and a fresh deadline from when it is posted again
        (answers already given stay), so nobody loses a game to downtime.
        """
        games = [r for r in await self.flow.store.games.active_games() if self._mine(r)]
        for record in games:
            try:
                await self._recover_game(record)
            except Exception:
                log.exception("game %s: recovery failed", record.state.id)
        try:
            await self.flow.shows.tells.recover_untold()
        except Exception:
            log.exception("recovering the summaries still owed failed")
        return len(games)

    async def _recover_game(self, record: GameRecord) -> None:
        """Arm a game whose round is up and running; post one that never went up; replay
        one whose deadline passed while the bot was down (its old message loses its
        Answer button). A private round waiting for its player's press keeps waiting."""
        self.flow.active.remember(record)
        if waits_for_player(record):  # unseen: its player's next press shows it
            self.flow.shows.keep_waiting(record)
            return
        replaced: int | None = None
        replayed = False
        async with self.flow.active.lock(record.state.id):
            rnd = record.state.current_round
            if rnd is None:
                record = await self.flow.next_round(record)
            elif rnd.answer_deadline > self.flow.clock() and rnd.shown_at is not None:
                self.flow.arm(record)
                self.flow.practice.play(record)
                return
            elif rnd.answer_deadline <= self.flow.clock():
                state = rules.apply(record.state, rules.ReplayRound(self.flow.clock()))
                replayed = rnd.shown_at is not None
                old = record.meta.round_message_id
                replaced = old if replayed else None
                record = await self.flow.commit(record, state)
        await self.flow.shows.show(record, replaced=replaced, replayed=replayed)
