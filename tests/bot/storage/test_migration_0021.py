"""Migration 0021 on a database populated at 0017, SQLite and PostgreSQL: a server's
settings stay as they were, its name is unknown until the bot sees it, then kept (a
name unchanged writes nothing new, a new one replaces it), and a server never configured
gets a settings row with the defaults and its name."""

from __future__ import annotations

import sqlalchemy as sa

from bot.storage import open_store
from bot.storage._engine import current_revision, head_revision, make_engine, upgrade


async def test_a_database_at_0017_upgrades_and_keeps_server_names(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        await upgrade(engine, "0017")
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(
                    "INSERT INTO server_config (guild_id, timezone, updated_at, web_on,"
                    " web_key, solo_games, language) VALUES"
                    " (1, 'Europe/Kyiv', 1.0, true, 'k' || '0123456789abcdef', 'private', 'uk')"
                )
            )
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()
    store = await open_store(db_url)
    try:
        before = await store.servers.settings(1)
        assert (before.timezone, before.web_on, before.solo_games, before.language) == (
            "Europe/Kyiv", True, "private", "uk",
        )  # fmt: skip
        assert before.guild_name is None
        await store.servers.name_server(1, "Дартс-клуб", 2.0)
        await store.servers.name_server(1, "Дартс-клуб", 3.0)
        named = await store.servers.settings(1)
        assert named.guild_name == "Дартс-клуб"
        assert named.timezone == "Europe/Kyiv" and named.web_key == before.web_key
        await store.servers.name_server(1, "N" * 150, 4.0)  # longer than Discord allows
        assert (await store.servers.settings(1)).guild_name == "N" * 100
        assert (await store.servers.by_web_key("k0123456789abcdef")) is not None

        await store.servers.name_server(2, "New server", 5.0)
        fresh = await store.servers.settings(2)
        assert (fresh.guild_name, fresh.timezone, fresh.web_on, fresh.channel_id) == (
            "New server", "UTC", False, None,
        )  # fmt: skip
    finally:
        await store.close()
