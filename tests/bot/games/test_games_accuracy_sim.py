"""The summary's accuracy on simcord with the real solver and real PHP: a duel names each
player's accuracy with its label, and a Perfect reads 100 % (issue 21)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from bot.app import create_bot
from bot.solving import ConfirmedSolver
from tests.support.fixtures import simulated, solver  # noqa: F401 (fixture)
from tests.support.sim import answer, button_id, message_text, public_message


@pytest_asyncio.fixture
async def revealing(settings, store, evaluator, digits, solver) -> AsyncIterator[Any]:
    revealer = ConfirmedSolver(solver, evaluator)
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits,
                     revealer=revealer)  # fmt: skip
    bot.service.flow.reveals.wait_s = 60.0  # a test machine under load: wait for the solve
    async with simulated(bot) as env:
        guild = env.create_guild("Solvers")
        yield env, guild, guild.create_text_channel("games")


async def test_a_duels_accuracy_is_labelled_for_each_player(revealing) -> None:
    env, guild, channel = revealing
    dan = guild.add_member(env.create_user("dan"))
    eve = guild.add_member(env.create_user("eve"))
    env.bot.service.flow.digits = lambda state, number: "7001"
    offer = public_message(await dan.slash(channel, "duel", opponent=eve))
    await eve.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = channel.threads[-1]
    await answer(dan, thread.last_message, "700+1")
    await answer(eve, thread.last_message, "7*0+0+1")
    summary = message_text(thread.last_message)
    assert f"<@{dan.id}>: accuracy 100\u00a0% of the best possible" in summary, summary
    assert f"<@{eve.id}>: accuracy 0\u00a0% of the best possible" in summary, summary


async def test_a_perfect_at_the_rules_pace_reads_100_percent(revealing) -> None:
    """150 a round (the Goal and the Bonus) and a last 51: 501 -> 351 -> 201 -> 51 -> 0, a
    Perfect in 4, though 1000 allowed more than 150 in round 1 (1000 -> Score 299)."""
    env, guild, channel = revealing
    bob = guild.add_member(env.create_user("bob"))
    env.bot.service.flow.digits = lambda state, number: ["1000", "1000", "1000", "5100"][number - 1]
    await bob.slash(channel, "training")
    thread = channel.threads[-1]
    for formula in ("100+0", "100+0", "100+0", "51+0*0"):
        await answer(bob, thread.last_message, formula)
    summary = message_text(thread.last_message)
    assert "Perfect" in summary and "Accuracy: 100\u00a0%" in summary, summary
