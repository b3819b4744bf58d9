"""Migration 0018 on a database populated at 0017, SQLite and PostgreSQL: the games there
stay, and achievements and role intents are stored, earned once, voided and given back."""

from __future__ import annotations

import sqlalchemy as sa

from bot.storage import RoleReward, Source, open_store
from bot.storage._engine import current_revision, head_revision, make_engine, upgrade
from rules.achievements import Achievement
from tests.bot.storage.builders import CHECKOUT_4, GUILD, record, single

T0 = 1_700_000_000.0
A = Achievement


async def test_a_database_at_0017_upgrades_and_keeps_achievements(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        await upgrade(engine, "0017")
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(
                    "INSERT INTO server_config (guild_id, timezone, updated_at, web_on,"
                    " solo_games) VALUES (:g, 'Europe/Kyiv', 1.0, false, 'thread')"
                ),
                {"g": GUILD},
            )
    finally:
        await engine.dispose()
    old = await open_store(db_url, migrate=False)
    try:
        await old.games.save_game(record(single("game1", 11, CHECKOUT_4)), now=T0)
    finally:
        await old.close()

    store = await open_store(db_url)
    try:
        assert await current_revision(store.engine) == head_revision()
        assert (await store.servers.settings(GUILD)).timezone == "Europe/Kyiv"
        assert (await store.games.load_game("game1")) is not None
        achievements = store.achievements
        assert await achievements.held(GUILD, 11) == []

        first = await achievements.grant(
            GUILD, 11, [A.FIRST_CHECKOUT, A.FIRST_PERFECT], Source.GAME, "game1", T0
        )
        assert first == [A.FIRST_CHECKOUT, A.FIRST_PERFECT]
        again = await achievements.grant(GUILD, 11, [A.FIRST_CHECKOUT], Source.GAME, "game2", T0)
        assert again == []  # earned once per player per server
        assert await achievements.grant(GUILD + 1, 11, [A.FIRST_CHECKOUT], Source.GAME, "g3", T0)
        held = await achievements.held(GUILD, 11)
        assert [(e.achievement, e.source_id) for e in held] == [
            (A.FIRST_CHECKOUT, "game1"), (A.FIRST_PERFECT, "game1"),
        ]  # fmt: skip

        taken = await achievements.void_source(Source.GAME, "game1")
        assert {e.achievement for e in taken} == {A.FIRST_CHECKOUT, A.FIRST_PERFECT}
        assert await achievements.held(GUILD, 11) == []
        assert await achievements.void_source(Source.GAME, "game1") == []  # once
        # a later game earns the checkout again; unvoiding game1 gives back only the Perfect
        later = await achievements.grant(GUILD, 11, [A.FIRST_CHECKOUT], Source.GAME, "g4", T0 + 1)
        assert later == [A.FIRST_CHECKOUT]
        given = await achievements.unvoid_source(Source.GAME, "game1")
        assert [e.achievement for e in given] == [A.FIRST_PERFECT]
        assert {(e.achievement, e.source_id) for e in await achievements.held(GUILD, 11)} == {
            (A.FIRST_CHECKOUT, "g4"), (A.FIRST_PERFECT, "game1"),
        }  # fmt: skip
        assert [e.achievement for e in await achievements.of_source(Source.GAME, "game1")] == [
            A.FIRST_PERFECT
        ]

        roles = store.roles
        assert not await roles.crown(GUILD, RoleReward.CHAMPION, 11, "cup1", T0)  # no role set
        await roles.set_reward(GUILD, RoleReward.CHAMPION, 900, T0)
        assert await roles.rewards(GUILD) == {RoleReward.CHAMPION: 900}
        assert await roles.crown(GUILD, RoleReward.CHAMPION, 11, "cup1", T0)
        assert not await roles.crown(GUILD, RoleReward.CHAMPION, 11, "cup1", T0 + 1)  # once
        assert await roles.crown(GUILD, RoleReward.CHAMPION, 12, "cup2", T0 + 2)
        undone = await roles.undone()
        assert [(i.user_id, i.want) for i in undone] == [(11, False), (12, True)]
        assert await roles.done(undone[0], T0 + 3)
        assert not await roles.done(undone[0], T0 + 3)  # done once
        assert [(i.user_id, i.want) for i in await roles.undone()] == [(12, True)]
        await roles.set_reward(GUILD, RoleReward.CHAMPION, None, T0)
        assert await roles.rewards(GUILD) == {}
    finally:
        await store.close()
