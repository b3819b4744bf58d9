"""Nothing of a retry is in memory only (issue 20): a round Discord would not show is
posted again by the same bound across a restart (then the game is void, its attempt
given back), and a summary Discord refused is still owed after one."""

from __future__ import annotations

import pytest

import rules
from bot.play._showing import REPOST_AFTER_S
from bot.play._telling import TELL_AGAIN_S
from tests.support.sim import answer, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def crash_and_restart(world, make_bot) -> None:
    """The old process stops without a clean shutdown: none of its timers run again."""
    world.bot.service.flow.timers.close()
    await world.env.restart_bot(make_bot())


def texts(thread) -> str:
    return "\n".join(message_text(m) for m in thread.history())


async def test_a_round_never_shown_is_void_by_the_same_bound_across_a_restart(
    world, make_bot
) -> None:
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    await world.alice.slash(world.channel, "qualification")
    await world.env.advance_time(REPOST_AFTER_S[0] + REPOST_AFTER_S[1] + 1)  # 3 posts failed
    (game,) = list(world.bot.service.active)
    await crash_and_restart(world, make_bot)  # its recovery is the 4th try
    await world.env.advance_time(REPOST_AFTER_S[3] + REPOST_AFTER_S[4] + 5)  # the 5th, the 6th
    over = await world.store.games.load_game(game.state.id)
    assert over.state.outcome is not None, over.meta
    assert over.state.outcome.termination is rules.Termination.VOID
    assert over.meta.void_reason == "round_not_posted"
    assert over.state.rounds[0].answers == [None]
    day = "2026-01-01"
    assert await world.store.games.count_attempts(world.guild.id, world.alice.id, "darts", day) == 0


async def test_a_refused_summary_is_still_told_after_a_restart(world, make_bot) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.inject_error("POST", "/webhooks/*", status=500, times=None)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    await answer(world.alice, thread.last_message, "700+1")
    await world.env.advance_time(REPOST_AFTER_S[0] + 1)  # the first retry failed too
    assert "game over" not in texts(thread)
    await crash_and_restart(world, make_bot)
    world.env.backend.faults.clear()  # Discord answers again
    world.env._errors_acknowledged = len(world.env.errors)
    await world.env.advance_time(TELL_AGAIN_S + 1)
    assert "game over" in texts(thread) and "Checkout" in texts(thread)
    assert texts(thread).count("game over") == 1
    assert await world.store.untold.all() == []
