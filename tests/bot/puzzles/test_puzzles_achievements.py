"""A run's summary lists what the run earned (`Rewards.run_finished` stores it as the run
ends, `run_lines` reads it back), once: in the terminal and on simcord, with real PHP and
a pool the real solver filled. A second run worth as much earns nothing new."""

from __future__ import annotations

import io

import pytest

import rules
from bot.achievements import Rewards
from bot.common import SetsDirectory
from bot.puzzles import PuzzleRuns, play_puzzles
from bot.storage import PuzzleKind, Store
from evaluator import Evaluator
from tests.bot.puzzles.conftest import Fill
from tests.bot.puzzles.test_puzzles_sim import answer, latest, shown_puzzle
from tests.support.sim import button_id, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")
GLOBAL = rules.load_sets()
EARNED_EN = "🏅 Achievement earned: **Storm 10**"
TEN = 10
"""A Storm worth 10 (every answer the best: grade 1 each) earns "Storm 10"."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _terminal_storm(runs: PuzzleRuns, clock: Clock, solved: int) -> str:
    """A Storm in the terminal: `solved` puzzles answered with their best, then `:q`."""
    out, given = io.StringIO(), [0]
    started_at = clock.now

    async def read() -> str | None:
        clock.now += 2
        if given[0] == solved:
            return ":q"
        given[0] += 1
        (run,) = await runs.store.puzzles.expired(clock.now + 1_000, 1)  # the one running
        assert run.started_at == started_at and run.puzzle_id is not None
        puzzle = await runs.store.puzzles.puzzle(run.puzzle_id)
        assert puzzle is not None
        return puzzle.best_formula

    await play_puzzles(runs, PuzzleKind.STORM, "darts", read, out)
    return out.getvalue()


async def test_a_terminal_storms_summary_lists_what_it_earned_once(
    store: Store, evaluator: Evaluator, fill: Fill
) -> None:
    await fill(GLOBAL["darts"], 3)
    clock = Clock()
    rewards = Rewards(store, clock)
    runs = PuzzleRuns(store, evaluator, SetsDirectory(store, GLOBAL), clock, events=rewards)
    first = await _terminal_storm(runs, clock, TEN)
    assert "Storm over · darts · total 10.00" in first
    assert first.count("Achievement earned: Storm 10") == 1  # plain: no bold in a terminal
    again = await _terminal_storm(runs, clock, TEN)
    assert "total 10.00" in again and "Achievement earned" not in again  # held already
    short = await _terminal_storm(runs, clock, 2)
    assert "Achievement earned" not in short


async def test_a_discord_storms_summary_lists_what_it_earned_in_both_languages(
    world, fill: Fill
) -> None:
    await fill(GLOBAL["darts"], 3)
    earned_uk = "🏅 Нове досягнення: **Шторм 10**"
    for member, language, earned in ((world.alice, "en", EARNED_EN), (world.bob, "uk", earned_uk)):
        speak(world.env, member, language)
        await member.slash(world.channel, "storm")
        for _ in range(TEN):
            message = latest(world, member)
            await answer(member, message, (await shown_puzzle(world, message)).best_formula)
        last = latest(world, member)
        stopped = await member.click(last, custom_id=button_id(last, "fd:pz:stop:"))
        text = reply_text(stopped)
        assert text.count(earned) == 1, text
    held = await world.store.achievements.held(world.guild.id, world.alice.id)
    assert [e.achievement.value for e in held] == ["storm_10"]
