"""Who may be challenged, and in which language a duel is played (issue 21)."""

from __future__ import annotations

import pytest

from tests.support.sim import button_id, public_message, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def offers(channel) -> list:
    return [
        m
        for m in channel.history()
        for row in m.components
        for c in row.children
        if (c.custom_id or "").startswith("fd:duel:yes:")
    ]


async def test_a_barred_player_cannot_be_challenged(world, admin) -> None:
    await admin.slash(world.channel, "admin bar", user=world.bob, reason="alt account")
    refused = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    text = reply_text(refused)
    assert f"<@{world.bob.id}> may not play ranked games on this server" in text, text
    assert "alt account" not in text  # the admin's reason is said to the barred player only
    assert not offers(world.channel)
    speak(world.env, world.alice, "uk")
    refused = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    assert f"<@{world.bob.id}> не може грати в залік на цьому сервері" in reply_text(refused)
    assert not offers(world.channel)


async def test_a_challenger_barred_before_the_accept_is_named_to_the_opponent(world, admin) -> None:
    offer = public_message(await world.alice.slash(world.channel, "duel", opponent=world.bob))
    await admin.slash(world.channel, "admin bar", user=world.alice, reason="alt account")
    accepted = await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    text = reply_text(accepted)
    assert f"<@{world.alice.id}> may not play ranked games on this server" in text, text
    assert "alt account" not in text
    assert not world.channel.threads
