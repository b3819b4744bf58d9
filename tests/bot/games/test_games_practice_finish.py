"""/practice at the perfect level plays to finish: where no formula checks out and the best
answer leaves a float (3490 from 501 leaves 0.959...), the bot leaves the whole Score the
solver's `finish` chose (seen failing first: it played the best answer, 0.959...)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

import rules
from bot.app import create_bot
from bot.solving import ConfirmedSolver
from tests.support.fixtures import simulated, solver  # noqa: F401 (fixture)
from tests.support.sim import answer

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def practising(settings, store, evaluator, solver) -> AsyncIterator[Any]:
    bot = create_bot(settings, store=store, evaluator=evaluator,
                     revealer=ConfirmedSolver(solver, evaluator))  # fmt: skip
    bot.service.flow.digits = lambda state, number: ["3490", "2476", "5183", "6702"][number - 1]
    bot.service.flow.reveals.wait_s = 60.0
    async with simulated(bot) as env:
        guild = env.create_guild("Practice Club")
        yield env, guild, guild.create_text_channel("games")


async def test_the_perfect_bot_leaves_a_whole_score_not_the_smallest_float(
    practising,
    solver,
) -> None:
    env, guild, channel = practising
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "practice", level="perfect")
    thread = channel.threads[-1]
    game = await env.bot.store.games.active_game_of(guild.id, alice.id)
    await env.advance_time(30)  # the bot thinks at most a fifth of the time limit
    await answer(alice, thread.last_message, "3490")
    stored = await env.bot.store.games.load_game(game.state.id)
    mine = stored.state.rounds[0].answers[1]
    assert mine is not None and not mine.auto
    best = await solver.best("3490", 501, rules.sets.CLASSIC)
    assert not float(best.best.score).is_integer()
    assert float(mine.score).is_integer() and mine.score != best.best.score
    chosen = await solver.finish("3490", 501, rules.sets.CLASSIC)
    assert (mine.formula, mine.score) == (chosen.best.formula, chosen.best.score)
