"""The Share button under every summary: the presser's spoiler-free card, posted once in the
channel the game's thread hangs off, by a player only, and still working after a restart."""

from __future__ import annotations

import re

import pytest

from tests.support.sim import answer, button_id, message_text, public_message, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def assert_spoiler_free(card: str, *secrets: str) -> None:
    """No Digits, no formula, no Result: the only numbers left are the date (January 1,
    2026), the round count (1) and the legend's Score 0; no operator or code span at all."""
    for secret in secrets:
        assert secret not in card
    bare = re.sub(r"<@\d+>", "", card).replace("**Formula Darts**", "")
    assert set(re.findall(r"\d+", bare)) <= {"0", "1", "2026"}  # "Score 0" in the legend
    assert not re.search(r"[-+*/=`(]", bare)


async def test_training_share_posts_once_for_the_player_after_a_restart(world, make_bot) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    summary = thread.last_message
    share_id = button_id(summary, "fd:share:")

    stranger = await world.carol.click(summary, custom_id=share_id)
    assert "Only the players of that game can share it" in reply_text(stranger)
    before = len(world.channel.history())
    await world.env.restart_bot(make_bot())

    shared = await world.alice.click(summary, custom_id=share_id)
    assert shared.ephemeral and f"Shared in <#{world.channel.id}>" in reply_text(shared)
    history = world.channel.history()
    assert len(history) == before + 1
    card = history[-1].content
    assert f"<@{world.alice.id}> shares a game:" in card
    assert "darts · Training · January 1, 2026" in card
    assert "⭐ Perfect! ✅ Checkout in 1\u00a0round" in card
    assert "\n✅\n✅ Score 0" in card  # one round, then the legend of what it shows
    assert_spoiler_free(card, "7001", "700+1", "701")

    again = await world.alice.click(summary, custom_id=share_id)
    assert "You have already shared this game" in reply_text(again)
    assert len(world.channel.history()) == before + 1


async def test_duel_summary_shares_each_players_own_card(world) -> None:
    world.digits.extend("7001")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    await world.bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    thread = world.thread()
    await answer(world.bob, thread.last_message, "7+0+0+1")
    await answer(world.alice, thread.last_message, "700+1")
    summary = thread.last_message
    assert button_id(summary, "fd:rematch:")

    lost = await world.bob.click(summary, custom_id=button_id(summary, "fd:share:"))
    assert f"Shared in <#{world.channel.id}>" in reply_text(lost)
    card = message_text(world.channel.last_message)
    assert f"<@{world.bob.id}> shares a game:" in card and "Online Duel" in card
    assert "🥈 Lost: the opponent checked out in 1\u00a0round" in card
    assert_spoiler_free(card, "7001", "7+0+0+1", "700+1", "701")
    won = await world.alice.click(summary, custom_id=button_id(summary, "fd:share:"))
    assert "Shared in" in reply_text(won)
    assert "🏆 Won: checkout in 1\u00a0round" in world.channel.last_message.content


async def test_practice_share_in_ukrainian(world) -> None:
    """A Practice game has its Share too; the card speaks the game's language."""
    speak(world.env, world.alice, "uk")
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "practice")
    thread = world.thread()
    await world.alice.slash(thread, "resign")
    summary = thread.last_message
    shared = await world.alice.click(summary, custom_id=button_id(summary, "fd:share:"))
    assert f"Опубліковано в <#{world.channel.id}>" in reply_text(shared)
    card = world.channel.last_message.content
    assert f"<@{world.alice.id}> ділиться грою:" in card
    assert "darts · Практика · 1 січня 2026\u202fр." in card
    assert "🏳️ Поразка: гру здано в раунді 1" in card
    assert_spoiler_free(card, "3489")


async def test_a_share_goes_to_the_servers_configured_channel(world) -> None:
    daily = world.guild.create_text_channel("daily")
    await world.store.servers.update(world.guild.id, 0.0, channel_id=daily.id)  # /config channel
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    summary = thread.last_message
    shared = await world.alice.click(summary, custom_id=button_id(summary, "fd:share:"))
    assert f"Shared in <#{daily.id}>" in reply_text(shared)
    assert f"<@{world.alice.id}> shares a game:" in daily.history()[-1].content
