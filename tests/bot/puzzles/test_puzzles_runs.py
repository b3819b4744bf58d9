"""The puzzles' flow without Discord, on a real store, real PHP and node, and a pool the
real solver filled: every stored best answer is what the judge computes, every grade is
the rules' definition, and Storm, Streak and the daily puzzle run as RULES.md says."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import rules
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts, daily_embed
from bot.puzzles import (
    Graded,
    Invalid,
    PuzzleDayLines,
    PuzzleError,
    PuzzleRuns,
    daily_post_lines,
    draw_score,
    result_of,
)
from bot.storage import PuzzleKind, Store, open_store
from evaluator import Evaluation, Evaluator
from tests.bot.puzzles.conftest import Fill, filler_of

pytestmark = pytest.mark.asyncio(loop_scope="session")

GLOBAL = rules.load_sets()
DARTS, JS = GLOBAL["darts"], GLOBAL["js-darts"]
NOON = datetime(2026, 12, 7, 12, 0, tzinfo=UTC).timestamp()


class Clock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Heard:
    """A `PuzzleEvents` that records what it is told."""

    def __init__(self) -> None:
        self.finished: list[tuple[int, int, PuzzleKind, float, str]] = []

    async def run_finished(
        self, guild_id: int, user_id: int, kind: PuzzleKind, result: float, run_id: str
    ) -> None:
        self.finished.append((guild_id, user_id, kind, result, run_id))

    async def run_lines(self, run_id: str, locale: str) -> list[str]:
        return []


def the_rules_grade(before: float, best: float, got: float) -> float:
    """RULES.md "Accuracy and the puzzle grade", written out here on its own."""
    if got <= best:
        return 1.0
    if before > best:
        return min(1.0, max(0.0, (before - got) / (before - best)))
    return 0.0


class Recorded:
    """The daily post's channel: what it was asked to post."""

    def __init__(self) -> None:
        self.contents: list[DailyContent] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        self.contents.append(content)
        return 1

    async def find(self, channel_id: int, marker: str, since: float) -> None:
        return None


def runs(
    store: Store, evaluator: Evaluator, clock: Clock, heard: Heard | None = None
) -> PuzzleRuns:
    return PuzzleRuns(store, evaluator, SetsDirectory(store, GLOBAL), clock, events=heard)


@pytest.mark.parametrize("game_set", [DARTS, JS], ids=["php", "javascript"])
async def test_stored_best_answers_are_the_judges_and_grades_are_the_rules(
    store: Store, evaluator: Evaluator, fill: Fill, game_set: rules.GameSet
) -> None:
    await fill(game_set, 4)
    flow = runs(store, evaluator, Clock())
    shown = await flow.start(1, 10, PuzzleKind.STORM, game_set.name, "en")
    grades = set()
    for n in range(8):
        puzzle = shown.puzzle
        verdict = await evaluator.evaluate(puzzle.best_formula, puzzle.digits, game_set)
        assert isinstance(verdict, Evaluation) and verdict.value == puzzle.best_result
        _, best = rules.apply_points(
            puzzle.score,
            verdict.value,
            game_set.goal,
            game_set.bonus,
            numbers=game_set.language_rules,
        )
        assert best == puzzle.best_score and float(best) < float(puzzle.score)
        # the best itself, then the digits added in two halves: each graded by the rules
        formula = puzzle.best_formula if n % 2 else half_and_half(puzzle.digits)
        judged = await evaluator.evaluate(formula, puzzle.digits, game_set)
        assert isinstance(judged, Evaluation), formula
        _, got = rules.apply_points(
            puzzle.score,
            judged.value,
            game_set.goal,
            game_set.bonus,
            numbers=game_set.language_rules,
        )
        graded = await flow.submit(shown.run.id, 10, shown.seq, formula)
        assert isinstance(graded, Graded) and graded.answer.score == got
        expected = the_rules_grade(float(puzzle.score), float(best), float(got))
        assert graded.answer.grade == pytest.approx(expected, abs=1e-12)
        grades.add(graded.answer.grade)
        assert graded.next is not None
        shown = graded.next
    assert 1.0 in grades and len(grades) > 1


def half_and_half(digits: str) -> str:
    """The Digits as two two-digit numbers added, every literal decimal in both languages."""
    a, b = digits[:2].lstrip("0") or "0", digits[2:]
    second = f"{b[0]}+{b[1]}" if b[0] == "0" else b
    return f"{a[0]}+{a[1]}+{second}" if digits[0] == "0" else f"{a}+{second}"


async def test_a_storm_corrects_skips_and_ends_at_its_time(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 3)
    clock, heard = Clock(), Heard()
    flow = runs(store, evaluator, clock, heard)
    shown = await flow.start(1, 10, PuzzleKind.STORM, None, "en")
    assert shown.deadline == NOON + 180
    wrong = await flow.submit(shown.run.id, 10, shown.seq, "43+89")
    assert isinstance(wrong, Invalid) and wrong.shown.puzzle == shown.puzzle
    clock.now += 5
    solved = await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
    assert isinstance(solved, Graded) and solved.answer.grade == 1.0 and solved.next
    with pytest.raises(PuzzleError) as again:
        await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
    assert again.value.code == "answered"
    with pytest.raises(PuzzleError):
        await flow.skip(shown.run.id, 11, solved.next.seq)  # not bob's run
    clock.now += 5
    skipped = await flow.skip(shown.run.id, 10, solved.next.seq)
    assert skipped.answer.grade == 0.0 and skipped.next is not None
    clock.now = NOON + 181
    late = await flow.submit(shown.run.id, 10, skipped.next.seq, skipped.next.puzzle.best_formula)
    assert isinstance(late, Graded) and late.late and late.next is None
    run, answers = await flow.summary(shown.run.id)
    assert [a.grade for a in answers] == [1.0, 0.0]  # the late answer is not counted
    assert run.finished_at is not None and result_of(run) == 1.0 and run.solved == 1
    assert heard.finished == [(1, 10, PuzzleKind.STORM, 1.0, run.id)]
    assert await flow.sweep() == 0  # ended once: nothing for the sweep
    board = await store.puzzles.board(1, PuzzleKind.STORM, NOON - 3600)
    assert [(b.user_id, b.total, b.solved) for b in board] == [(10, 1.0, 1)]


async def test_a_storm_left_alone_is_ended_by_the_sweep_once(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 2)
    clock, heard = Clock(), Heard()
    flow = runs(store, evaluator, clock, heard)
    shown = await flow.start(1, 10, PuzzleKind.STORM, "darts", "uk")
    await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
    clock.now += 200
    assert await flow.sweep() == 1
    assert await flow.sweep() == 0
    assert [h[2:4] for h in heard.finished] == [(PuzzleKind.STORM, 1.0)]


async def test_a_streak_goes_on_while_solved_and_its_length_is_the_result(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 3)
    clock, heard = Clock(), Heard()
    flow = runs(store, evaluator, clock, heard)
    shown = await flow.start(1, 10, PuzzleKind.STREAK, None, "en")
    assert shown.deadline == NOON + DARTS.time_limit
    for _ in range(2):
        clock.now += 10
        graded = await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
        assert isinstance(graded, Graded) and graded.next is not None
        assert graded.next.deadline == clock.now + DARTS.time_limit  # each its own time
        shown = graded.next
    clock.now += DARTS.time_limit + 1
    late = await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
    assert isinstance(late, Graded) and late.late and late.next is None
    assert result_of(late.run) == 2.0 and heard.finished[0][2:4] == (PuzzleKind.STREAK, 2.0)
    # a restart loses nothing: another Store on the same database reads the same run
    board = await store.puzzles.board(1, PuzzleKind.STREAK, 0.0)
    assert [(b.user_id, b.solved) for b in board] == [(10, 2)]


async def test_a_streak_ends_at_the_first_unsolved_puzzle(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 2)
    flow = runs(store, evaluator, Clock())
    shown = await flow.start(1, 10, PuzzleKind.STREAK, None, "en")
    ended = await flow.skip(shown.run.id, 10, shown.seq)
    assert ended.next is None and result_of(ended.run) == 0.0


async def test_the_daily_puzzle_is_one_per_server_one_attempt_and_sealed(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 5)
    clock = Clock()
    flow = runs(store, evaluator, clock)
    first = await flow.daily(1, 10, "en")
    second = await flow.daily(1, 11, "uk")
    assert first.puzzle == second.puzzle  # the same for everyone on the server
    again = await flow.daily(1, 10, "en")
    assert again.run.id == first.run.id  # not answered yet: the same attempt, shown again
    clock.now += 20
    await flow.submit(first.run.id, 10, first.seq, first.puzzle.best_formula)
    clock.now += 20
    await flow.skip(second.run.id, 11, second.seq)
    with pytest.raises(PuzzleError) as done:
        await flow.daily(1, 10, "en")
    assert done.value.code == "daily_done"
    period = first.run.period
    assert period == "2026-12-07"
    assert await flow.daily_seal(1, period) is not None  # the day runs
    board = await store.puzzles.board(1, PuzzleKind.DAILY, 0.0, period=period)
    assert [(b.user_id, b.total) for b in board] == [(10, 1.0), (11, 0.0)]
    clock.now = datetime(2026, 12, 8, 0, 0, 1, tzinfo=UTC).timestamp()
    assert await flow.daily_seal(1, period) is None


async def test_an_empty_pool_is_refused_and_asked_for(store: Store, evaluator: Evaluator) -> None:
    flow = runs(store, evaluator, Clock())
    with pytest.raises(PuzzleError) as empty:
        await flow.start(1, 10, PuzzleKind.STORM, "sprint", "en")
    assert empty.value.code == "pool_empty"
    assert [s.name for s in await store.puzzles.wanted()] == ["sprint"]


async def test_the_pool_survives_a_restart(tmp_path, evaluator: Evaluator, solver) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/pool.sqlite3"
    async with await open_store(url) as first:
        await filler_of(first, evaluator, solver)(DARTS, 2)
    async with await open_store(url) as second:
        assert await second.puzzles.count(DARTS) == 2
        assert [s.name for s in await second.puzzles.wanted()] == ["darts"]


def test_scores_are_drawn_as_games_meet_them() -> None:
    rng = random.Random(3)
    drawn = [draw_score(DARTS, [], rng) for _ in range(400)]
    assert 0.15 < drawn.count(501) / 400 < 0.35  # every game starts there
    assert all(float(s) > 0 for s in drawn) and len(set(drawn)) > 50
    met = [float(i) for i in range(100, 160)]
    assert all(s == 501 or s in met for s in (draw_score(DARTS, met, rng) for _ in range(100)))


async def test_the_daily_post_shows_the_puzzle_only_once_the_day_is_over(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 2)
    clock = Clock()
    flow = runs(store, evaluator, clock)
    assert await daily_post_lines(flow, 1, "2026-12-07", "en") == []  # nobody played
    shown = await flow.daily(1, 10, "en")
    await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
    assert await daily_post_lines(flow, 1, "2026-12-07", "en") == []  # sealed: the day runs
    clock.now = datetime(2026, 12, 8, 0, 0, 1, tzinfo=UTC).timestamp()
    en = await daily_post_lines(flow, 1, "2026-12-07", "en")
    uk = await daily_post_lines(flow, 1, "2026-12-07", "uk")
    assert en[0] == "📅 Daily puzzle: 1 player · best grade 1.00"
    assert shown.puzzle.best_formula in en[1] and shown.puzzle.digits in en[1]
    assert uk[0] == "📅 Задача дня: гравців 1 · найкраща оцінка 1,00"
    assert "найкраща відповідь" in uk[1]

    # the server's daily post carries them, under the board of the Set the puzzle is of
    await store.servers.update(1, datetime(2026, 12, 7, 1, tzinfo=UTC).timestamp(), channel_id=9)
    channel = Recorded()
    posts = DailyPosts(
        store, flow.sets, channel, clock=lambda: clock.now, extras=PuzzleDayLines(flow)
    )
    assert (await posts.run_due()).made == 1
    [content] = channel.contents
    assert content.extra == tuple(en)
    field = daily_embed(content).fields[0]
    assert (field.name, field.value) == ("Daily puzzle", "\n".join(en))
    assert await PuzzleDayLines(flow).day_lines(1, "another-set", "2026-12-07", "en") == []


async def test_the_filler_tops_up_each_wanted_pool_to_its_size(
    store: Store, evaluator: Evaluator, solver
) -> None:
    from bot.puzzles import PoolFiller
    from bot.solving import ConfirmedSolver
    from solver.process import Lane

    async def no_sleep(_s: float) -> None:
        return None

    revealer = ConfirmedSolver(solver, evaluator, timeout_s=120, lane=Lane.BACKFILL)
    filler = PoolFiller(store, revealer, size=2, sleep=no_sleep, rng=random.Random(9))
    assert await filler.step() == 0  # nothing wanted yet
    await store.puzzles.want(DARTS, 0.0)
    while await store.puzzles.count(DARTS) < 2:
        await filler.step()
    assert await filler.step() == 0 and await store.puzzles.count(DARTS) == 2  # full
    assert filler.solved >= 2


async def test_a_streak_left_alone_ends_by_the_sweep_with_a_zero(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(DARTS, 2)
    clock, heard = Clock(), Heard()
    flow = runs(store, evaluator, clock, heard)
    shown = await flow.start(1, 10, PuzzleKind.STREAK, None, "en")
    solved = await flow.submit(shown.run.id, 10, shown.seq, shown.puzzle.best_formula)
    assert isinstance(solved, Graded) and solved.next is not None
    clock.now += DARTS.time_limit + 1
    assert await flow.sweep() == 1
    run, answers = await flow.summary(shown.run.id)
    assert [a.grade for a in answers] == [1.0, 0.0] and answers[1].formula is None
    assert run.finished_at is not None and result_of(run) == 1.0
    assert [h[2:4] for h in heard.finished] == [(PuzzleKind.STREAK, 1.0)]
    with pytest.raises(PuzzleError):
        await flow.submit(shown.run.id, 10, solved.next.seq, solved.next.puzzle.best_formula)
