"""The game service: rules + evaluator + store + timers, and nothing of Discord.

Everything a game does happens here, under the game's own asyncio.Lock, in one
order: apply the rules, save, then announce through `GameEvents`. Discord
callbacks only translate a click or a command into one call of this class, so
the same game runs in tests, after a restart and under load without a UI.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import rules
from bot.games._challenges import ChallengesMixin
from bot.games._deadlines import DeadlinesMixin, InFlight
from bot.games._types import (
    Clock,
    DigitsSource,
    Evaluating,
    GameError,
    GameEvents,
    OpenChannel,
    SubmitResult,
    answer_grace,
    random_digits_source,
)
from bot.storage import AttemptsUsed, Challenge, GameRecord, RatingChange, StaleGame, Store
from evaluator.result import EvalError, Evaluation
from rules import GameSet, GameState, Mode

log = logging.getLogger(__name__)


class GameService(ChallengesMixin, DeadlinesMixin):
    def __init__(
        self,
        store: Store,
        evaluator: Evaluating,
        global_sets: dict[str, GameSet],
        events: GameEvents | None = None,
        *,
        clock: Clock = time.time,
        digits_source: DigitsSource | None = None,
        answer_grace_s: float | None = None,
    ) -> None:
        self.store = store
        self.evaluator = evaluator
        self.global_sets = dict(global_sets)
        self.events = events
        self.clock = clock
        self._digits = digits_source or random_digits_source
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._challenge_timers: dict[str, asyncio.Task[None]] = {}
        self._active: dict[str, GameRecord] = {}
        self._channels: dict[int, str] = {}
        self._starting: set[tuple[int, int]] = set()
        self._rematches: dict[str, str] = {}
        self._in_flight: dict[str, list[InFlight]] = {}
        self.answer_grace = answer_grace(evaluator) if answer_grace_s is None else answer_grace_s

    # ------------------------------------------------------------------ Sets

    async def sets_for(self, guild_id: int) -> dict[str, GameSet]:
        """Global Sets plus the server's own; a global name always wins."""
        merged = dict(self.global_sets)
        for game_set in await self.store.server_sets(guild_id):
            merged.setdefault(game_set.name, game_set)
        return merged

    async def resolve_set(self, guild_id: int, name: str | None) -> GameSet:
        sets = await self.sets_for(guild_id)
        game_set = sets.get((name or "darts").strip().lower())
        if game_set is None:
            raise GameError("unknown_set", name=name, available=", ".join(sorted(sets)))
        return game_set

    # --------------------------------------------------------------- lookups

    def game_in_channel(self, channel_id: int) -> GameRecord | None:
        game_id = self._channels.get(channel_id)
        return self._active.get(game_id) if game_id else None

    async def game_of(self, guild_id: int, user_id: int) -> GameRecord | None:
        stored = await self.store.active_game_of(guild_id, user_id)
        if stored is None:
            return None
        return self._active.get(stored.state.id, stored)

    async def load(self, game_id: str) -> GameRecord | None:
        return self._active.get(game_id) or await self.store.load_game(game_id)

    async def check_can_answer(
        self, game_id: str, user_id: int, round_number: int | None = None
    ) -> GameRecord:
        """Refuse early (before a modal opens) what `submit` would refuse anyway."""
        record = await self.load(game_id)
        if record is None:
            raise GameError("no_game")
        self._open_round_for(record, user_id, round_number, self.clock())
        return record

    # ----------------------------------------------------------- single modes

    async def start_single(
        self, mode: Mode, guild_id: int, user_id: int, set_name: str | None, locale: str,
        open_channel: OpenChannel,
    ) -> GameRecord:  # fmt: skip
        """Check, open the game's channel (the caller's thread), save, start round 1."""
        game_set = await self.resolve_set(guild_id, set_name)
        async with self._reserve(guild_id, [user_id]):
            await self._ensure_free(guild_id, user_id, "busy")
            await self.ensure_no_pending_challenge(guild_id, user_id)
            period = seed = None
            if mode is Mode.QUALIFICATION:
                period = rules.utc_day(datetime.fromtimestamp(self.clock(), UTC))
                used = await self.store.count_attempts(guild_id, user_id, game_set.name, period)
                if used >= game_set.attempts:
                    raise GameError(
                        "qualification_used", set=game_set.name, attempts=game_set.attempts
                    )
                secret = await self.store.install_secret("qualification")
                seed = rules.qualification_seed(guild_id, game_set.name, period, secret=secret)
            state = rules.new_game(uuid.uuid4().hex, mode, game_set, [str(user_id)])
            channel_id = await open_channel(game_set)
            record = GameRecord(
                state, guild_id, channel_id, period, seed, {"locale": locale}, self.clock()
            )
            try:
                await self.store.save_game(record, now=self.clock())
            except AttemptsUsed as exc:  # another bot process started one meanwhile
                raise GameError(
                    "qualification_used", set=game_set.name, attempts=game_set.attempts
                ) from exc
            self._remember(record)
        return await self._first_round(record)

    # ------------------------------------------------------------------ duel

    async def accept_challenge(
        self,
        challenge_id: str,
        user_id: int,
        locale: str,
        open_channel: Callable[[Challenge, GameSet], Awaitable[int]],
    ) -> GameRecord:
        """Both players free, the challenge still pending: open the thread, play round 1."""
        challenge = await self._pending_challenge(challenge_id, user_id)
        game_set = await self.resolve_set(challenge.guild_id, challenge.set_name)
        players = [challenge.challenger_id, challenge.opponent_id]
        async with self._reserve(challenge.guild_id, players):
            await self._ensure_free(challenge.guild_id, challenge.challenger_id, "opponent_busy")
            await self._ensure_free(challenge.guild_id, challenge.opponent_id, "busy")
            if not await self.store.set_challenge_status(challenge.id, "accepted"):
                raise GameError("challenge_closed")
            self._cancel(self._challenge_timers, challenge.id)
            challenge.status = "accepted"
            state = rules.new_game(uuid.uuid4().hex, Mode.DUEL, game_set, [str(p) for p in players])
            channel_id = await open_channel(challenge, game_set)
            meta = {"locale": locale, "parent_channel_id": challenge.channel_id}
            record = GameRecord(
                state, challenge.guild_id, channel_id, None, None, meta, self.clock()
            )
            await self.store.save_game(record, now=self.clock())
            self._remember(record)
        return await self._first_round(record)

    # ---------------------------------------------------------------- playing

    def _open_round_for(
        self, record: GameRecord, user_id: int, round_number: int | None, now: float
    ) -> tuple[int, rules.Round]:
        state = record.state
        if str(user_id) not in state.players:
            raise GameError("not_a_player")
        if state.outcome is not None:
            timed_out = state.outcome.termination is rules.Termination.TIMEOUT
            raise GameError("late" if timed_out else "game_over")
        rnd = state.current_round
        if rnd is None or (round_number is not None and rnd.number != round_number):
            raise GameError("late")
        if now > rnd.deadline:
            raise GameError("late")
        index = state.player_index(str(user_id))
        if rnd.answers[index] is not None:
            raise GameError("already_answered")
        return index, rnd

    async def submit(
        self, game_id: str, user_id: int, formula: str, round_number: int | None = None
    ) -> SubmitResult:
        """Check the formula with real PHP, then apply it to the round it was meant for.

        The time of receipt is the answer's time, so a slow sandbox never makes
        an answer late: the round's deadline waits for it (`_answers_in_flight`).
        The PHP call runs outside the lock so two players of a duel are evaluated at once.
        """
        received = self.clock()
        record = await self.load(game_id)
        if record is None:
            raise GameError("no_game")
        index, rnd = self._open_round_for(record, user_id, round_number, received)
        functions = record.state.game_set.functions
        with self._answer_in_flight(game_id, user_id, rnd.number, received):
            verdict = await self.evaluator.evaluate(formula, rnd.digits, functions)
            if isinstance(verdict, EvalError):
                return SubmitResult(record, rnd.number, error=verdict)
            return await self._answer(game_id, user_id, index, rnd.number, verdict, received)

    async def _answer(
        self, game_id: str, user_id: int, index: int, number: int, verdict: Evaluation,
        received: float,
    ) -> SubmitResult:  # fmt: skip
        """Apply a valid formula under the lock, to the game as it is now."""
        async with self._lock(game_id):
            live = await self._current(game_id)
            if live is None:
                raise GameError("no_game")
            self._open_round_for(live, user_id, number, received)
            try:
                state = rules.apply(
                    live.state,
                    rules.Submit(str(user_id), verdict.formula, verdict.value, received),
                )
            except rules.RulesError as exc:
                raise GameError(exc.code) from exc
            try:
                record = await self._commit(live, state)
            except StaleGame as exc:  # another bot process resolved it first
                await self._reload(game_id)
                raise GameError("late") from exc
            if not state.rounds[number - 1].resolved:
                await self._emit("answer_received", record, index)
                return SubmitResult(record, number, evaluation=verdict, secret=True)
            self._cancel(self._timers, game_id)
            record = await self._go_on(record, number)
        return SubmitResult(record, number, evaluation=verdict)

    async def expire(self, game_id: str, round_number: int) -> None:
        """The deadline of `round_number`; a no-op when answers resolved it first.

        Formulas received by the deadline and still in PHP are waited for first.
        """
        await self._answers_in_flight(game_id, round_number)
        async with self._lock(game_id):
            record = self._active.get(game_id)
            rnd = record.state.current_round if record else None
            if record is None or rnd is None or rnd.number != round_number:
                return
            state = rules.apply(record.state, rules.Expire(max(self.clock(), rnd.deadline)))
            try:
                record = await self._commit(record, state)
            except StaleGame:  # another bot process changed it first
                log.warning(
                    "game %s: round %s was changed by another writer", game_id, round_number
                )
                await self._reload(game_id)
                return
            await self._after_round(record, round_number)

    async def resign(self, guild_id: int, user_id: int) -> GameRecord:
        found = await self.game_of(guild_id, user_id)
        if found is None:
            raise GameError("no_game")
        game_id = found.state.id
        async with self._lock(game_id):
            record = await self._current(game_id)  # never `found`: it was read before the lock
            if record is None or record.state.outcome is not None:
                raise GameError("game_over")
            state = rules.apply(record.state, rules.Resign(str(user_id)))
            try:
                record = await self._commit(record, state)
            except StaleGame as exc:  # another bot process ended it first
                await self._reload(game_id)
                raise GameError("game_over") from exc
            await self._finish(record)
        return record

    # ------------------------------------------------------------ internals

    async def _after_round(self, record: GameRecord, number: int) -> GameRecord:
        rnd = record.state.rounds[number - 1]
        if all(answer is not None for answer in rnd.answers):
            await self._emit("round_resolved", record, number)
        if record.state.outcome is not None:
            await self._finish(record)
            return record
        return await self._next_round(record)

    async def _first_round(self, record: GameRecord) -> GameRecord:
        """Round 1 of a game just saved; a failed save starts it from the store soon."""
        async with self._lock(record.state.id):
            try:
                return await self._next_round(record)
            except Exception:
                log.exception("game %s: starting round 1 failed; retrying", record.state.id)
                self._retry_later(record.state.id, 0)
                return record

    async def _go_on(self, record: GameRecord, number: int) -> GameRecord:
        """`_after_round` after an answer: the answer is saved, so a failure to start the
        next round is retried from the store instead of being the player's error."""
        try:
            return await self._after_round(record, number)
        except Exception:
            log.exception(
                "game %s: going on after round %s failed; retrying", record.state.id, number
            )
            self._retry_later(record.state.id, number)
            return record

    async def _next_round(self, record: GameRecord) -> GameRecord:
        number = len(record.state.rounds) + 1
        if record.seed:
            digits = rules.seeded_digits(record.seed, number)
        else:
            digits = self._digits(record.state, number)
        state = rules.apply(record.state, rules.StartRound(digits, self.clock()))
        record = await self._commit(record, state)
        self._arm(record)
        await self._emit("round_started", record)
        return record

    async def _finish(self, record: GameRecord) -> None:
        game_id = record.state.id
        self._cancel(self._timers, game_id)
        ratings: list[RatingChange] = []
        if record.state.mode is Mode.DUEL:
            try:
                ratings = await self.store.record_duel_result(record)
            except Exception:
                log.exception("game %s: recording the duel rating failed", game_id)
        self._forget(record)
        await self._emit("game_over", record, ratings)

    async def _commit(self, record: GameRecord, state: GameState) -> GameRecord:
        """Save first: nothing is announced that a restart could lose."""
        new = replace(record, state=state)
        await self.store.save_game(new, now=self.clock())
        if new.active:
            self._remember(new)
        return new

    async def _current(self, game_id: str) -> GameRecord | None:
        """The game as it is now, read under its lock: this process's copy, else the store."""
        return self._active.get(game_id) or await self.store.load_game(game_id)

    async def _reload(self, game_id: str) -> None:
        stored = await self.store.load_game(game_id)
        if stored is not None and stored.active:
            self._remember(stored)
        elif stored is not None:
            self._forget(stored)

    def _remember(self, record: GameRecord) -> None:
        self._active[record.state.id] = record
        self._channels[record.channel_id] = record.state.id

    def _forget(self, record: GameRecord) -> None:
        self._active.pop(record.state.id, None)
        self._channels.pop(record.channel_id, None)
        self._locks.pop(record.state.id, None)

    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def _reserve(self, guild_id: int, user_ids: list[int]) -> AsyncIterator[None]:
        """Hold the players while their game opens, so two commands can't both start one."""
        keys = [(guild_id, uid) for uid in user_ids]
        if any(key in self._starting for key in keys):
            raise GameError("busy")
        self._starting.update(keys)
        try:
            yield
        finally:
            self._starting.difference_update(keys)

    async def _ensure_free(self, guild_id: int, user_id: int, code: str) -> None:
        if await self.store.active_game_of(guild_id, user_id) is not None:
            raise GameError(code, user=user_id)

    async def _emit(self, name: str, *args: Any, **kwargs: Any) -> None:
        """Announce; a failed announcement is logged and the game goes on."""
        if self.events is None:
            return
        try:
            await getattr(self.events, name)(*args, **kwargs)
        except Exception:
            log.exception("announcing %s failed", name)
