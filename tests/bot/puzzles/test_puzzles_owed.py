"""A Storm nobody came back to: the sweep ends it and tells nobody (no bot-token call can
reach an ephemeral run); its player sees its summary first at their next `/storm` or
their next press, once, across a restart, on simcord with real PHP."""

from __future__ import annotations

import pytest

import rules
from tests.bot.games.test_interaction_rounds import bot_token_calls
from tests.bot.puzzles.conftest import Fill
from tests.bot.puzzles.test_puzzles_sim import answer, latest, mine, runs_of, shown_puzzle
from tests.support.sim import button_id, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")
GLOBAL = rules.load_sets()


async def _abandoned_storm(world, member):  # type: ignore[no-untyped-def]
    """A Storm with one puzzle solved, then its player gone past its end; the sweep ends
    it. The message its player was left with."""
    await member.slash(world.channel, "storm")
    first = latest(world, member)
    await answer(member, first, (await shown_puzzle(world, first)).best_formula)
    left = latest(world, member)
    seen, since = len(mine(world, member)), len(world.env.http_requests)
    await world.env.advance_time(200)
    assert await runs_of(world).sweep() >= 1
    assert len(mine(world, member)) == seen and bot_token_calls(world.env, since) == []
    return left


async def test_the_next_storm_shows_the_swept_ones_summary_first_once(
    world, fill: Fill, make_bot
) -> None:
    await fill(GLOBAL["darts"], 3)
    left = await _abandoned_storm(world, world.alice)
    await world.env.restart_bot(make_bot())  # owed in the store, not in memory
    again = await world.alice.slash(world.channel, "storm")
    text = reply_text(again)
    assert text.count("Storm over") == 1 and "total **1.00** · solved **1**" in text
    assert text.index("Storm over") < text.index("⚡ **Storm**")  # the summary first
    pressed = await world.alice.click(left, custom_id=button_id(left, "fd:pz:skip:"))
    assert "Storm over" not in reply_text(pressed) and "This run is over." in reply_text(pressed)
    third = await world.alice.slash(world.channel, "storm")
    assert "Storm over" not in reply_text(third)


async def test_a_press_on_the_swept_storm_shows_its_summary_in_ukrainian(world, fill: Fill) -> None:
    await fill(GLOBAL["darts"], 3)
    speak(world.env, world.bob, "uk")
    left = await _abandoned_storm(world, world.bob)
    pressed = await world.bob.click(left, custom_id=button_id(left, "fd:pz:skip:"))
    text = reply_text(pressed)
    assert text.count("Шторм завершено") == 1 and "Ці задачі вже завершено" not in text
    opened = await world.bob.click(left, custom_id=button_id(left, "fd:pz:answer:"))
    assert opened.modal is None and "Шторм завершено" not in reply_text(opened)
