"""Roles as rewards on simcord: `/config roles` checks Manage Roles and the hierarchy
first and says what is missing (en, uk) before storing anything; the champion's and the
day winner's roles move from holder to holder, each grant and removal made exactly once
across restarts, an intent stored before a crash done after it; a streak's role comes
with its achievement and goes with a void."""

from __future__ import annotations

import dataclasses

import discord
import pytest

import rules
from bot.storage import RoleReward
from rules import Mode
from tests.bot.storage.builders import CHECKOUT_4, DARTS, record, single
from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def role_calls(env, role_id: int) -> list[tuple[str, int]]:
    """The bot's calls that gave or took `role_id`: (method, member id)."""
    calls = []
    for request in env.http_requests:
        parts = request.path.strip("/").split("/")
        if len(parts) >= 6 and parts[-2] == "roles" and int(parts[-1]) == role_id:
            calls.append((request.method, int(parts[-3])))
    return calls


async def settled(world) -> None:
    """The seams are called from the test's task, not the bot's: wait for the keeper the
    call woke, then for whatever else the bot does."""
    await world.bot.role_keeper.settled()
    await world.env.settle()


def has_role(world, member, role) -> bool:
    return role.id in world.env.backend.get_member(world.guild.id, member.id).role_ids


async def set_reward(world, admin, reward: str, role) -> str:
    return reply_text(await admin.slash(world.channel, "config roles", reward=reward, role=role))


async def test_the_champion_role_moves_once_across_restarts(world, admin, make_bot) -> None:
    role = world.guild.create_role("Champion")
    shown = await set_reward(world, admin, "champion", role)
    assert f"Cup champion (the last one holds it): {role.mention}" in shown
    assert await world.store.roles.rewards(world.guild.id) == {RoleReward.CHAMPION: role.id}

    await world.bot.rewards.champion_crowned(world.guild.id, world.alice.id, 1)
    await settled(world)
    assert has_role(world, world.alice, role)
    assert role_calls(world.env, role.id) == [("PUT", world.alice.id)]

    await world.env.restart_bot(make_bot())
    await world.bot.rewards.champion_crowned(world.guild.id, world.alice.id, 1)  # again
    await settled(world)
    assert role_calls(world.env, role.id) == [("PUT", world.alice.id)]  # nothing twice

    await world.bot.rewards.champion_crowned(world.guild.id, world.bob.id, 2)
    await settled(world)
    assert has_role(world, world.bob, role) and not has_role(world, world.alice, role)
    calls = role_calls(world.env, role.id)
    assert sorted(calls[1:]) == sorted([("DELETE", world.alice.id), ("PUT", world.bob.id)])

    # a crash between storing the next champion and Discord: done after the restart, once
    world.bot.role_keeper.stop()
    await world.bot.rewards.champion_crowned(world.guild.id, world.carol.id, 3)
    await settled(world)
    assert len(role_calls(world.env, role.id)) == 3  # not done yet
    await world.env.restart_bot(make_bot())
    await settled(world)
    assert has_role(world, world.carol, role) and not has_role(world, world.bob, role)
    assert sorted(role_calls(world.env, role.id)[3:]) == sorted(
        [("DELETE", world.bob.id), ("PUT", world.carol.id)]
    )
    await world.env.restart_bot(make_bot())
    await settled(world)
    assert len(role_calls(world.env, role.id)) == 5
    held = await world.bot.store.achievements.held(world.guild.id, world.carol.id)
    assert [e.achievement.value for e in held] == ["cup_champion"]


async def test_the_day_winners_role_stays_until_the_next_days(world, admin) -> None:
    role = world.guild.create_role("Winner of the day")
    await set_reward(world, admin, "day_winner", role)
    rewards, guild = world.bot.rewards, world.guild.id
    await rewards.day_won(guild, world.alice.id, "darts", "2026-12-01", "g1")
    await rewards.day_won(guild, world.bob.id, "short", "2026-12-01", "g2")  # another Set
    await settled(world)
    assert has_role(world, world.alice, role) and has_role(world, world.bob, role)
    await rewards.day_won(guild, world.carol.id, "darts", "2026-12-02", "g3")
    await rewards.day_won(guild, world.alice.id, "darts", "2026-11-30", "g0")  # posted late
    await settled(world)
    assert has_role(world, world.carol, role)
    assert not has_role(world, world.alice, role) and not has_role(world, world.bob, role)
    assert len(role_calls(world.env, role.id)) == 5  # 2 given, 2 taken, 1 given


async def test_what_the_bot_lacks_is_said_before_anything_is_stored(world, admin) -> None:
    above = world.guild.create_role("Moderators", position=50)
    refused = await set_reward(world, admin, "champion", above)
    assert "was not set" in refused and "not below the bot's highest role" in refused
    assert "Manage Roles" not in refused
    bot_role = next(r for r in world.guild.roles.values() if r.name == world.bot.user.name)
    perms = discord.Permissions.all()
    perms.administrator = perms.manage_roles = False
    world.env.backend.edit_role(world.guild.id, bot_role.id, {"permissions": perms.value})
    await settled(world)
    below = world.guild.create_role("Champion")
    refused = await set_reward(world, admin, "champion", below)
    assert "lacks the Manage Roles permission" in refused
    speak(world.env, admin, "uk")
    refused = await set_reward(world, admin, "streak_7", above)
    assert "не призначено" in refused and "«Керувати ролями»" in refused
    assert "не нижча за найвищу роль бота" in refused
    assert await world.store.roles.rewards(world.guild.id) == {}
    alone = reply_text(await admin.slash(world.channel, "config roles", role=below))
    assert "Виберіть нагороду" in alone and "нічого не змінено" in alone
    everyone = await set_reward(world, admin, "champion", world.guild.default_role)
    assert "@everyone" in everyone
    assert await world.store.roles.rewards(world.guild.id) == {}


async def test_a_streak_role_comes_with_its_achievement_and_goes_with_a_void(world, admin) -> None:
    role = world.guild.create_role("Week streak")
    await set_reward(world, admin, "streak_7", role)
    darts = dataclasses.replace(DARTS, name=rules.CLASSIC.name)
    last = None
    for day in range(1, 8):
        state = single(f"q{day}", world.alice.id, CHECKOUT_4, game_set=darts)
        last = record(state, guild=world.guild.id, period=f"2026-12-0{day}")
        await world.store.games.save_game(last, now=1_800_000_000.0 + day * 86_400)
    assert last is not None and last.state.mode is Mode.QUALIFICATION
    lines = await world.bot.rewards.summary_lines(last, "en")
    assert any("7-day streak" in line for line in lines)
    await settled(world)
    assert has_role(world, world.alice, role)
    voided = await admin.slash(world.channel, "admin void", game="q7", reason="alt")
    assert "voided" in reply_text(voided)
    await settled(world)
    assert not has_role(world, world.alice, role)
    assert role_calls(world.env, role.id) == [("PUT", world.alice.id), ("DELETE", world.alice.id)]


async def test_a_grant_discord_cannot_do_is_said_and_retried_once_fixed(world, admin) -> None:
    role = world.guild.create_role("Champion")
    await set_reward(world, admin, "champion", role)
    world.env.backend.edit_role(world.guild.id, role.id, {"position": 60})  # now above the bot
    await world.env.settle()
    await world.bot.rewards.champion_crowned(world.guild.id, world.alice.id, 1)
    await settled(world)
    assert not has_role(world, world.alice, role) and role_calls(world.env, role.id) == []
    shown = reply_text(await admin.slash(world.channel, "config roles"))
    assert f"could not give {role.mention} for <@{world.alice.id}>" in shown
    assert "not below the bot's highest role" in shown
    world.env.backend.edit_role(world.guild.id, role.id, {"position": 1})  # fixed
    await world.env.settle()
    shown = reply_text(
        await admin.slash(world.channel, "config roles", reward="champion", role=role)
    )
    await settled(world)
    assert has_role(world, world.alice, role)
    assert role_calls(world.env, role.id) == [("PUT", world.alice.id)]
    assert "could not" not in reply_text(await admin.slash(world.channel, "config roles"))
