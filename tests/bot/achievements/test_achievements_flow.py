"""Achievements on simcord, end to end: earned by a game, announced once in its summary
(in the player's language), shown on `/stats`, taken back when an admin voids the game
and given back on unvoid when nothing earned them since."""

from __future__ import annotations

import pytest

from bot.storage import Source
from rules.achievements import Achievement
from tests.support.sim import answer, message_text, shown, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def text(result) -> str:
    seen = shown(result)
    return message_text(getattr(seen, "message", seen))


async def checkout(world, player) -> tuple[str, str]:
    """A Training game of one round won with Score 0 (a Perfect); its summary's text."""
    world.digits.extend("7001")
    await player.slash(world.channel, "training")
    game = await world.store.games.active_game_of(world.guild.id, player.id)
    await answer(player, world.thread().last_message, "700+1")
    return game.state.id, message_text(world.thread().last_message)


async def test_a_game_earns_once_shows_on_stats_and_a_void_takes_it_back(world, admin) -> None:
    first, summary = await checkout(world, world.alice)
    assert "Achievement earned: **First checkout**" in summary
    assert "Achievement earned: **First Perfect**" in summary
    stats = text(await world.bob.slash(world.channel, "stats", user=world.alice))
    assert "Achievements" in stats and "First Perfect" in stats and "First checkout" in stats

    second, summary = await checkout(world, world.alice)
    assert "Achievement" not in summary  # earned once: the second game announces nothing

    await admin.slash(world.channel, "admin void", game=first[:8], reason="alt")
    stats = text(await world.bob.slash(world.channel, "stats", user=world.alice))
    assert "First Perfect" not in stats  # taken back with the game
    assert await world.store.achievements.of_source(Source.GAME, first) == []

    third, summary = await checkout(world, world.alice)
    assert "First checkout" in summary and "First Perfect" in summary  # earned again
    await admin.slash(world.channel, "admin unvoid", game=first[:8], reason="ok")
    held = await world.store.achievements.held(world.guild.id, world.alice.id)
    assert {(e.achievement, e.source_id) for e in held} == {
        (Achievement.FIRST_CHECKOUT, third),
        (Achievement.FIRST_PERFECT, third),
    }  # fmt: skip  (the third game earned them since: the unvoided one gets nothing back)
    assert second != third


async def test_unvoid_gives_back_what_nothing_earned_since(world, admin) -> None:
    first, _ = await checkout(world, world.alice)
    await admin.slash(world.channel, "admin void", game=first[:8], reason="alt")
    assert await world.store.achievements.held(world.guild.id, world.alice.id) == []
    await admin.slash(world.channel, "admin unvoid", game=first[:8], reason="ok")
    held = await world.store.achievements.held(world.guild.id, world.alice.id)
    assert {e.source_id for e in held} == {first} and len(held) == 2
    stats = text(await world.alice.slash(world.channel, "stats"))
    assert "First Perfect" in stats


async def test_the_summary_says_it_in_ukrainian(world) -> None:
    speak(world.env, world.bob, "uk")
    _, summary = await checkout(world, world.bob)
    assert "Нове досягнення: **Рахунок 0 уперше**" in summary
    assert "**Супер-гра вперше**" in summary
    stats = text(await world.bob.slash(world.channel, "stats"))
    assert "Досягнення" in stats and "Супер-гра вперше" in stats
