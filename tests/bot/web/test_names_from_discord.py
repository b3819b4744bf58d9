"""Players' names on the pages come from what the bot saw: a player's interaction on a
simulated Discord (their server nickname) is kept in the store, the pages of
`formula-darts web` over that store show it (not "Player …"), a changed nickname
replaces it, and the server's names go when the bot is removed from it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.app import create_bot
from bot.settings import BotSettings, SoloGames
from bot.storage import Store, open_store
from bot.web import create_app
from tests.bot.leaderboards.conftest import UnusedEvaluator
from tests.bot.web.pages_site import qualification
from tests.support.fixtures import simulated


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(f"sqlite+aiosqlite:///{tmp_path}/names.sqlite3")
    yield opened
    await opened.close()


async def test_a_players_discord_name_reaches_the_standalone_pages(store: Store) -> None:
    settings = BotSettings(
        discord_token=None, database_url="sqlite+aiosqlite:///unused", solo_games=SoloGames.THREAD
    )
    bot = create_bot(settings, store=store, evaluator=UnusedEvaluator())
    async with simulated(bot) as env:
        guild = env.create_guild("Darts Club")
        channel = guild.create_text_channel("games")
        olena = guild.add_member(env.create_user("olena"), nick='Олена <b>"O"</b>')
        await olena.slash(channel, "leaderboard duel")
        await bot.names.flush()
        assert await store.names.of(guild.id, [olena.id]) == {olena.id: 'Олена <b>"O"</b>'}

        await qualification(store, guild.id, "a" * 32, olena.id, [100, 100, 100, 51])
        key = (await store.servers.set_web(guild.id, True, 1.0)).web_key
        client = TestClient(TestServer(create_app(store)))  # `formula-darts web`: no bot
        await client.start_server()
        try:
            html = await (await client.get(f"/s/{key}/?period=all")).text()
        finally:
            await client.close()
        assert "Олена &lt;b&gt;&#34;O&#34;&lt;/b&gt;" in html and "Player …" not in html

        env.backend.edit_member(guild.id, olena.id, {"nick": "Olena K."})
        await olena.slash(channel, "leaderboard duel")
        await bot.names.flush()
        assert await store.names.of(guild.id, [olena.id]) == {olena.id: "Olena K."}

        env.backend.remove_guild(guild.id)
        await env.settle()
        assert await store.names.of(guild.id, [olena.id]) == {}


async def test_the_servers_name_is_kept_when_it_joins_and_when_it_is_renamed(
    store: Store,
) -> None:
    settings = BotSettings(
        discord_token=None, database_url="sqlite+aiosqlite:///unused", solo_games=SoloGames.THREAD
    )
    bot = create_bot(settings, store=store, evaluator=UnusedEvaluator())
    async with simulated(bot) as env:
        guild = env.create_guild("Darts Club")
        await env.settle()
        assert (await store.servers.settings(guild.id)).guild_name == "Darts Club"
        env.backend.edit_guild(guild.id, {"name": "Дартс <клуб>"})
        await env.settle()
        assert (await store.servers.settings(guild.id)).guild_name == "Дартс <клуб>"
