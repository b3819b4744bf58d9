"""A Cup's announcement lead time on simcord: chosen in `/cup create` and `/cup edit`,
refused out of range with the other problems at once (en and uk), shown in `/cup show`,
and the announcement made that long before the start (not the old fixed hour)."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def start_in(hours: float) -> str:
    return (discord.utils.utcnow() + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")


def cup_messages(world) -> list[discord.Message]:
    return [m for m in world.channel.history() if "🏆" in m.content]


async def test_the_lead_time_is_checked_with_the_rest_in_the_admins_language(world, admin) -> None:
    answer = reply_text(
        await admin.slash(
            world.channel, "cup create", name="Cup", set="darts", start=start_in(5), size=3,
            lead=5,
        )
    )  # fmt: skip
    assert "Problems found: 2" in answer, answer
    assert "**lead time**: from 10 to 1440 minutes before the start" in answer
    speak(world.env, admin, "uk")
    answer = reply_text(
        await admin.slash(
            world.channel, "cup create", name="Кубок", set="darts", start=start_in(5),
            lead=1441,
        )
    )  # fmt: skip
    assert "Знайдено проблем: 1" in answer and "від 10 до 1440\u00a0хв до початку" in answer
    assert await world.store.cups.of_server(world.guild.id) == []


async def test_a_cup_is_announced_its_lead_time_before_the_start(world, admin) -> None:
    made = reply_text(
        await admin.slash(
            world.channel, "cup create", name="Late Cup", set="darts", start=start_in(3),
            seeding="elo", lead=30,
        )
    )  # fmt: skip
    assert "announced in this channel 30 minutes before its start" in made, made
    (cup,) = await world.store.cups.of_server(world.guild.id)
    assert cup.lead_s == 1800
    edited = reply_text(await admin.slash(world.channel, "cup edit", cup=cup.id, lead=90))
    assert "announced 90 minutes before" in edited, edited
    speak(world.env, admin, "uk")
    shown = reply_text(await admin.slash(world.channel, "cup show", cup=cup.id))
    assert "оголошення за 90\u00a0хвилин" in shown, shown

    await world.env.advance_time(60 * 60)  # the old fixed hour would announce it now
    assert cup_messages(world) == []
    await world.env.advance_time(31 * 60)
    (announcement,) = cup_messages(world)
    assert "**Late Cup**" in announcement.content
