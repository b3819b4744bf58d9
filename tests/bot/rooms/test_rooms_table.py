"""A room's reveal and final table with the real parts: the best answer from the solver
(confirmed by PHP) beside every player's answer, the Score chart drawn by a real chart
worker with one line per player, and the Share card posted to the channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

import rules
from bot.app import create_bot
from bot.rooms._chart import build_room_figure
from bot.solving import ConfirmedSolver
from tests.bot.charts.test_game_chart import axes_of, line
from tests.support.fixtures import simulated, solver  # noqa: F401 (fixture)
from tests.support.renderers import recording, started  # noqa: F401 (fixture)
from tests.support.sim import button_id, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")
PNG = b"\x89PNG\r\n\x1a\n"
ONE = {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 2, "min_rounds": 1,
       "time_limit": 60}  # fmt: skip


@pytest_asyncio.fixture(loop_scope="session")
async def full(settings, store, evaluator, digits, recording, solver) -> AsyncIterator[Any]:
    recording.asked.clear()
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits,
                     charts=recording, revealer=ConfirmedSolver(solver, evaluator))  # fmt: skip
    async with simulated(bot) as env:
        guild = env.create_guild("Rooms")
        yield env, guild, guild.create_text_channel("games")


async def answer(member, message, formula: str) -> Any:
    shown = await member.click(message, custom_id=button_id(message, "fd:room:answer:"))
    return await member.submit_modal(shown, {"formula": formula})


async def test_best_answers_chart_and_share(full, recording, digits, store) -> None:
    env, guild, channel = full
    alice, bob, carol = (guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
    await store.sets.save_server_set(guild.id, rules.validate_set("two", ONE))
    digits.extend("3489", "7001")
    await alice.slash(channel, "room", set="two", size=3)
    lobby = channel.last_message
    for member in (bob, carol):
        await member.click(lobby, custom_id=button_id(lobby, "fd:room:join:"))
    thread = channel.threads[-1]

    first = thread.last_message
    await answer(alice, first, "34+89")
    await answer(bob, first, "3*4+89")
    await env.advance_time(61)  # carol's auto-move
    reveal = message_text(next(m for m in thread.history() if m.id == first.id))
    assert reveal.count("· best `") == 3  # every player's best, for their Score before it
    assert "auto-move `34+89`" in reveal

    second = thread.last_message
    await answer(alice, second, "700+1")  # 424 → |424 - 501| = 77
    await answer(bob, second, "7+0+0+1")
    await answer(carol, second, "70+0+1")
    table = thread.last_message
    text = message_text(table)
    assert "all 2 rounds played" in text
    (attachment,) = table.attachments
    assert attachment.filename == "room.png"
    assert bytes(env.backend.cdn.get(attachment.url)).startswith(PNG)
    ((_, state, locale, names),) = recording.asked
    ax = axes_of(build_room_figure(state, locale, names))
    assert line(ax, "score:0") == [(0, 501), (1, 424), (2, 77)]
    assert [len(line(ax, f"score:{i}")) for i in range(3)] == [3, 3, 3]
    assert names[str(alice.id)] == "alice"

    shared = await alice.click(table, custom_id=button_id(table, "fd:room:share:"))
    assert "Shared in" in reply_text(shared)
    card = channel.last_message.content
    assert "Room" in card and "Place 1 of 3" in card and card.splitlines()[3] == "🟡🔴"
    twice = await alice.click(table, custom_id=button_id(table, "fd:room:share:"))
    assert "already shared" in reply_text(twice)
    stranger = guild.add_member(env.create_user("dana"))
    refused = await stranger.click(table, custom_id=button_id(table, "fd:room:share:"))
    assert "Only the room's players" in reply_text(refused)
