"""A room's flow: the rules' room played on the store, with timers and a face that shows it
(`_room_shows`: what the face shows, and the reveals and tables owed until they land).

No discord here (the face is a Protocol; `bot.rooms` is Discord's). Every change is
applied by `rules.room`, saved (the store is the truth; `latest` is only a cache for the
face's progress line), then shown. One lock per room orders the changes in this process;
a stale save (another process moved on) is refused by the store.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import rules
from bot.common import SetsDirectory, UserError
from bot.play._room_shows import RoomFace, RoomShows, owed_by
from bot.play._timers import Timers
from bot.play._types import (
    DEADLINE_RETRY_FIRST_S,
    DEADLINE_RETRY_MAX_S,
    DEADLINE_TRIES,
    DigitsSource,
    Evaluating,
    Revealer,
    answer_grace,
)
from bot.storage import RoomRecord, Store
from evaluator.result import EvalError, Evaluation
from rules import GameSet
from rules.game import Expire, ReplayRound, Resign, RoundShown, StartRound, Submit, Void
from rules.room import (
    Begin,
    Join,
    Leave,
    Phase,
    RoomAction,
    apply,
    new_room,
    submit_problem,
    wants_round,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Digits = Callable[[], str]


_NO_GAME = rules.new_game("room", rules.Mode.TRAINING, rules.CLASSIC, ["room"])


def room_digits(source: DigitsSource) -> Digits:
    """A room's Digits from the bot's source, which is asked per game: a room is not a
    game of `rules.game`, so it asks with a placeholder (the sources ignore it; a
    Qualification's seeded Digits never come from a source)."""
    return lambda: source(_NO_GAME, 0)


class RoomError(UserError):
    """A refusal about a room, in the catalog under `rooms.error.<code>` (the rules' codes)."""

    prefix = "rooms.error."

    @classmethod
    def of(cls, problem: rules.RulesError) -> RoomError:
        return cls(problem.code)


@dataclass(frozen=True, slots=True)
class Answered:
    """A submit's outcome: `error` for a formula to correct, else the accepted evaluation."""

    record: RoomRecord
    evaluation: Evaluation | None = None
    error: EvalError | None = None

    @property
    def round_open(self) -> bool:
        return self.record.state.current_round is not None


class RoomFlow:
    def __init__(
        self, store: Store, evaluator: Evaluating, sets: SetsDirectory, clock: Clock,
        digits: Digits, revealer: Revealer | None = None,
        owns: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:  # fmt: skip
        """`owns`: whether this process runs a server's rooms (its shards'); a restart
        resumes only those, so two processes never run one room's timers."""
        self.store = store
        self.evaluator = evaluator
        self.sets = sets
        self.clock = clock
        self.digits = digits
        self.revealer = revealer
        self.owns = owns
        self.face: RoomFace | None = None
        self.latest: dict[str, RoomRecord] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers = Timers(clock, "room")
        self.grace = answer_grace(evaluator)
        self.shows = RoomShows(self._face, revealer, clock, self._save, self._load, self._lock)
        self._flying: dict[str, set[asyncio.Future[None]]] = {}
        """Per room, the answers being judged: a deadline waits for them (up to `grace`),
        so an answer Discord took before it counts."""

    def _face(self) -> RoomFace:
        if self.face is None:
            raise RuntimeError("the room flow has no face")
        return self.face

    def _lock(self, room_id: str) -> asyncio.Lock:
        return self._locks.setdefault(room_id, asyncio.Lock())

    async def _load(self, room_id: str) -> RoomRecord:
        record = await self.store.rooms.load(room_id)
        if record is None:
            raise RoomError("unknown")
        return record

    async def _save(self, record: RoomRecord) -> RoomRecord:
        saved = await self.store.rooms.save(record, self.clock())
        if saved.state.phase is Phase.OVER:  # nothing more happens to it here
            self.latest.pop(saved.state.id, None)
            self._locks.pop(saved.state.id, None)  # any later action is refused by the rules
            self._timers.cancel(saved.state.id)
        else:
            self.latest[saved.state.id] = saved
        return saved

    async def _apply(
        self, record: RoomRecord, action: RoomAction, *, shown: bool = True
    ) -> RoomRecord:
        """Apply and save `action`; what it owes the players (`owed_by`) is saved with it,
        unless not `shown` (the room's place is gone)."""
        try:
            state = apply(record.state, action)
        except rules.RulesError as problem:
            raise RoomError.of(problem) from None
        owed = owed_by(record, state) if shown else record.owed
        return await self._save(replace(record, state=state, owed=owed))

    # ------------------------------------------------------------------ the lobby

    async def open(
        self, guild_id: int, channel_id: int, host: int, set_name: str | None, size: int,
        locale: str,
    ) -> RoomRecord:  # fmt: skip
        game_set: GameSet = await self.sets.resolve(guild_id, set_name)
        hosting = (
            r for r in self.latest.values()
            if r.guild_id == guild_id and r.state.host == str(host) and r.state.phase is Phase.LOBBY
        )  # fmt: skip
        if any(hosting):
            raise RoomError("lobby_open")  # one lobby at a time: a second would only spam
        now = self.clock()
        try:
            state = new_room(secrets.token_hex(16), game_set, str(host), size, now)
        except rules.RulesError as problem:
            raise RoomError.of(problem) from None
        record = await self._save(RoomRecord(state, guild_id, channel_id, locale, now))
        self._arm_lobby(record)
        return record

    async def lobby_posted(self, room_id: str, message_id: int) -> None:
        async with self._lock(room_id):
            record = await self._load(room_id)
            await self._save(replace(record, lobby_message_id=message_id))

    def _arm_lobby(self, record: RoomRecord) -> None:
        room_id = record.state.id
        self._at(room_id, record.state.lobby_deadline, lambda: self._lobby_due(room_id))

    async def _lobby_due(self, room_id: str) -> None:
        async with self._lock(room_id):
            record = await self._load(room_id)
            if record.state.phase is not Phase.LOBBY:
                return
            record = await self._apply(record, Expire(self.clock()))
            if record.state.phase is Phase.PLAYING:
                record = await self._begin(record)
            await self._face().lobby_closed(record)

    async def join(self, room_id: str, player: int) -> RoomRecord:
        return await self._lobby_action(room_id, Join(str(player)))

    async def begin(self, room_id: str, player: int) -> RoomRecord:
        return await self._lobby_action(room_id, Begin(str(player)))

    async def leave(self, room_id: str, player: int) -> RoomRecord:
        """Leave the lobby, or the room in play (out, ranked below those still in)."""
        async with self._lock(room_id):
            record = await self._load(room_id)
            if record.state.phase is Phase.LOBBY:
                return await self._apply(record, Leave(str(player)))
            record = await self._apply(record, Resign(str(player)))
            await self._after_change(record)
            return record

    async def _lobby_action(self, room_id: str, action: Join | Begin) -> RoomRecord:
        async with self._lock(room_id):
            record = await self._apply(await self._load(room_id), action)
            if record.state.phase is Phase.PLAYING:
                self._timers.cancel(room_id)
                record = await self._begin(record)
            return record

    # ------------------------------------------------------------------ rounds

    async def _begin(self, record: RoomRecord) -> RoomRecord:
        try:
            thread_id = await self._face().open_thread(record)
        except Exception:
            log.exception("room %s: its thread could not be opened", record.state.id)
            return await self._apply(record, Void())
        record = await self._save(replace(record, thread_id=thread_id))
        return await self._next_round(record)

    async def _next_round(self, record: RoomRecord) -> RoomRecord:
        state = record.state
        if wants_round(state):
            record = await self._apply(record, StartRound(self.digits(), self.clock()))
        try:
            message_id, shown = await self._face().post_round(record)
        except Exception:
            log.exception("room %s: its round could not be posted", state.id)
            record = await self._apply(record, Void())
            await self._tell_finished(record)
            return record
        record = await self._apply(replace(record, round_message_id=message_id), RoundShown(shown))
        self._arm_round(record)
        return record

    def _arm_round(self, record: RoomRecord) -> None:
        rnd = record.state.current_round
        if rnd is None:
            return
        room_id, number = record.state.id, rnd.number
        self._at(room_id, rnd.answer_deadline, lambda: self._round_due(room_id, number))

    def _at(self, room_id: str, moment: float, due: Callable[[], Awaitable[None]]) -> None:
        """Run the room's `due` step at `moment`; one that fails (the store away for a
        moment) is tried again after 1, 2, 4 ... 60 s, as a game's deadline is, so a
        hiccup never leaves a room without a timer until the next restart."""

        async def attempt(delay: float, tries: int) -> None:
            try:
                await due()
            except Exception:
                if tries <= 1:
                    log.exception("room %s: its deadline failed for good", room_id)
                    return
                log.exception("room %s: its deadline failed; tried again", room_id)
                again = min(delay * 2, DEADLINE_RETRY_MAX_S)
                self._timers.at(room_id, self.clock() + delay, lambda: attempt(again, tries - 1))

        self._timers.at(room_id, moment, lambda: attempt(DEADLINE_RETRY_FIRST_S, DEADLINE_TRIES))

    async def _round_due(self, room_id: str, number: int) -> None:
        flying = self._flying.get(room_id)
        if flying:
            await asyncio.wait(set(flying), timeout=self.grace)
        async with self._lock(room_id):
            record = await self._load(room_id)
            rnd = record.state.current_round
            if rnd is None or rnd.number != number:
                return
            record = await self._apply(record, Expire(max(self.clock(), rnd.answer_deadline)))
            await self._after_change(record)

    async def submit(
        self, room_id: str, player: int, formula: str, round_number: int | None, received: float
    ) -> Answered:
        """A player's formula: checked by the rules first, then judged by the Set's language
        (outside the lock), then applied at the moment Discord received it."""
        record = self.latest.get(room_id) or await self._load(room_id)
        self._check(record, player, received, round_number)
        rnd = record.state.current_round
        assert rnd is not None
        landed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        flying = self._flying.setdefault(room_id, set())
        flying.add(landed)
        try:
            verdict = await self.evaluator.evaluate(
                formula, rnd.digits, record.state.game_set, who=str(player)
            )
            if isinstance(verdict, EvalError):
                return Answered(record, error=verdict)
            async with self._lock(room_id):
                record = await self._load(room_id)
                self._check(record, player, received, round_number)
                action = Submit(str(player), verdict.formula, verdict.value, received)
                record = await self._apply(record, action)
                landed.set_result(None)
                await self._after_change(record)
        finally:
            flying.discard(landed)
            if not landed.done():
                landed.set_result(None)
        return Answered(record, evaluation=verdict)

    async def can_answer(self, room_id: str, player: int, round_number: int) -> rules.Round:
        """The open round `player` may answer now, from the cached room when there is one
        (a modal must be the interaction's first response); else RoomError."""
        record = self.latest.get(room_id) or await self._load(room_id)
        self._check(record, player, self.clock(), round_number)
        rnd = record.state.current_round
        assert rnd is not None
        return rnd

    @staticmethod
    def _check(record: RoomRecord, player: int, now: float, round_number: int | None) -> None:
        problem = submit_problem(record.state, str(player), now, round_number)
        if problem is not None:
            raise RoomError.of(problem)

    async def _after_change(self, record: RoomRecord) -> None:
        """A round that ended is revealed; then the next one, or the end."""
        state = record.state
        if state.current_round is not None or not state.rounds:
            return
        self._timers.cancel(state.id)
        record = await self.shows.reveal(record, state.rounds[-1].number)
        if state.phase is Phase.OVER:
            await self._tell_finished(record)
        else:
            await self._next_round(record)

    async def _tell_finished(self, record: RoomRecord) -> None:
        await self.shows.table(record)

    # ------------------------------------------------------------------ lifetime

    async def void_where(self, *, guild_id: int | None = None, thread_id: int | None = None) -> int:
        """Discord took the rooms' place away (their thread, the server): they end void,
        without places. The open rooms are all in `latest` (saved or recovered here)."""
        doomed = [
            r.state.id
            for r in list(self.latest.values())
            if (guild_id is not None and r.guild_id == guild_id)
            or (thread_id is not None and r.thread_id == thread_id)
        ]
        for room_id in doomed:
            async with self._lock(room_id):
                record = await self._load(room_id)
                if record.state.phase is not Phase.OVER:
                    await self._apply(record, Void(), shown=False)
        return len(doomed)

    async def recover(self) -> int:
        """After a restart: every open lobby and round has its timer again; a round whose
        deadline passed while the bot was down is played again (`ReplayRound`), posted anew."""
        rooms = [r for r in await self.store.rooms.open_rooms() if self.owns(r.guild_id)]
        for record in rooms:
            async with self._lock(record.state.id):
                await self._resume(record)
        for record in await self.store.rooms.owing():
            if self.owns(record.guild_id):
                self.shows.arm(record.state.id, 0)
        return len(rooms)

    async def _resume(self, record: RoomRecord) -> None:
        self.latest[record.state.id] = record
        rnd = record.state.current_round
        if record.state.phase is Phase.LOBBY:
            self._arm_lobby(record)
        elif record.thread_id is None:
            await self._begin(record)
        elif rnd is None or record.round_message_id is None:
            await self._next_round(record)
        elif self.clock() > rnd.answer_deadline + self.grace:
            await self._next_round(await self._apply(record, ReplayRound(self.clock())))
        else:
            self._arm_round(record)

    def close(self) -> None:
        self._timers.close()
        self.shows.close()
