"""Puzzles (RULES.md "Puzzles"): the prepared pool, the runs played from it and the
server's daily puzzle, so a restart loses nothing (`Store.puzzles`).

`puzzles` is the pool: a Set's (name and version) Digits and Score with the best answer
already found and confirmed by real PHP/node, so serving one and grading an answer read
it and never solve. `puzzle_sets` names the Sets the pool is kept for (a snapshot each,
so the background job needs no server's help). A run (`puzzle_runs`: a Storm, a Streak,
a daily attempt) keeps the puzzle it shows and its totals; each answer is a row of
`puzzle_answers` whose key (run, seq) lets only one of two racing answers count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._codec import number_text, parse_number
from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._lane import SqliteLane
from bot.storage._models import table
from bot.storage._puzzle_rows import (
    ANSWER_ONCE,
    RUN_MOVES_ON,
    PuzzleKind,
    answers_t,
    days_t,
    puzzles_t,
    runs_t,
    sets_t,
)
from rules.game_set import GameSet
from rules.scoring import Number


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A Set's Digits and Score, and the best answer (confirmed) with the Score it leaves."""

    id: int
    set_name: str
    digits: str
    score: Number
    best_formula: str
    best_result: Number
    best_score: Number


@dataclass(frozen=True, slots=True)
class PuzzleRun:
    id: str
    guild_id: int
    user_id: int
    kind: PuzzleKind
    game_set: GameSet
    locale: str
    period: str | None
    started_at: float
    ends_at: float | None
    puzzle_id: int | None
    shown_at: float | None
    total: float
    solved: int
    answered: int
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    seq: int
    puzzle: Puzzle
    formula: str | None
    score: Number | None
    grade: float
    seconds: float


@dataclass(frozen=True, slots=True)
class BoardLine:
    user_id: int
    total: float
    solved: int
    seconds: float


def _puzzle(r: Any) -> Puzzle:
    return Puzzle(
        r.id, r.set_name, r.digits, parse_number(r.score), r.best_formula,
        parse_number(r.best_result), parse_number(r.best_score),
    )  # fmt: skip


def _run(row: Any) -> PuzzleRun:
    return PuzzleRun(
        row.id, row.guild_id, row.user_id, PuzzleKind(row.kind),
        GameSet.from_dict(json.loads(row.game_set)), row.locale, row.period,
        row.started_at, row.ends_at, row.puzzle_id, row.shown_at, row.total,
        row.solved, row.answered, row.finished_at,
    )  # fmt: skip


async def _load_run(conn: AsyncConnection, run_id: str) -> PuzzleRun | None:
    row = (await conn.execute(sa.select(runs_t).where(runs_t.c.id == run_id))).first()
    return None if row is None else _run(row)


class PuzzleStore:
    """`Store.puzzles`: the pool, the runs and the daily puzzle; one transaction a method.
    `lane`: on a SQLite file, an answer is written in one trip to SQLite (`_lane`)."""

    def __init__(self, write: Connect, read: Connect, lane: SqliteLane | None = None) -> None:
        self._write = write
        self._read = read
        self._lane = lane

    # the pool

    async def want(self, game_set: GameSet, now: float) -> None:
        """Keep a pool for this Set (again: only its snapshot is refreshed)."""
        snapshot = json.dumps(game_set.to_dict(), sort_keys=True)
        async with self._write() as conn:
            await conn.execute(
                dialect_insert(conn, sets_t)
                .values(set_name=game_set.name, set_version=game_set.version,
                        game_set=snapshot, wanted_at=now)
                .on_conflict_do_nothing(index_elements=["set_name", "set_version"])
            )  # fmt: skip

    async def wanted(self) -> list[GameSet]:
        async with self._read() as conn:
            rows = await conn.execute(sa.select(sets_t.c.game_set).order_by(sets_t.c.wanted_at))
            return [GameSet.from_dict(json.loads(r.game_set)) for r in rows]

    async def count(self, game_set: GameSet) -> int:
        async with self._read() as conn:
            found = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(puzzles_t)
                .where(
                    puzzles_t.c.set_name == game_set.name,
                    puzzles_t.c.set_version == game_set.version,
                )
            )
            return int(found or 0)

    async def add(
        self, game_set: GameSet, digits: str, score: Number, formula: str, result: Number,
        best: Number, now: float,
    ) -> int:  # fmt: skip
        async with self._write() as conn:
            inserted = await conn.execute(
                puzzles_t.insert().values(
                    set_name=game_set.name, set_version=game_set.version, digits=digits,
                    score=number_text(score), best_formula=formula,
                    best_result=number_text(result), best_score=number_text(best),
                    created_at=now,
                ).returning(puzzles_t.c.id)
            )  # fmt: skip
            return int(inserted.scalar_one())

    async def ids(self, game_set: GameSet) -> list[int]:
        """The ids of the Set's pool, oldest first."""
        async with self._read() as conn:
            return list(
                await conn.scalars(
                    sa.select(puzzles_t.c.id)
                    .where(puzzles_t.c.set_name == game_set.name,
                           puzzles_t.c.set_version == game_set.version)
                    .order_by(puzzles_t.c.id)
                )
            )  # fmt: skip

    async def puzzle(self, puzzle_id: int) -> Puzzle | None:
        async with self._read() as conn:
            row = (
                await conn.execute(sa.select(puzzles_t).where(puzzles_t.c.id == puzzle_id))
            ).first()
            return None if row is None else _puzzle(row)

    async def scores_met(self, game_set: GameSet, limit: int) -> list[Number]:
        """Scores before a move in stored games of this Set (the start and every Score an
        answer left above 0), newest first: the Scores real play meets."""
        from bot.storage._games import games
        from bot.storage._models import AnswerRow

        answers = table(AnswerRow)
        async with self._read() as conn:
            rows = await conn.scalars(
                sa.select(answers.c.score)
                .join(games, games.c.id == answers.c.game_id)
                .where(games.c.set_name == game_set.name, games.c.set_version == game_set.version,
                       answers.c.score > 0)
                .order_by(games.c.created_at.desc())
                .limit(limit)
            )  # fmt: skip
            return [int(s) if float(s).is_integer() else float(s) for s in rows]

    # runs

    async def start(self, run: PuzzleRun) -> bool:
        """Store a new run; False when one of that id is there (a daily puzzle's attempt)."""
        async with self._write() as conn:
            inserted = await conn.execute(
                dialect_insert(conn, runs_t)
                .values(
                    id=run.id, guild_id=run.guild_id, user_id=run.user_id, kind=run.kind.value,
                    game_set=json.dumps(run.game_set.to_dict(), sort_keys=True),
                    locale=run.locale, period=run.period, started_at=run.started_at,
                    ends_at=run.ends_at, puzzle_id=run.puzzle_id, shown_at=run.shown_at,
                    total=run.total, solved=run.solved, answered=run.answered,
                    finished_at=run.finished_at,
                )
                .on_conflict_do_nothing(index_elements=["id"])
            )  # fmt: skip
            return bool(inserted.rowcount)

    async def run(self, run_id: str) -> PuzzleRun | None:
        async with self._read() as conn:
            return await _load_run(conn, run_id)

    async def answer(
        self, run: PuzzleRun, answer: PuzzleAnswer, *, next_puzzle: int | None,
        shown_at: float | None, ends_at: float | None, finished_at: float | None,
    ) -> bool:  # fmt: skip
        """Count one answer to the run's current puzzle and move it on, in one transaction;
        False when another answer to that puzzle counted first (nothing changes)."""
        row = {
            "run_id": run.id, "seq": answer.seq, "puzzle_id": answer.puzzle.id,
            "formula": answer.formula,
            "score": None if answer.score is None else number_text(answer.score),
            "grade": answer.grade, "seconds": answer.seconds,
        }  # fmt: skip
        moves = {
            "run": run.id, "add_total": answer.grade, "add_solved": int(answer.grade == 1.0),
            "new_answered": answer.seq, "new_puzzle": next_puzzle, "new_shown": shown_at,
            "new_ends": ends_at, "new_finished": finished_at,
        }  # fmt: skip
        if self._lane is not None:
            return await self._lane.apply([(ANSWER_ONCE, row), (RUN_MOVES_ON, moves)])
        async with self._write() as conn:
            inserted = await conn.execute(
                dialect_insert(conn, answers_t)
                .values(**row)
                .on_conflict_do_nothing(index_elements=["run_id", "seq"])
            )
            if not inserted.rowcount:
                return False
            await conn.execute(RUN_MOVES_ON, moves)
            return True

    async def expired(self, now: float, limit: int) -> list[PuzzleRun]:
        """Runs not ended whose deadline (a Storm's end, a puzzle's) has passed."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(runs_t)
                .where(runs_t.c.finished_at.is_(None), runs_t.c.ends_at < now)
                .order_by(runs_t.c.ends_at)
                .limit(limit)
            )
            return [_run(r) for r in rows]

    async def finish(self, run_id: str, now: float) -> None:
        async with self._write() as conn:
            await conn.execute(
                runs_t.update()
                .where(runs_t.c.id == run_id, runs_t.c.finished_at.is_(None))
                .values(finished_at=now, puzzle_id=None)
            )

    async def answers(self, run_id: str) -> list[PuzzleAnswer]:
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(
                    answers_t.c.seq,
                    answers_t.c.formula,
                    answers_t.c.grade,
                    answers_t.c.seconds,
                    answers_t.c.score.label("answered_score"),
                    *puzzles_t.c,
                )
                .join(puzzles_t, puzzles_t.c.id == answers_t.c.puzzle_id)
                .where(answers_t.c.run_id == run_id)
                .order_by(answers_t.c.seq)
            )
            return [
                PuzzleAnswer(r.seq, _puzzle(r), r.formula,
                             None if r.answered_score is None else parse_number(r.answered_score),
                             r.grade, r.seconds)
                for r in rows
            ]  # fmt: skip

    async def board(
        self, guild_id: int, kind: PuzzleKind, since: float, *, period: str | None = None,
        limit: int = 10,
    ) -> list[BoardLine]:  # fmt: skip
        """Each player's best run of `kind` here started since `since` (of `period` for
        the daily puzzle), best first: by total then solved (Storm), by length (Streak:
        its `solved`), by grade then time (the daily puzzle)."""
        query = sa.select(
            runs_t.c.user_id, runs_t.c.total, runs_t.c.solved, runs_t.c.started_at,
            runs_t.c.finished_at, runs_t.c.answered,
        ).where(runs_t.c.guild_id == guild_id, runs_t.c.kind == kind.value,
                runs_t.c.started_at >= since)  # fmt: skip
        if period is not None:
            query = query.where(runs_t.c.period == period)
        async with self._read() as conn:
            rows = list(await conn.execute(query))
            seconds: dict[int, float] = {}
            if kind is PuzzleKind.DAILY and rows:
                spent = await conn.execute(
                    sa.select(runs_t.c.user_id, answers_t.c.seconds)
                    .join(answers_t, answers_t.c.run_id == runs_t.c.id)
                    .where(runs_t.c.guild_id == guild_id, runs_t.c.kind == kind.value,
                           runs_t.c.period == period)
                )  # fmt: skip
                seconds = {r.user_id: r.seconds for r in spent}
        lines = [
            BoardLine(r.user_id, round(r.total, 2), r.solved, seconds.get(r.user_id, 0.0))
            for r in rows
            if kind is not PuzzleKind.DAILY or r.answered
        ]
        if kind is PuzzleKind.STREAK:
            lines.sort(key=lambda line: -line.solved)
        else:
            lines.sort(key=lambda line: (-line.total, -line.solved, line.seconds))
        best: dict[int, BoardLine] = {}
        for line in lines:
            best.setdefault(line.user_id, line)
        return list(best.values())[:limit]

    async def unfinished(self, guild_id: int, kind: PuzzleKind, period: str, now: float) -> int:
        """Runs of `kind` and `period` still being played at `now` (the daily seal)."""
        async with self._read() as conn:
            found = await conn.scalar(
                sa.select(sa.func.count()).select_from(runs_t).where(
                    runs_t.c.guild_id == guild_id, runs_t.c.kind == kind.value,
                    runs_t.c.period == period, runs_t.c.finished_at.is_(None),
                    runs_t.c.ends_at > now,
                )
            )  # fmt: skip
            return int(found or 0)

    # the daily puzzle

    async def day(self, guild_id: int, period: str, candidate: int) -> int:
        """The server's puzzle of `period`: `candidate` if none was chosen yet."""
        async with self._write() as conn:
            await conn.execute(
                dialect_insert(conn, days_t)
                .values(guild_id=guild_id, period=period, puzzle_id=candidate)
                .on_conflict_do_nothing(index_elements=["guild_id", "period"])
            )
            chosen = await conn.scalar(
                sa.select(days_t.c.puzzle_id).where(
                    days_t.c.guild_id == guild_id, days_t.c.period == period
                )
            )
            assert chosen is not None  # inserted above, or there before
            return int(chosen)

    async def chosen_day(self, guild_id: int, period: str) -> int | None:
        async with self._read() as conn:
            found = await conn.scalar(
                sa.select(days_t.c.puzzle_id).where(
                    days_t.c.guild_id == guild_id, days_t.c.period == period
                )
            )
            return None if found is None else int(found)
