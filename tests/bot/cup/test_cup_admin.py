"""`/cup create|show|edit|cancel|list` on simcord: Manage Server only, every bad value
listed at once in the admin's language, and what is saved is what is shown."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def start_in(hours: float) -> str:
    return (discord.utils.utcnow() + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")


async def test_every_problem_is_listed_at_once_in_the_admins_language(world, admin) -> None:
    answer = reply_text(
        await admin.slash(
            world.channel, "cup create", name="x" * 40, set="nosuch", start="next friday", size=3
        )
    )
    assert "Problems found: 4" in answer
    for part in (
        "at most 32 characters",
        "no Set `nosuch` here",
        "`next friday` is not a date",
        "4 to 64 players",
    ):
        assert part in answer, answer
    speak(world.env, admin, "uk")
    answer = reply_text(
        await admin.slash(
            world.channel,
            "cup create",
            name="Кубок",
            set="darts",
            start="2001-01-01 10:00",
            size=65,
        )
    )
    assert "Знайдено проблем: 2" in answer and "вже минуло" in answer and "від 4 до 64" in answer
    assert await world.store.cups.of_server(world.guild.id) == []  # nothing saved


async def test_an_admin_sets_a_cup_up_changes_lists_and_cancels_it(world, admin) -> None:
    made = reply_text(
        await admin.slash(
            world.channel,
            "cup create",
            name="Friday Cup",
            set="darts",
            start=start_in(30),
            repeat="weekly",
            size=16,
            legs=5,
            seeding="all",
        )
    )
    assert "**Friday Cup** is set up" in made and "up to 16 players" in made
    (cup,) = await world.store.cups.of_server(world.guild.id)
    assert (cup.size, cup.legs, cup.repeat, cup.seeding) == (16, 5, "weekly", "all")
    assert cup.channel_id == world.channel.id

    refused = reply_text(await world.alice.slash(world.channel, "cup list"))
    assert "Only members with Manage Server" in refused
    listed = reply_text(await admin.slash(world.channel, "cup list"))
    assert "Friday Cup" in listed and str(cup.id) in listed

    bad = reply_text(await admin.slash(world.channel, "cup edit", cup=cup.id, size=100))
    assert "Problems found: 1" in bad and "4 to 64 players" in bad
    edited = reply_text(await admin.slash(world.channel, "cup edit", cup=cup.id, size=8))
    assert "is changed" in edited and "up to 8 players" in edited and "best of 5" in edited
    shown = reply_text(await admin.slash(world.channel, "cup show", cup=cup.id))
    assert "up to 8 players" in shown and "Checked in (0)" in shown
    missing = reply_text(await admin.slash(world.channel, "cup show", cup=12345))
    assert "no Cup `12345`" in missing

    done = reply_text(await admin.slash(world.channel, "cup cancel", cup=cup.id))
    assert "is cancelled" in done
    again = reply_text(await admin.slash(world.channel, "cup cancel", cup=cup.id))
    assert "over or cancelled already" in again
    assert "No Cup is scheduled" in reply_text(await admin.slash(world.channel, "cup list"))
