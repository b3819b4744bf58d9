"""/practice: a duel against Formula Darts itself; at the perfect level its answer every
round is the solver's best for its Score; unranked: no Elo, no board, practice in /stats."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

import rules
from bot.app import create_bot
from bot.play._reveals import score_before
from bot.solving import ConfirmedSolver
from tests.support.fixtures import simulated, solver  # noqa: F401 (fixture)
from tests.support.sim import answer, message_text, public_message, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def practising(settings, store, evaluator, solver) -> AsyncIterator[Any]:
    bot = create_bot(settings, store=store, evaluator=evaluator,
                     revealer=ConfirmedSolver(solver, evaluator))  # fmt: skip
    bot.service.flow.digits = lambda state, number: ["3489", "2476", "5183", "6702"][number - 1]
    bot.service.flow.reveals.wait_s = 60.0
    async with simulated(bot) as env:
        guild = env.create_guild("Practice Club")
        yield env, guild, guild.create_text_channel("games")


async def test_at_the_perfect_level_the_bot_plays_the_solvers_best(practising, solver) -> None:
    env, guild, channel = practising
    alice = guild.add_member(env.create_user("alice"))
    started = await alice.slash(channel, "practice", level="perfect")
    assert "Your game is in" in reply_text(started)
    thread = channel.threads[-1]
    game = await env.bot.store.games.active_game_of(guild.id, alice.id)
    assert game.state.mode is rules.Mode.PRACTICE
    assert game.state.players[1] == str(env.bot.user.id)
    for _ in range(3):
        live = env.bot.service.active.get(game.state.id)
        if live is None:
            break
        await env.advance_time(30)  # the bot thinks at most a fifth of the time limit
        live = env.bot.service.active.get(game.state.id)
        if live is None or live.state.current_round is None:
            break
        await answer(alice, thread.last_message, live.state.current_round.digits)
    stored = await env.bot.store.games.load_game(game.state.id)
    played = [r for r in stored.state.rounds if r.answers[1] is not None and not r.answers[1].auto]
    assert played, "the bot answered no round"
    for rnd in played:
        before = score_before(stored.state, rnd.number, 1)
        best = await solver.best(rnd.digits, before, stored.state.game_set)
        assert rnd.answers[1].score == best.best.score
        assert rnd.answers[1].formula == best.best.formula
    assert "has answered" in "\n".join(message_text(m) for m in thread.history()) or played


async def test_practice_leaves_boards_and_elo_alone(practising) -> None:
    env, guild, channel = practising
    bob = guild.add_member(env.create_user("bob"))
    await bob.slash(channel, "practice", level="beginner")
    await bob.slash(channel, "resign")
    assert await env.bot.store.boards.duel_leaderboard(guild.id) == []
    stats = await env.bot.store.boards.player_stats(guild.id, bob.id)
    assert (stats.games, stats.practice) == (0, 1)
    shown = message_text(public_message(await bob.slash(channel, "stats")))
    assert "Practice (unranked)" in shown
    history = message_text(public_message(await bob.slash(channel, "history")))
    assert "Practice" in history
