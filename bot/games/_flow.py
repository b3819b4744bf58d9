"""A game's steps once it is saved: rounds start and end, the game finishes, a restart resumes.

Every step happens under the game's lock in one order: apply the rules, save, then
announce. A step that fails after the player's answer was saved is retried from the
store (`RoundTimers.retry_soon`), so it is never the player's error.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import rules
from bot.games._active import ActiveGames
from bot.games._in_flight import AnswersInFlight
from bot.games._timers import RoundTimers
from bot.games._types import Clock, DigitsSource, GameEvents, announce
from bot.storage import GameRecord, RatingChange, StaleGame, Store
from rules import GameState, Mode

log = logging.getLogger(__name__)


class RoundFlow:
    def __init__(
        self,
        store: Store,
        active: ActiveGames,
        in_flight: AnswersInFlight,
        events: GameEvents,
        *,
        clock: Clock,
        digits: DigitsSource,
        answer_grace: float,
    ) -> None:
        self.store = store
        self.active = active
        self.in_flight = in_flight
        self.events = events
        self.clock = clock
        self.digits = digits
        self.answer_grace = answer_grace
        self.timers = RoundTimers(clock, self.expire, self.resume)

    # ------------------------------------------------------------- records

    async def commit(self, record: GameRecord, state: GameState) -> GameRecord:
        """Save first: nothing is announced that a restart could lose."""
        new = replace(record, state=state)
        await self.store.save_game(new, now=self.clock())
        if new.active:
            self.active.remember(new)
        return new

    async def current(self, game_id: str) -> GameRecord | None:
        """The game as it is now, read under its lock: this process's copy, else the store."""
        return self.active.get(game_id) or await self.store.load_game(game_id)

    async def reload(self, game_id: str) -> GameRecord | None:
        """What the store holds, after a save that lost a race; this copy follows it."""
        stored = await self.store.load_game(game_id)
        if stored is not None and stored.active:
            self.active.remember(stored)
        elif stored is not None:
            self.active.forget(stored)
        return stored

    # --------------------------------------------------------------- steps

    async def first_round(self, record: GameRecord) -> GameRecord:
        """Round 1 of a game just saved; a failed save starts it from the store soon."""
        async with self.active.lock(record.state.id):
            try:
                return await self.next_round(record)
            except Exception:
                log.exception("game %s: starting round 1 failed; retrying", record.state.id)
                self.timers.retry_soon(record.state.id, 0)
                return record

    async def go_on(self, record: GameRecord, number: int) -> GameRecord:
        """`after_round` after an answer: the answer is saved, so a failure to start the
        next round is retried from the store instead of being the player's error."""
        self.timers.cancel(record.state.id)
        try:
            return await self.after_round(record, number)
        except Exception:
            log.exception(
                "game %s: going on after round %s failed; retrying", record.state.id, number
            )
            self.timers.retry_soon(record.state.id, number)
            return record

    async def after_round(self, record: GameRecord, number: int) -> GameRecord:
        rnd = record.state.rounds[number - 1]
        if all(answer is not None for answer in rnd.answers):
            await announce(
                f"game {record.state.id} round {number}",
                self.events.round_resolved(record, number),
            )
        if record.state.outcome is not None:
            await self.finish(record)
            return record
        return await self.next_round(record)

    async def next_round(self, record: GameRecord) -> GameRecord:
        number = len(record.state.rounds) + 1
        if record.seed:
            digits = rules.seeded_digits(record.seed, number)
        else:
            digits = self.digits(record.state, number)
        state = rules.apply(record.state, rules.StartRound(digits, self.clock()))
        record = await self.commit(record, state)
        self._arm(record)
        await announce(f"game {record.state.id} round {number}", self.events.round_started(record))
        return record

    async def finish(self, record: GameRecord) -> None:
        game_id = record.state.id
        self.timers.cancel(game_id)
        ratings: list[RatingChange] = []
        if record.state.mode is Mode.DUEL:
            try:
                ratings = await self.store.record_duel_result(record)
            except Exception:
                log.exception("game %s: recording the duel rating failed", game_id)
        self.active.forget(record)
        await announce(f"game {game_id} over", self.events.game_over(record, ratings))

    async def expire(self, game_id: str, round_number: int) -> None:
        """The deadline of `round_number`; a no-op when answers resolved it first.

        Formulas received by the deadline and still in PHP are waited for first.
        """
        record = self.active.get(game_id)
        rnd = record.state.current_round if record else None
        if rnd is not None and rnd.number == round_number:
            await self.in_flight.wait(game_id, round_number, rnd.deadline, self.answer_grace)
        async with self.active.lock(game_id):
            record = self.active.get(game_id)
            rnd = record.state.current_round if record else None
            if record is None or rnd is None or rnd.number != round_number:
                return
            state = rules.apply(record.state, rules.Expire(max(self.clock(), rnd.deadline)))
            try:
                record = await self.commit(record, state)
            except StaleGame:  # another bot process changed it first
                log.warning(
                    "game %s: round %s was changed by another writer", game_id, round_number
                )
                await self.reload(game_id)
                return
            await self.after_round(record, round_number)

    async def resume(self, game_id: str, number: int) -> None:
        """Go on from the stored game after a failure: the failed save may have landed."""
        async with self.active.lock(game_id):
            stored = await self.store.load_game(game_id)
            if stored is None:
                return
            if not stored.active:
                if game_id in self.active:  # finished in the store, never announced
                    await self.finish(stored)
                return
            self.active.remember(stored)
            rnd = stored.state.current_round
            if rnd is None:  # the round was resolved, the next one never started
                await self.next_round(stored)
                return
            if rnd.number != number:
                if not self.timers.armed(game_id):
                    self._arm(stored)
                return
        await self.expire(game_id, number)

    # ------------------------------------------------------------- restart

    async def recover(self) -> int:
        """Re-arm every active game after a restart; returns how many were found.

        A round whose deadline passed while the bot was down is replayed with
        the same Digits and a fresh deadline (answers already given stay), so
        nobody loses a game to downtime.
        """
        now = self.clock()
        games = await self.store.active_games()
        for record in games:
            try:
                await self._recover_game(record, now)
            except Exception:
                log.exception("game %s: recovery failed", record.state.id)
        return len(games)

    async def _recover_game(self, record: GameRecord, now: float) -> None:
        self.active.remember(record)
        async with self.active.lock(record.state.id):
            rnd = record.state.current_round
            if rnd is None:
                await self.next_round(record)
                return
            if rnd.deadline > now:
                self._arm(record)
                return
            state = rules.apply(record.state, rules.ReplayRound(now))
            record = await self.commit(record, state)
            self._arm(record)
            await announce(
                f"game {record.state.id} replayed round {rnd.number}",
                self.events.round_started(record, replayed=True),
            )

    def close(self) -> None:
        self.timers.close()

    def _arm(self, record: GameRecord) -> None:
        rnd = record.state.current_round
        if rnd is None:
            self.timers.cancel(record.state.id)
            return
        self.timers.arm(record.state.id, rnd.number, rnd.deadline)
