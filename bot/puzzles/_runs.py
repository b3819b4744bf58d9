"""Storm, Streak and the daily puzzle (RULES.md "Puzzles"), without Discord: a run shows
one puzzle at a time from the prepared pool, grades each answer against the stored best
answer (`rules.grade`), and keeps everything in the store as it happens.

No solver is asked here: the best answer is the pool's. Only the player's own formula
goes to the Set's judge (PHP, node), as in every round. Time is the caller's clock and
stored: a Storm ends at its start plus the Set's `storm_seconds`, a Streak's puzzle and
the daily puzzle at their showing plus the Set's `time_limit`; an answer after that is
not counted, and `sweep` ends the runs nobody came back to (the events fire once).
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

import rules
from bot.common import SetsDirectory, UserError
from bot.play import Evaluating
from bot.puzzles._owed import OwedSummaries
from bot.puzzles._served import PoolCache
from bot.storage import Puzzle, PuzzleAnswer, PuzzleKind, PuzzleRun, Store
from evaluator import EvalError
from rules.grade import grade

Clock = Callable[[], float]
LIVE_KEPT = 10_000
"""Runs kept as written (`PuzzleRuns._live`): far more than play at once."""


class PuzzleError(UserError):
    """A refusal of the puzzles, worded in `puzzles.error.<code>`."""

    prefix = "puzzles.error."


class PuzzleEvents(Protocol):
    """What the puzzles tell the rest of the bot (achievements' Storm and Streak
    milestones): a run that ended, once, with its result (a Storm's sum of grades, a
    Streak's length, the daily puzzle's grade). What a listener answers is its own
    (achievements say what the run earned): the run does not wait on its meaning."""

    async def run_finished(
        self, guild_id: int, user_id: int, kind: PuzzleKind, result: float, run_id: str
    ) -> object: ...

    async def run_lines(self, run_id: str, locale: str) -> list[str]:
        """What the ended run earned, as its summary's lines (the same on every call)."""
        ...


class NoEvents:
    """The default `PuzzleEvents`: nothing listens."""

    async def run_finished(
        self, guild_id: int, user_id: int, kind: PuzzleKind, result: float, run_id: str
    ) -> None:
        return None

    async def run_lines(self, run_id: str, locale: str) -> list[str]:
        return []


@dataclass(frozen=True, slots=True)
class Shown:
    """A puzzle to show: the run, its number in the run (`seq`) and its deadline."""

    run: PuzzleRun
    puzzle: Puzzle
    seq: int
    deadline: float


@dataclass(frozen=True, slots=True)
class Graded:
    """An answer counted (or a Skip, or a time-out: `answer.formula` None); `next` is the
    puzzle after it, None when the run is over."""

    run: PuzzleRun
    answer: PuzzleAnswer
    next: Shown | None
    late: bool = False


@dataclass(frozen=True, slots=True)
class Invalid:
    """A formula with no Result: the puzzle stays, the player may correct it."""

    error: EvalError
    shown: Shown


def result_of(run: PuzzleRun) -> float:
    """A run's result: a Storm's sum of grades, a Streak's length, the daily grade."""
    return float(run.solved) if run.kind is PuzzleKind.STREAK else round(run.total, 2)


def daily_run_id(guild_id: int, user_id: int, period: str) -> str:
    """The one attempt a player has at a server's daily puzzle: its id, so a second start
    finds the first."""
    return hashlib.sha256(f"daily:{guild_id}:{user_id}:{period}".encode()).hexdigest()[:32]


class PuzzleRuns:
    """Starts runs, grades answers and ends runs; the store holds every step."""

    def __init__(
        self, store: Store, evaluator: Evaluating, sets: SetsDirectory, clock: Clock, *,
        events: PuzzleEvents | None = None,
    ) -> None:  # fmt: skip
        self.store = store
        self.evaluator = evaluator
        self.sets = sets
        self.clock = clock
        self.events: PuzzleEvents = events or NoEvents()
        self.pool = PoolCache(store, clock)
        self.owed = OwedSummaries(store.install)
        self._live: OrderedDict[str, PuzzleRun] = OrderedDict()
        """Runs this process wrote last, as stored (a write-through copy: an answer reads
        no row; a restart or a miss reads the store). A run's answers come through its
        server's shard, so no other process writes it."""

    async def start(
        self, guild_id: int, user_id: int, kind: PuzzleKind, set_name: str | None, locale: str
    ) -> Shown:
        """A new Storm or Streak of the Set, its first puzzle shown."""
        game_set = await self.sets.resolve(guild_id, set_name)
        now = self.clock()
        run_id = uuid.uuid4().hex
        puzzle = await self._pick(game_set, run_id, 0)
        ends = now + game_set.storm_seconds if kind is PuzzleKind.STORM else None
        run = PuzzleRun(
            run_id, guild_id, user_id, kind, game_set, locale, None, now, ends,
            puzzle.id, now, 0.0, 0, 0, None,
        )  # fmt: skip
        if ends is None:
            run = replace(run, ends_at=now + game_set.time_limit)
        await self.store.puzzles.start(run)
        self._keep(run)
        return self._shown(run, puzzle)

    def _keep(self, run: PuzzleRun) -> None:
        if run.finished_at is not None:
            self._live.pop(run.id, None)
            return
        self._live[run.id] = run
        self._live.move_to_end(run.id)
        if len(self._live) > LIVE_KEPT:
            self._live.popitem(last=False)

    async def daily(self, guild_id: int, user_id: int, locale: str) -> Shown:
        """The server's puzzle of the day (the default Set's), one attempt: the attempt
        started before is shown again while it runs, refused once it is answered."""
        game_set = await self.sets.resolve(guild_id, None)
        zone = (await self.store.servers.settings(guild_id)).zone
        now = self.clock()
        period = rules.period_of(datetime.fromtimestamp(now, UTC), zone)
        puzzle = await self._daily_puzzle(guild_id, period, game_set)
        run = PuzzleRun(
            daily_run_id(guild_id, user_id, period), guild_id, user_id, PuzzleKind.DAILY,
            game_set, locale, period, now, now + game_set.time_limit, puzzle.id, now,
            0.0, 0, 0, None,
        )  # fmt: skip
        if not await self.store.puzzles.start(run):
            kept = await self.store.puzzles.run(run.id)
            if kept is None or kept.puzzle_id is None or kept.finished_at is not None:
                raise PuzzleError("daily_done")
            return self._shown(kept, puzzle)
        return self._shown(run, puzzle)

    async def _daily_puzzle(self, guild_id: int, period: str, game_set: rules.GameSet) -> Puzzle:
        chosen = await self.store.puzzles.chosen_day(guild_id, period)
        if chosen is None:
            candidate = await self._pick(game_set, f"{guild_id}:{period}", 0)
            chosen = await self.store.puzzles.day(guild_id, period, candidate.id)
        puzzle = await self.pool.puzzle(chosen)
        if puzzle is None:
            raise PuzzleError("pool_empty", set=game_set.name)
        return puzzle

    async def _pick(self, game_set: rules.GameSet, key: str, index: int) -> Puzzle:
        """The `index`-th puzzle of the order `key` (a run's id) gives the pool."""
        puzzle = await self.pool.nth(game_set, key, index)
        if puzzle is None:  # the background job fills it: a server's own Set is new to it
            await self.store.puzzles.want(game_set, self.clock())
            raise PuzzleError("pool_empty", set=game_set.name)
        return puzzle

    def _shown(self, run: PuzzleRun, puzzle: Puzzle) -> Shown:
        assert run.ends_at is not None
        return Shown(run, puzzle, run.answered + 1, run.ends_at)

    async def current(self, run_id: str, user_id: int, seq: int) -> Shown:
        """The run's puzzle number `seq`, if it is still to be answered by this player."""
        run = self._live.get(run_id) or await self.store.puzzles.run(run_id)
        if run is None or run.user_id != user_id:
            raise PuzzleError("not_yours")
        if run.finished_at is not None or run.puzzle_id is None:
            raise PuzzleError("over")
        if seq != run.answered + 1:
            raise PuzzleError("answered")
        puzzle = await self.pool.puzzle(run.puzzle_id)
        if puzzle is None:
            raise PuzzleError("over")
        return self._shown(run, puzzle)

    async def submit(
        self, run_id: str, user_id: int, seq: int, formula: str, now: float | None = None
    ) -> Graded | Invalid:
        """Grade a formula for the run's puzzle `seq`: Invalid keeps the puzzle (it may be
        corrected); after the deadline nothing is counted and the run ends."""
        shown = await self.current(run_id, user_id, seq)
        now = self.clock() if now is None else now
        if now > shown.deadline:
            return await self._time_out(shown, now)
        game_set = shown.run.game_set
        verdict = await self.evaluator.evaluate(
            formula, shown.puzzle.digits, game_set, who=str(user_id)
        )
        if isinstance(verdict, EvalError):
            return Invalid(verdict, shown)
        puzzle = shown.puzzle
        _points, after = rules.apply_points(
            puzzle.score,
            verdict.value,
            game_set.goal,
            game_set.bonus,
            numbers=game_set.language_rules,
        )
        mark = grade(puzzle.score, puzzle.best_score, after)
        answer = PuzzleAnswer(seq, puzzle, verdict.formula, after, mark, now - _since(shown))
        return await self._count(shown, answer, now)

    async def skip(self, run_id: str, user_id: int, seq: int, now: float | None = None) -> Graded:
        """Skip the puzzle with grade 0 (a Storm's Skip; in a Streak it ends the run)."""
        shown = await self.current(run_id, user_id, seq)
        now = self.clock() if now is None else now
        if now > shown.deadline:
            return await self._time_out(shown, now)
        answer = PuzzleAnswer(seq, shown.puzzle, None, None, 0.0, now - _since(shown))
        return await self._count(shown, answer, now)

    async def _time_out(self, shown: Shown, now: float) -> Graded:
        """Past the deadline: a Storm ends as it stood; a Streak's or the daily puzzle's
        answer is a 0 that ends the run."""
        run = shown.run
        if run.kind is PuzzleKind.STORM:
            await self._end(run, now)
            ended = await self.store.puzzles.run(run.id)
            assert ended is not None
            answer = PuzzleAnswer(shown.seq, shown.puzzle, None, None, 0.0, 0.0)
            return Graded(ended, answer, None, late=True)
        answer = PuzzleAnswer(shown.seq, shown.puzzle, None, None, 0.0, now - _since(shown))
        graded = await self._count(shown, answer, now)
        return replace(graded, late=True)

    async def _count(self, shown: Shown, answer: PuzzleAnswer, now: float) -> Graded:
        run = shown.run
        goes_on = run.kind is PuzzleKind.STORM or (
            run.kind is PuzzleKind.STREAK and answer.grade == 1.0
        )
        after = await self._pick(run.game_set, run.id, answer.seq) if goes_on else None
        ends = run.ends_at
        if run.kind is PuzzleKind.STREAK and after is not None:
            ends = now + run.game_set.time_limit
        finished = None if after is not None else now
        counted = await self.store.puzzles.answer(
            run, answer, next_puzzle=None if after is None else after.id,
            shown_at=now if after is not None else None, ends_at=ends, finished_at=finished,
        )  # fmt: skip
        if not counted:
            raise PuzzleError("answered")
        stored = replace(
            run, total=run.total + answer.grade, solved=run.solved + (answer.grade == 1.0),
            answered=answer.seq, puzzle_id=None if after is None else after.id,
            shown_at=now if after is not None else None, ends_at=ends, finished_at=finished,
        )  # fmt: skip
        self._keep(stored)
        if finished is not None:
            await self.events.run_finished(
                run.guild_id, run.user_id, run.kind, result_of(stored), run.id
            )
            return Graded(stored, answer, None)
        assert after is not None
        return Graded(stored, answer, self._shown(stored, after))

    async def stop(self, run_id: str, user_id: int) -> PuzzleRun:
        """End a run now (the player's Stop): what was answered stands."""
        run = await self.store.puzzles.run(run_id)
        if run is None or run.user_id != user_id:
            raise PuzzleError("not_yours")
        await self._end(run, self.clock())
        ended = await self.store.puzzles.run(run_id)
        assert ended is not None
        return ended

    async def _end(self, run: PuzzleRun, now: float) -> None:
        self._live.pop(run.id, None)
        if run.finished_at is not None:
            return
        await self.store.puzzles.finish(run.id, now)
        ended = await self.store.puzzles.run(run.id)
        if ended is not None and ended.finished_at == now:
            await self.events.run_finished(
                run.guild_id, run.user_id, run.kind, result_of(ended), run.id
            )

    async def sweep(self, limit: int = 100) -> int:
        """End the runs whose time ran out with nobody back to answer; how many."""
        now = self.clock()
        ended = 0
        for run in await self.store.puzzles.expired(now, limit):
            if run.kind is PuzzleKind.STORM:
                await self._end(run, now)
            else:  # the puzzle shown was not answered in time: a 0, and the run ends
                puzzle = None if run.puzzle_id is None else await self.pool.puzzle(run.puzzle_id)
                if puzzle is None:
                    await self._end(run, now)
                else:
                    late = PuzzleAnswer(run.answered + 1, puzzle, None, None, 0.0,
                                        (run.ends_at or now) - (run.shown_at or now))  # fmt: skip
                    try:
                        await self._count(self._shown(run, puzzle), late, now)
                    except PuzzleError:  # answered meanwhile
                        continue
            await self.owed.owe(run)  # nobody was told: its player is, at their next press
            ended += 1
        return ended

    async def take_owed(self, guild_id: int, user_id: int) -> list[str]:
        """The runs the sweep ended whose summaries the player is now to be shown, each
        once (`OwedSummaries`)."""
        return await self.owed.take(guild_id, user_id)

    async def summary(self, run_id: str) -> tuple[PuzzleRun, list[PuzzleAnswer]]:
        run = await self.store.puzzles.run(run_id)
        if run is None:
            raise PuzzleError("over")
        return run, await self.store.puzzles.answers(run_id)

    async def earned_lines(self, run_id: str, locale: str) -> list[str]:
        """What the run earned (the events' listener stored it as the run ended), as lines
        for its summary."""
        return await self.events.run_lines(run_id, locale)

    async def daily_seal(self, guild_id: int, period: str) -> rules.Seal | None:
        """The seal on a day's puzzle (`rules.seal`): its best answer and the players'
        formulas stay hidden until the day ends and every attempt of it has."""
        zone = (await self.store.servers.settings(guild_id)).zone
        now = self.clock()
        running = await self.store.puzzles.unfinished(guild_id, PuzzleKind.DAILY, period, now)
        return rules.seal(period, datetime.fromtimestamp(now, UTC), still_played=running > 0,
                          tz=zone)  # fmt: skip


def _since(shown: Shown) -> float:
    return shown.run.shown_at if shown.run.shown_at is not None else shown.run.started_at
