"""Who may be challenged, and in which language a duel is played (issue 21)."""

from __future__ import annotations

import pytest

from tests.support.sim import answer, button_id, message_text, public_message, reply_text, speak

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


async def duel_thread(world):
    offer = public_message(await world.alice.slash(world.channel, "duel", opponent=world.bob))
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    return world.thread()


async def test_players_who_speak_one_language_play_in_it(world) -> None:
    speak(world.env, world.alice, "uk")
    speak(world.env, world.bob, "uk")
    thread = await duel_thread(world)
    assert thread.name.startswith("Онлайн-дуель")
    assert "раунд 1 з" in message_text(thread.last_message)


async def test_players_who_disagree_play_in_english_and_are_answered_in_their_own(
    world,
) -> None:
    speak(world.env, world.alice, "uk")  # the challenger
    world.digits.extend("3489")
    thread = await duel_thread(world)
    assert thread.name.startswith("Online Duel"), thread.name
    assert "round 1 of" in message_text(thread.last_message)
    mine = await answer(world.alice, thread.last_message, "34+89")
    assert "Вашу відповідь у раунді 1 прийнято" in reply_text(mine)
    theirs = await answer(world.bob, thread.last_message, "3*4+89")
    assert "✅ Round 1: `3*4+89`" in reply_text(theirs)


async def test_the_servers_language_wins_over_the_players(world, admin) -> None:
    await admin.slash(world.channel, "config language", language="en")
    speak(world.env, world.alice, "uk")
    speak(world.env, world.bob, "uk")
    thread = await duel_thread(world)
    assert thread.name.startswith("Online Duel")
    assert "round 1 of" in message_text(thread.last_message)


async def test_a_servers_language_is_its_challenges_too(world, admin) -> None:
    await admin.slash(world.channel, "config language", language="uk")
    posted = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    assert "Your challenge is posted" in reply_text(posted)  # her own reply: her language
    offer = public_message(posted)
    assert "викликає" in offer.content
    labels = [c.label for row in offer.components for c in row.children]  # type: ignore[union-attr]
    assert "Прийняти" in labels, labels
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    assert thread.name.startswith("Онлайн-дуель")
    await world.bob.slash(thread, "resign")
    rematch = next(m for m in thread.history() if m.components)
    asked = await world.alice.click(rematch, custom_id=button_id(rematch, "fd:rematch:"))
    assert "Rematch challenge posted" in reply_text(asked)
    assert "викликає" in world.channel.last_message.content
