"""Formula Darts itself as the second player of a Practice game.

At each round it picks, by its level, the new Score it aims for and how long it
"thinks" (`solver.practice.practice_move`), asks the solver for the formula nearest
that aim (at PERFECT: the formula likeliest to finish next round), and answers
through the same door as a person (`GameService.submit`), so real PHP judges it and
the round's rules apply. A move it cannot find in time is no answer: the deadline's
auto-move plays it, as for a person.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.play._timers import Timers
from bot.play._types import Clock, GameError, Revealer
from bot.storage import GameRecord
from rules import Mode
from solver.practice import Level, practice_move

log = logging.getLogger(__name__)

BOT_SEAT = 1
DEFAULT_LEVEL = Level.SKILLED

Answer = Callable[[str, int, str, int, Any], Awaitable[Any]]
"""(game id, player, formula, round number, the person's interaction or None): how the
bot hands in its formula."""
Move = Callable[[Any], Awaitable[bool]]


class PracticeOpponent:
    def __init__(
        self,
        revealer: Revealer | None,
        clock: Clock,
        answer: Answer,
        rng: random.Random | None = None,
    ) -> None:
        self.revealer = revealer
        self.clock = clock
        self.answer = answer
        self.rng = rng or random.Random()
        self._timers = Timers(clock, "practice")
        self._planned: dict[str, int] = {}
        self._moves: dict[str, tuple[int, Move]] = {}

    def play(self, record: GameRecord) -> None:
        """Plan the bot's answer to the open round (once per round; again after a restart)."""
        state = record.state
        rnd = state.current_round
        if state.mode is not Mode.PRACTICE or rnd is None or rnd.answers[BOT_SEAT] is not None:
            return
        if self._planned.get(state.id) == rnd.number and self._timers.armed(state.id):
            return
        level = Level(record.meta.practice_level or DEFAULT_LEVEL)
        move = practice_move(level, state.scores[BOT_SEAT], state.game_set, self.rng)
        game_id, number, digits = state.id, rnd.number, rnd.digits
        score, game_set, me = state.scores[BOT_SEAT], state.game_set, int(state.players[BOT_SEAT])
        last = number >= game_set.max_rounds
        self._planned[game_id] = number

        async def move_now(via: Any = None) -> bool:
            if self._moves.pop(game_id, (0, None))[0] != number or self.revealer is None:
                return False
            if move.finish:
                found = await self.revealer.finish(digits, score, game_set, last=last)
            else:
                found = await self.revealer.best(digits, score, game_set, aim=move.aim)
            if found is None:
                log.info("practice %s: no move found for round %s", game_id, number)
                return False
            try:
                await self.answer(game_id, me, found.formula, number, via)
            except GameError as refused:  # the round ended first (a person's answer, a void)
                log.info("practice %s: round %s: %s", game_id, number, refused.code)
                return False
            return True

        async def when_thought() -> None:
            await move_now()

        self._moves[game_id] = (number, move_now)
        self._timers.at(game_id, rnd.opened_at + move.delay_s, when_thought)

    async def hurry(self, game_id: str, number: int, via: Any) -> bool:
        """The person answered round `number` first: the bot answers now instead of
        after its thinking time, so the person's interaction (`via`) carries the
        round's result and the next round. Whether the bot answered."""
        planned = self._moves.get(game_id)
        if planned is None or planned[0] != number:
            return False
        self._timers.cancel(game_id)
        return await planned[1](via)

    def forget(self, game_id: str) -> None:
        self._timers.cancel(game_id)
        self._planned.pop(game_id, None)
        self._moves.pop(game_id, None)

    def close(self) -> None:
        self._timers.close()
