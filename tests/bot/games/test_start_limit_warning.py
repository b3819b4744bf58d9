"""The start limit (5 games in 10 minutes) is said before it bites: the start that leaves
one more says so, and the last one says when the next can start. One Training or
Practice resigned in its first round with no answer given is no start (a change of
mind); only one, so a loop of starts and quick resigns is still slowed; a Qualification
attempt is still used."""

from __future__ import annotations

import pytest

from tests.support.sim import message_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _said(result) -> str:
    parts = [message_text(result.response.message)] if result.response else []
    parts += [message_text(f) for f in result.followups if f.ephemeral]
    return "\n".join(parts)


async def test_the_start_limit_is_said_before_it_bites(world) -> None:
    said = []
    for _ in range(5):
        world.digits.extend("3489")
        started = await world.alice.slash(world.channel, "training")
        said.append(_said(started))
        await world.alice.slash(world.thread(), "answer", formula="34+89")
        await world.alice.slash(world.thread(), "resign")
    assert not any("more game" in text or "last start" in text for text in said[:3]), said
    assert "1 more game" in said[3], said[3]
    assert "last start" in said[4], said[4]
    assert "resigned in its first round" in said[4], said[4]
    refused = await world.alice.slash(world.channel, "training")
    assert "a lot of games in a short time" in _said(refused)


async def test_one_quick_resign_is_not_a_start(world) -> None:
    said = []
    for command in ("training", "practice", "training", "practice", "training", "practice"):
        started = await world.alice.slash(world.channel, command)
        said.append(_said(started))
        assert "Your game is in <#" in said[-1], said[-1]
        await world.alice.slash(world.thread(), "resign")
    assert not any("more game" in text or "last start" in text for text in said[:3]), said
    assert "1 more game" in said[4] and "last start" in said[5], said  # 6 games, 5 starts
    refused = await world.alice.slash(world.channel, "training")
    assert "a lot of games in a short time" in _said(refused)


async def test_a_quick_resign_is_no_start_in_ukrainian_too(world) -> None:
    speak(world.env, world.alice, "uk")
    said = []
    for _ in range(5):
        world.digits.extend("3489")
        said.append(_said(await world.alice.slash(world.channel, "training")))
        await world.alice.slash(world.thread(), "answer", formula="34+89")
        await world.alice.slash(world.thread(), "resign")
    assert "здану в першому раунді" in said[4], said[4]
