"""A game's steps once it is saved: rounds start and end, the game finishes, a restart resumes.

Every step applies the rules and saves under the game's lock, then announces after
releasing it (`Shows.show`, in `_showing`). A step that fails after the player's
answer was saved is retried from the store (`RoundTimers.retry_soon`), so it is
never the player's error; a save that failed reloads what the store really holds
(it may have landed), and a periodic sweep resolves any game whose deadline passed
while its steps kept failing. When Discord takes the game's channel away
(`ChannelLost`) the game ends as void.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import replace

import rules
from bot.play._active import ActiveGames
from bot.play._faces import Faces
from bot.play._in_flight import AnswersInFlight
from bot.play._practice import BOT_SEAT, PracticeOpponent
from bot.play._restart import Restart
from bot.play._reveals import Reveals
from bot.play._showing import Shows
from bot.play._sweeper import Sweeper
from bot.play._timers import RoundTimers
from bot.play._types import Clock, DigitsSource, GameEvents, Via
from bot.storage import GameRecord, RatingChange, StaleGame, Store
from rules import GameState, Termination
from rules.modes import declared

log = logging.getLogger(__name__)


class RoundFlow:
    def __init__(
        self,
        store: Store,
        active: ActiveGames,
        in_flight: AnswersInFlight,
        faces: Faces,
        reveals: Reveals,
        practice: PracticeOpponent,
        *,
        owns: Callable[[int], bool],
        clock: Clock,
        digits: DigitsSource,
        answer_grace: float,
    ) -> None:
        self.store = store
        self.active = active
        self.in_flight = in_flight
        self.faces = faces
        self.events: GameEvents = faces
        """Each step is announced by its game's own face (`Faces` routes it)."""
        self.reveals = reveals
        self.practice = practice
        self.owns = owns
        self.clock = clock
        self.digits = digits
        self.answer_grace = answer_grace
        self.timers = RoundTimers(clock, self.expire, self.resume)
        self.shows = Shows(self)
        self.show = self.shows.show
        self.sweeper = Sweeper(clock, active, store, self.timers, owns, resume=self.resume)
        self.restart = Restart(self)
        self.writer = uuid.uuid4().hex[:12]
        """This flow's name on what it saves: two processes that compute the same step
        both find it stored, and only the one that wrote it goes on to announce it."""

    # ------------------------------------------------------------- records

    async def commit(self, record: GameRecord, state: GameState) -> GameRecord:
        """Save first: nothing is announced that a restart could lose.

        A save that fails for any other reason than a rival history reloads what the
        store holds: a commit can land and still report an error, and this copy must
        never drift from the truth.
        """
        meta = record.meta
        if meta.writer != self.writer:  # once per game and process: then the same meta
            meta = replace(meta, writer=self.writer)
        new = replace(record, state=state, meta=meta)
        try:
            await self.store.games.save_game(new, now=self.clock())
        except StaleGame:
            raise
        except Exception:
            stored = await self._reload_quietly(record.state.id)
            mine = stored is not None and stored.meta.writer == self.writer
            if stored is not None and mine and stored.state.to_dict() == state.to_dict():
                log.warning("game %s: the save reported an error but landed", state.id)
                return stored
            raise
        self.shows.unsaved.discard(state.id)  # the whole copy is written: its round's note too
        if new.active:
            self.active.remember(new)
        return new

    async def current(self, game_id: str) -> GameRecord | None:
        """The game as it is now, read under its lock: this process's copy, else the store."""
        return self.active.get(game_id) or await self.store.games.load_game(game_id)

    async def reload(self, game_id: str) -> GameRecord | None:
        """What the store holds, after a save that lost a race; this copy follows it."""
        stored = await self.store.games.load_game(game_id)
        if stored is not None and stored.active:
            stored = self.shows.with_unsaved(stored)
            self.active.remember(stored)
        elif stored is not None:
            self.active.forget(stored)
        return stored

    async def _reload_quietly(self, game_id: str) -> GameRecord | None:
        try:
            return await self.reload(game_id)
        except Exception:  # the database is down: the retry or the sweep reloads later
            log.warning("game %s: could not reload after a failed save", game_id)
            return None

    # --------------------------------------------------------------- steps

    async def first_round(self, record: GameRecord, via: Via | None = None) -> GameRecord:
        """Round 1 of a game just saved; a failed save starts it from the store soon.
        `via`: the start's interaction, which carries a private game's round 1."""
        async with self.active.lock(record.state.id):
            try:
                record = await self.commit(record, self.going_on(record, record.state))
            except Exception:
                log.exception("game %s: starting round 1 failed; retrying", record.state.id)
                self.timers.retry_soon(record.state.id, 0)
                return record
        return await self.show(record, via)

    def going_on(self, record: GameRecord, state: GameState) -> GameState:
        """`state` with its next round started, if the game goes on: a resolved round and
        the next one are saved together, one write where there were two."""
        start = self.next_start(record, state)
        return state if start is None else rules.apply(state, start)

    def next_start(self, record: GameRecord, state: GameState) -> rules.StartRound | None:
        """The next round's start if `state` goes on with no round open (`going_on`; an
        answer's `rules.apply` takes it as its `then`: one copy of the state, not two)."""
        if state.outcome is not None or state.current_round is not None:
            return None
        number = len(state.rounds) + 1
        if record.seed:
            return rules.StartRound(rules.seeded_digits(record.seed, number), self.clock())
        return rules.StartRound(self.digits(state, number), self.clock())

    async def next_round(self, record: GameRecord) -> GameRecord:
        """Save the next round open (under the lock); `show` posts it after."""
        return await self.commit(record, self.going_on(record, record.state))

    async def finish(self, record: GameRecord, *, revealed: bool = False) -> GameRecord:
        """The game just saved as over: its timers stop, a duel is rated, and it leaves
        this process's games. Under the lock; `show` announces it after. `revealed`: the
        last round's best answers were saved with the end (`with_last_reveal`)."""
        game_id = record.state.id
        self.timers.cancel(game_id)
        self.practice.forget(game_id)
        if revealed:
            self.reveals.forget(game_id)
        else:
            record = await self._keep_last_reveal(record)
        ratings: list[RatingChange] = []
        result = record.state.outcome
        rated = result is not None and result.termination is not Termination.VOID
        if declared(record.state.mode).rated and rated:
            try:
                ratings = await self.store.boards.record_duel_result(record)
            except Exception:
                log.exception("game %s: recording the duel rating failed", game_id)
        self.shows.tells.ratings[game_id] = ratings
        self.active.forget(record)
        return record

    async def with_last_reveal(self, record: GameRecord, state: GameState) -> GameRecord:
        """`record` with the last round's best answers when `state` ends the game, so they
        go with the end's own save (not a save of their own after it)."""
        number = len(state.rounds)
        if state.outcome is None or not number or record.meta.best_of(number):
            return record
        if not any(a is not None for a in state.rounds[-1].answers):
            return record
        found = await self.reveals.take(replace(record, state=state), number)
        if not found:  # none (no solver, none in time): the same record, not two copies
            return record
        return replace(record, meta=replace(record.meta, best=(*record.meta.best, *found)))

    async def _keep_last_reveal(self, record: GameRecord) -> GameRecord:
        """The last round's best answers, for the summary, kept with the game."""
        number = len(record.state.rounds)
        played = number and any(a is not None for a in record.state.rounds[-1].answers)
        if not played or record.meta.best_of(number) or not self.reveals.wanted(record):
            self.reveals.forget(record.state.id)
            return record
        found = await self.reveals.take(record, number)
        self.reveals.forget(record.state.id)
        if not found:
            return record
        kept = replace(record, meta=replace(record.meta, best=(*record.meta.best, *found)))
        try:
            await self.store.games.save_game(kept, now=self.clock())  # the same state: meta only
        except Exception:
            log.exception("game %s: keeping the last round's best answers failed", record.state.id)
            return record
        return kept

    async def void(self, record: GameRecord, reason: str) -> GameRecord:
        """End the game without a result: Discord took its place away, or an admin said so.
        Under the lock; `show` announces it after."""
        if record.state.outcome is not None:
            return record
        log.warning("game %s: void (%s)", record.state.id, reason)
        meta = replace(record.meta, void_reason=reason)
        record = await self.commit(
            replace(record, meta=meta), rules.apply(record.state, rules.Void())
        )
        return await self.finish(record)

    async def expire(self, game_id: str, round_number: int) -> None:
        """The deadline of `round_number`; a no-op when answers resolved it first.

        Formulas received by the deadline and still in PHP are waited for first. A
        player who missed it because they left the server makes the game void (asked
        before the lock: the question is a REST call).
        """
        record = self.active.get(game_id)
        rnd = record.state.current_round if record else None
        if record is None or rnd is None or rnd.number != round_number:
            return
        await self.in_flight.wait(game_id, round_number, rnd.answer_deadline, self.answer_grace)
        gone = await self._left(record)
        async with self.active.lock(game_id):
            record = self.active.get(game_id)
            rnd = record.state.current_round if record else None
            if record is None or rnd is None or rnd.number != round_number:
                return
            if self.clock() < rnd.answer_deadline:  # the post came late: not due yet
                self.arm(record)
                return
            missing = [
                p for p, a in zip(record.state.players, rnd.answers, strict=True) if a is None
            ]
            if any(player in gone for player in missing):
                record = await self.void(record, "player_left")
                resolved = None
            else:
                now = max(self.clock(), rnd.answer_deadline)
                state = self.going_on(record, rules.apply(record.state, rules.Expire(now)))
                try:
                    record = await self.commit(await self.with_last_reveal(record, state), state)
                except StaleGame:  # another bot process changed it first
                    log.warning(
                        "game %s: round %s was changed by another writer", game_id, round_number
                    )
                    await self.reload(game_id)
                    return
                resolved = self._resolved(record, round_number)
                if record.state.outcome is not None:
                    record = await self.finish(record, revealed=True)
        await self.show(record, resolved=resolved)

    async def _left(self, record: GameRecord) -> set[str]:
        """The players about to miss the deadline who left the server. Asked of a player
        only when they miss a second round in a row (a member is one REST call to ask
        about; the members intent, which would tell it for free, is privileged), and at
        once in a single-player game, which the miss would end."""
        state = record.state
        rnd = state.current_round
        if rnd is None:
            return set()
        gone = set()
        for index, (player, answer) in enumerate(zip(state.players, rnd.answers, strict=True)):
            if answer is not None or index == declared(state.mode).bot_seat:
                continue
            earlier = state.rounds[rnd.number - 2] if rnd.number > 1 else None
            earlier_answer = earlier.answers[index] if earlier is not None else None
            again = earlier_answer is not None and earlier_answer.auto
            if (len(state.players) == 1 or again) and await self.faces.presence_of(record).has_left(
                record.guild_id, player
            ):
                gone.add(player)
        return gone

    @staticmethod
    def _resolved(record: GameRecord, number: int) -> int | None:
        """`number` if that round ended with every answer in (its result is shown)."""
        rnd = record.state.rounds[number - 1]
        return number if all(answer is not None for answer in rnd.answers) else None

    async def resume(self, game_id: str, number: int) -> None:
        """Go on from the stored game after a failure: the failed save may have landed."""
        stored: GameRecord | None
        async with self.active.lock(game_id):
            stored = await self.store.games.load_game(game_id)
            if stored is None:
                return
            if stored.active:
                stored = self.shows.with_unsaved(stored)
            if not stored.active:
                if game_id not in self.active:
                    return
                stored = await self.finish(stored)  # finished in the store, never announced
            else:
                self.active.remember(stored)
                rnd = stored.state.current_round
                if rnd is None:  # the round was resolved, the next one never started
                    stored = await self.next_round(stored)
                elif rnd.number == number:
                    stored = None
                elif self.timers.armed(game_id):
                    return
        if stored is None:
            await self.expire(game_id, number)
        else:
            await self.show(stored)  # posts the open round if it is not up yet, else arms it

    async def answered(
        self, record: GameRecord, number: int, player: int, via: Via | None
    ) -> GameRecord:
        """Announce an answer just saved (outside the lock). In Practice the person's
        answer carries the round: the bot's own shows nothing by itself, and a person
        who answers first has the bot answer at once, on the person's interaction."""
        if self._resolved(record, number) is not None:
            return await self.show(record, via, resolved=number)
        if declared(record.state.mode).bot_seat is not None:
            if player == BOT_SEAT:
                return record
            try:
                hurried = await self.practice.hurry(record.state.id, number, via)
            except Exception:  # the person's answer is saved: never their error
                log.exception("practice %s: the bot's round %s failed", record.state.id, number)
                hurried = False
            if hurried:  # a game it ended is out of memory: the store has its end
                return await self.current(record.state.id) or record
        return await self.show(record, via, answered=player)

    # ------------------------------------------------------- restart, sweeps

    async def load(self) -> int:
        """This process's running games into memory, before the gateway is ready."""
        return await self.restart.load()

    async def recover(self) -> int:
        """Re-arm every active game of this process's shards after a restart; how many."""
        return await self.restart.recover()

    async def sweep(self, *, from_store: bool = False) -> int:
        """Resolve every overdue game whose timer is gone (`Sweeper.sweep`); how many."""
        return await self.sweeper.sweep(from_store=from_store)

    def close(self) -> None:
        self.timers.close()
        self.sweeper.close()
        self.practice.close()

    def arm(self, record: GameRecord) -> None:
        rnd = record.state.current_round
        if rnd is None:
            self.timers.cancel(record.state.id)
            return
        self.timers.arm(record.state.id, rnd.number, rnd.answer_deadline)
        self.sweeper.keep_sweeping()
