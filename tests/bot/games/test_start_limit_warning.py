"""The start limit (5 games in 10 minutes) is said before it bites: the start that leaves
one more says so, and the last one says when the next can start."""

from __future__ import annotations

import pytest

from tests.support.sim import message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _said(result) -> str:
    parts = [message_text(result.response.message)] if result.response else []
    parts += [message_text(f) for f in result.followups if f.ephemeral]
    return "\n".join(parts)


async def test_the_start_limit_is_said_before_it_bites(world) -> None:
    said = []
    for _ in range(5):
        started = await world.alice.slash(world.channel, "training")
        said.append(_said(started))
        await world.alice.slash(world.thread(), "resign")
    assert not any("more game" in text or "last start" in text for text in said[:3]), said
    assert "1 more game" in said[3], said[3]
    assert "last start" in said[4], said[4]
    refused = await world.alice.slash(world.channel, "training")
    assert "a lot of games in a short time" in _said(refused)
