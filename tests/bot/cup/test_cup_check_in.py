"""Check in on simcord from a player the draw could not take: a Cup seeded by its
Qualification draws only that board's players, so one not on it is told so in their
language, and what gets them on it, instead of being checked in for nothing; once on
the board, the same button checks them in."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from tests.bot.cup.test_cup_schedule import a_board, cup_messages
from tests.bot.daily.seeds import played
from tests.support.sim import button_id, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")

PERFECT = [("(1+2)*34-2", 100), ("1*2*34+32", 100), ("12*3+64", 100), ("1+2+3+45", 51)]


def start_in(hours: float) -> str:
    return (discord.utils.utcnow() + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")


async def test_a_player_off_the_board_is_told_they_cannot_be_drawn(world, admin) -> None:
    await a_board(world, 3)
    outsider = world.guild.add_member(world.env.create_user("outsider"))
    await admin.slash(
        world.channel, "cup create", name="Day Cup", set="darts", start=start_in(0.5),
        seeding="day", size=4,
    )  # fmt: skip
    (cup,) = await world.store.cups.of_server(world.guild.id)
    await world.env.advance_time(1)
    (announcement,) = cup_messages(world)
    check_in = button_id(announcement, f"fd:cup:in:{cup.id}")

    refused = reply_text(await outsider.click(announcement, custom_id=check_in))
    assert "not on today's Qualification board of the Set darts" in refused, refused
    assert "cannot be drawn in **Day Cup**" in refused and "press Check in again" in refused
    speak(world.env, outsider, "uk")
    refused = reply_text(await outsider.click(announcement, custom_id=check_in))
    assert "Вас немає в сьогоднішній таблиці Кваліфікації Сету darts" in refused, refused
    assert await world.store.cups.entries(cup.id) == []

    period = discord.utils.utcnow().strftime("%Y-%m-%d")
    await played(world.store, world.guild.id, "f" * 32, outsider.id, PERFECT, period=period)
    joined = reply_text(await outsider.click(announcement, custom_id=check_in))
    assert "Вас зареєстровано на **Day Cup**" in joined, joined
    assert await world.store.cups.entries(cup.id) == [str(outsider.id)]
