"""Training end to end on simcord: slash command, thread, Answer button, modal, summary."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.asyncio(loop_scope="session")


def answer_id(message) -> str:
    for row in message.components:
        for child in row.children:
            if child.custom_id and child.custom_id.startswith("fd:ans:"):
                return child.custom_id
    raise AssertionError(f"no Answer button on {message!r}")


async def test_training_checkout_in_one_round_is_perfect(world) -> None:
    world.digits.extend("7001")
    started = await world.alice.slash(world.channel, "training")
    assert not started.ephemeral
    assert "Training" in started.response.content
    thread = world.thread()
    round_message = thread.last_message
    embed = round_message.embeds[0]
    assert "round 1 of 7" in embed.title
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Digits"] == "**7001**"
    assert fields["Score"] == "**501**"
    assert "<t:" in fields["Deadline"]

    shown = await world.alice.click(round_message, custom_id=answer_id(round_message))
    assert shown.modal is not None
    submitted = await world.alice.submit_modal(shown, {"formula": "700+1"})
    assert submitted.ephemeral
    assert "701" in submitted.response.content

    messages = thread.history()
    result, summary = messages[-2].embeds[0], messages[-1].embeds[0]
    assert "700+1" in result.description and "501" in result.description
    assert "Checkout" in summary.description
    assert "Perfect" in summary.description
    stored = await world.store.active_game_of(world.guild.id, world.alice.id)
    assert stored is None
