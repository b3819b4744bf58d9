"""The day's winner on simcord: when the daily post closes a day, its first earns "day
won" (stored with the winning game) and the day winner's role, each once across a
restart; the next day's winner takes the role over."""

from __future__ import annotations

import pytest

from bot.storage import Source
from rules.achievements import Achievement
from tests.bot.daily.conftest import board  # noqa: F401
from tests.bot.daily.seeds import played, seed_day
from tests.support.sim import reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY_S = 24 * 3600


def role_calls(env, role_id: int) -> list[tuple[str, int]]:
    calls = []
    for request in env.http_requests:
        parts = request.path.strip("/").split("/")
        if len(parts) >= 6 and parts[-2] == "roles" and int(parts[-1]) == role_id:
            calls.append((request.method, int(parts[-3])))
    return calls


def has_role(world, member, role) -> bool:
    return role.id in world.env.backend.get_member(world.guild.id, member.id).role_ids


async def test_the_days_first_earns_once_and_holds_the_role_until_the_next(
    world,
    admin,
    board,
    make_bot,
) -> None:
    role = world.guild.create_role("Today's best")
    shown = reply_text(
        await admin.slash(world.channel, "config roles", reward="day_winner", role=role)
    )
    assert role.mention in shown
    await seed_day(world)  # Alice's Perfect beats Bob's checkout in 5
    await world.env.advance_time(DAY_S + 60)
    held = await world.store.achievements.held(world.guild.id, world.alice.id)
    assert [(e.achievement, e.source, e.source_id) for e in held] == [
        (Achievement.DAY_WON, Source.GAME, "a" * 32)
    ]
    assert await world.store.achievements.held(world.guild.id, world.bob.id) == []
    assert has_role(world, world.alice, role)
    assert role_calls(world.env, role.id) == [("PUT", world.alice.id)]

    await world.env.restart_bot(make_bot())
    await world.env.advance_time(3600)
    assert role_calls(world.env, role.id) == [("PUT", world.alice.id)]  # nothing twice

    perfect = [("(1+2)*34-2", 100), ("1*2*34+32", 100), ("12*3+64", 100), ("1+2+3+45", 51)]
    await played(world.store, world.guild.id, "c" * 32, world.bob.id, perfect, period="2026-01-02")
    await world.env.advance_time(DAY_S)
    assert has_role(world, world.bob, role) and not has_role(world, world.alice, role)
    assert sorted(role_calls(world.env, role.id)[1:]) == sorted(
        [("DELETE", world.alice.id), ("PUT", world.bob.id)]
    )
    bob = await world.store.achievements.held(world.guild.id, world.bob.id)
    assert [e.achievement for e in bob] == [Achievement.DAY_WON]
