"""The Score chart under every summary, drawn by a real chart worker: attached to the
summary of a single game and of a duel with one point per scored round on each line, and
a renderer that fails leaves the summary whole, without its picture."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.app import create_bot
from bot.charts import build_game_figure
from tests.bot.charts.test_game_chart import axes_of, legend_texts, line
from tests.support.fixtures import simulated
from tests.support.renderers import Failing, recording, started  # noqa: F401 (fixture)
from tests.support.sim import answer, answer_id, button_id, message_text, public_message

pytestmark = pytest.mark.asyncio(loop_scope="session")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest_asyncio.fixture(loop_scope="session")
async def charted(settings, store, evaluator, digits, recording) -> AsyncIterator[Any]:
    recording.asked.clear()
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits,
                     charts=recording)  # fmt: skip
    async with simulated(bot) as env:
        guild = env.create_guild("Charts")
        yield env, guild, guild.create_text_channel("games")


def chart_bytes(env: Any, message: Any) -> bytes:
    (attachment,) = message.attachments
    assert attachment.filename == "score.png"
    assert message.embeds[0].image.url == "attachment://score.png"  # shown inside the summary
    data = env.backend.cdn.get(attachment.url)
    assert data is not None
    return bytes(data)


async def test_a_single_games_summary_carries_its_chart(charted, recording, digits) -> None:
    env, guild, channel = charted
    alice = guild.add_member(env.create_user("alice"))
    digits.extend("3489", "2476", "1234")
    await alice.slash(channel, "training")
    thread = channel.threads[-1]
    await answer(alice, thread.last_message, "34+89")  # 424
    await answer(alice, thread.last_message, "2*47+6")  # 274
    await env.advance_time(121)  # round 3: time runs out, no point for it
    summary = thread.last_message
    assert "Time ran out in round 3" in message_text(summary)
    assert chart_bytes(env, summary).startswith(PNG)

    ((_, record, locale, names),) = recording.asked
    ax = axes_of(build_game_figure(record, locale, names))
    assert [x for x, _ in line(ax, "score:0")] == [0, 1, 2]
    assert [y for _, y in line(ax, "score:0")] == [501, 424, 274]
    assert str(alice.id) not in " ".join(legend_texts(build_game_figure(record, locale, names)))


async def test_a_duels_summary_carries_both_players_lines(charted, recording, digits) -> None:
    env, guild, channel = charted
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    digits.extend("3489", "6002")
    challenge = await alice.slash(channel, "duel", opponent=bob)
    message = public_message(challenge)
    await bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    thread = channel.threads[-1]
    first = thread.last_message
    await answer(alice, first, "3*4+89")
    await bob.click(first, custom_id=answer_id(first))
    await env.advance_time(121)  # bob's auto-move
    await answer(bob, thread.last_message, "6+0+0+2")
    await answer(alice, thread.last_message, "600+2")
    summary = next(m for m in reversed(thread.history()) if m.attachments)
    assert "wins with Score 0 in round 2" in message_text(summary)
    assert chart_bytes(env, summary).startswith(PNG)

    ((_, record, locale, names),) = recording.asked
    ax = axes_of(build_game_figure(record, locale, names))
    assert len(line(ax, "score:0")) == 3 and len(line(ax, "score:1")) == 3
    assert line(ax, "score:0")[-1] == (2, 0)
    assert names == {str(alice.id): "alice", str(bob.id): "bob"}  # seen in interactions


async def test_a_failing_chart_leaves_the_summary_without_it(
    settings, store, evaluator, digits, caplog
) -> None:
    failing = started(Failing(timeout_s=120))
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits,
                     charts=failing)  # fmt: skip
    try:
        async with simulated(bot) as env:
            guild = env.create_guild("Broken charts")
            channel = guild.create_text_channel("games")
            alice = guild.add_member(env.create_user("alice"))
            digits.extend("7001")
            await alice.slash(channel, "training")
            thread = channel.threads[-1]
            with caplog.at_level(logging.ERROR, logger="bot.charts._renderer"):
                await answer(alice, thread.last_message, "700+1")  # type: ignore[arg-type]
            summary = thread.last_message
            assert "Checkout" in message_text(summary) and "Perfect" in message_text(summary)  # type: ignore[arg-type]
            assert not summary.attachments and summary.embeds[0].image.url is None  # type: ignore[union-attr]
            assert button_id(summary, "fd:share:")  # type: ignore[arg-type]
            assert "chart raises failed" in caplog.text and "the chart broke" in caplog.text
    finally:
        await failing.close()
