"""/sets add refuses a Set whose Perfect needs more rounds than it has, and a function
named twice, in the admin's language (issue 21)."""

from __future__ import annotations

import pytest

from tests.bot.sets_admin.helpers import QUICK, only_ephemeral, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_perfect_beyond_the_last_round_is_refused(world) -> None:
    result = await world.a.admin.slash(world.a.channel, "sets add", **{**QUICK, "start_score": 501})
    text = reply_text(result)
    assert only_ephemeral(result) and "not saved" in text
    assert "Min rounds (`min_rounds`): computed from start_score, goal and bonus is 4" in text
    assert "more than max_rounds (3)" in text
    assert await world.store.sets.server_sets(world.a.guild.id) == []


async def test_a_function_named_twice_is_refused_in_ukrainian(world) -> None:
    speak(world.env, world.a.admin, "uk")
    result = await world.a.admin.slash(
        world.a.channel, "sets add", **{**QUICK, "functions": "pow, abs, pow"}
    )
    text = reply_text(result)
    assert "Функції (`functions`): названо більше ніж один раз: pow" in text
    assert await world.store.sets.server_sets(world.a.guild.id) == []
