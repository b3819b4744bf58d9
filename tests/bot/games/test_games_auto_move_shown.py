"""The auto-move is shown as the Digits are written (issue 21: 7001 showed `70+1`)."""

from __future__ import annotations

import pytest

from tests.support.sim import answer, button_id, message_text, public_message

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_auto_move_of_7001_reads_70_plus_01(world) -> None:
    world.digits.extend("7001", "1008")
    offer = public_message(await world.alice.slash(world.channel, "duel", opponent=world.bob))
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    await answer(world.alice, thread.last_message, "7+0+0+1")
    await world.env.advance_time(121)
    first = message_text(thread.history()[-2])
    assert "auto-move `70+01` = **71**" in first, first
    await answer(world.bob, thread.last_message, "1+0+0+8")
    await world.env.advance_time(121)
    second = message_text(thread.history()[-2])
    assert "auto-move `10+0+8` = **18**" in second, second
