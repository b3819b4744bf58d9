"""A game's summary that Discord refuses is posted again until it lands: a 5xx that reaches
the bot is final for that call (discord.py tried it five times), so the flow tries again.
Found by the chaos run (tests/bot/test_chaos.py): a timed-out game ended with no summary."""

from __future__ import annotations

import pytest

from tests.support.sim import answer

pytestmark = pytest.mark.asyncio(loop_scope="session")


def summaries(thread) -> list:
    return [m for m in thread.history() if m.embeds and "game over" in (m.embeds[0].title or "")]


async def test_a_refused_summary_is_posted_again(world) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.inject_error("POST", "/webhooks/*", status=500, times=1)  # the answer's followup
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=1)  # the bot token
    await answer(world.alice, thread.last_message, "700+1")  # a checkout: the game is over
    assert summaries(thread) == []
    await world.env.advance_time(20)
    assert len(summaries(thread)) == 1
    await world.env.advance_time(3600)
    assert len(summaries(thread)) == 1
    world.env._errors_acknowledged = len(world.env.errors)  # the failed posts were logged
