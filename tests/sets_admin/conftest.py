"""Two servers on a simulated Discord (simcord) around the real bot, the real local
PHP pool and a temporary SQLite store; each server has a manager and a player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import pytest_asyncio
import simcord

from bot.app import FormulaDartsBot, create_bot
from bot.settings import BotSettings
from bot.storage import Store
from evaluator import Evaluator
from tests.simbot import ForcedDigits, evaluator, store  # noqa: F401 (fixtures)


@pytest_asyncio.fixture(loop_scope="session")
async def env(
    tmp_path: Path, store: Store, evaluator: Evaluator
) -> AsyncIterator[tuple[simcord.Env, ForcedDigits]]:
    digits = ForcedDigits()
    settings = BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        dev_guild_id=None,
    )
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits)
    running = simcord.Env(bot)
    await running.start()
    try:
        yield running, digits
    finally:
        await running.shutdown()
        if running.check_errors:
            running._raise_errors_since(running._errors_acknowledged)


@dataclass
class Server:
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    admin: simcord.MemberActor
    player: simcord.MemberActor

    def thread(self) -> simcord.ChannelHandle:
        return self.channel.threads[-1]


@dataclass
class World:
    env: simcord.Env
    a: Server
    b: Server
    digits: ForcedDigits
    store: Store

    @property
    def bot(self) -> FormulaDartsBot:
        return self.env.bot  # type: ignore[return-value]


def _server(env: simcord.Env, name: str) -> Server:
    guild = env.create_guild(name)
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return Server(
        guild=guild,
        channel=guild.create_text_channel("games"),
        admin=guild.add_member(env.create_user(f"{name}-admin"), roles=[managers]),
        player=guild.add_member(env.create_user(f"{name}-player")),
    )


@pytest.fixture
def world(env: tuple[simcord.Env, ForcedDigits], store: Store) -> World:
    running, digits = env
    return World(running, _server(running, "alpha"), _server(running, "beta"), digits, store)
