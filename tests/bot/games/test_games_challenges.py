"""One pending challenge per challenger, and one Rematch per duel."""

from __future__ import annotations

import pytest

from bot.common.interactions import refusal_text
from bot.play import GameError
from tests.support.sim import button_id, public_message, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def challenges_in(channel) -> list:
    """The challenge messages still waiting for an answer (their buttons are there)."""
    return [
        m
        for m in channel.history()
        for row in m.components
        for c in row.children
        if (c.custom_id or "").startswith("fd:duel:yes:")
    ]


async def test_a_challenger_waits_for_one_answer_before_anything_else(world) -> None:
    first = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    assert "challenges" in public_message(first).content
    second = await world.alice.slash(world.channel, "duel", opponent=world.carol)
    text = reply_text(second)
    assert second.ephemeral and "already have a challenge waiting" in text
    assert f"<@{world.bob.id}>" in text and "<t:" in text
    assert len(challenges_in(world.channel)) == 1
    training = await world.alice.slash(world.channel, "training")
    assert "already have a challenge waiting" in reply_text(training)
    assert not world.channel.threads

    speak(world.env, world.alice, "uk")
    again = await world.alice.slash(world.channel, "duel", opponent=world.carol)
    assert "Ваш виклик на дуель із" in reply_text(again)

    message = public_message(first)
    await world.bob.click(message, custom_id=button_id(message, "fd:duel:no:"))
    after_decline = await world.alice.slash(world.channel, "duel", opponent=world.carol)
    assert after_decline.response.message is not None
    assert len(challenges_in(world.channel)) == 1


async def test_rematch_once_and_only_by_the_players(world) -> None:
    offer = public_message(await world.alice.slash(world.channel, "duel", opponent=world.bob))
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    await world.bob.slash(world.channel, "resign")
    summary = thread.last_message
    rematch_id = button_id(summary, "fd:rematch:")

    stranger = await world.carol.click(summary, custom_id=rematch_id)
    assert "Only the players of that duel can ask for a rematch" in reply_text(stranger)
    assert "answer" not in reply_text(stranger)

    before = len(challenges_in(world.channel))
    asked = await world.bob.click(summary, custom_id=rematch_id)
    assert "Rematch challenge posted" in reply_text(asked)
    assert len(challenges_in(world.channel)) == before + 1
    refreshed = next(m for m in thread.history() if m.id == summary.id)
    buttons = [c for row in refreshed.components for c in row.children]
    disabled = {b.custom_id.split(":")[1]: b.disabled for b in buttons}
    assert disabled == {"rematch": True, "share": False}  # Share stays usable
    assert refreshed.embeds == summary.embeds

    game_id = rematch_id.rsplit(":", 1)[1]
    with pytest.raises(GameError) as again:
        await world.bot.service.rematch(game_id, world.alice.id)
    assert again.value.code == "rematch_sent"
    said = refusal_text(again.value, "en")
    assert f"see <#{world.channel.id}>." in said and "<#<#" not in said
    assert len(challenges_in(world.channel)) == before + 1
