"""Qualification: the server's seeded Digits of the day, one attempt per player."""

from __future__ import annotations

import pytest

import rules
from tests.support.sim import reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def first_digits(thread) -> str:
    message = next(m for m in thread.history() if m.embeds)
    return message.embeds[0].fields[0].value.strip("*")


async def test_same_digits_for_everyone_and_one_attempt_a_day(world) -> None:
    await world.alice.slash(world.channel, "qualification")
    await world.bob.slash(world.channel, "qualification")
    alice_thread, bob_thread = world.channel.threads
    day = "2026-01-01"  # simcord's virtual clock starts on this UTC day
    secret = await world.store.install.secret("qualification")
    expected = rules.seeded_digits(
        rules.qualification_seed(
            world.guild.id, "darts", day, secret=secret, version=rules.CLASSIC.version
        ),
        1,
    )
    assert first_digits(alice_thread) == first_digits(bob_thread) == expected
    assert "Qualification — round 1 of 7" in alice_thread.last_message.embeds[0].title

    await world.alice.slash(world.channel, "resign")
    again = await world.alice.slash(world.channel, "qualification")
    assert again.ephemeral
    assert "used today's Qualification" in reply_text(again)
    other_set = await world.alice.slash(world.channel, "qualification", set="sprint")
    assert "Your **Qualification** (sprint) is in" in reply_text(other_set)
    assert len(world.channel.threads) == 3
    await world.env.advance_time(24 * 3600)
    next_day = await world.alice.slash(world.channel, "qualification")
    assert "Your **Qualification** (darts) is in" in reply_text(next_day)
    tomorrow = rules.qualification_seed(
        world.guild.id, "darts", "2026-01-02", secret=secret, version=rules.CLASSIC.version
    )
    assert first_digits(world.channel.threads[-1]) == rules.seeded_digits(tomorrow, 1)
