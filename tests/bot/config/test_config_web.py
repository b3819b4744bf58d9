"""/config web on simcord: off by default, turned on by an admin only, it prints the
server's address (a page key, not the snowflake) whose pages then answer; /game links
the game's replay there while the web is on, and not after it is turned off."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.settings import BotSettings, SoloGames
from bot.web import create_app
from tests.support.sim import reply_text, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")
BASE = "https://darts.example.org"


@pytest.fixture
def settings(tmp_path: Path) -> BotSettings:
    return BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        dev_guild_id=None,
        web_base_url=BASE,
        solo_games=SoloGames.THREAD,
    )


async def test_web_is_an_admins_switch_and_prints_the_address(world, admin) -> None:
    assert not (await world.store.servers.settings(world.guild.id)).web_on
    assert not any(c.startswith("config") for c in world.carol.available_commands(world.channel))
    text = reply_text(await admin.slash(world.channel, "config web", state="on"))
    stored = await world.store.servers.settings(world.guild.id)
    assert stored.web_on and stored.web_key is not None
    address = f"{BASE}/s/{stored.web_key}/"
    assert address in text and str(world.guild.id) not in text
    client = TestClient(TestServer(create_app(world.store)))
    await client.start_server()
    try:
        page = await client.get(address.removeprefix(BASE))
        assert page.status == 200
        off = reply_text(await admin.slash(world.channel, "config web", state="off"))
        assert "off" in off
        assert (await client.get(address.removeprefix(BASE))).status == 404
    finally:
        await client.close()


async def test_game_links_its_replay_while_the_web_is_on(world, admin) -> None:
    await world.alice.slash(world.channel, "training")
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert game is not None
    await world.alice.slash(world.channel, "resign")
    prefix = game.state.id[:8]
    before = shown(await world.bob.slash(world.channel, "game", id=prefix))
    assert before.embeds[0].url is None
    await admin.slash(world.channel, "config web", state="on")
    key = (await world.store.servers.settings(world.guild.id)).web_key
    linked = shown(await world.bob.slash(world.channel, "game", id=prefix))
    assert linked.embeds[0].url == f"{BASE}/s/{key}/g/{prefix}"
    await admin.slash(world.channel, "config web", state="off")
    after = shown(await world.bob.slash(world.channel, "game", id=prefix))
    assert after.embeds[0].url is None


async def test_the_leaderboard_links_my_place_on_the_web(world, admin) -> None:
    """/leaderboard qualification links the web board opened at the asker's place."""
    await admin.slash(world.channel, "config web", state="on")
    key = (await world.store.servers.settings(world.guild.id)).web_key
    board = shown(await world.bob.slash(world.channel, "leaderboard qualification"))
    assert board.embeds[0].url.startswith(
        f"{BASE}/s/{key}/?set=darts&period=today&me={world.bob.id}&version="
    )
