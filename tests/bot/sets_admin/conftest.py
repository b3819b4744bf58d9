"""Two servers on a simulated Discord (simcord) around the real bot, the real local
PHP pool and a temporary SQLite store; each server has a manager and a player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
import pytest_asyncio
import simcord

from bot.app import FormulaDartsBot, create_bot
from bot.settings import BotSettings
from bot.storage import Store
from evaluator import Evaluator
from tests.support.fixtures import ForcedDigits, simulated


@pytest_asyncio.fixture(loop_scope="session")
async def env(
    settings: BotSettings, store: Store, evaluator: Evaluator, digits: ForcedDigits
) -> AsyncIterator[tuple[simcord.Env, ForcedDigits]]:
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits)
    async with simulated(bot) as running:
        yield running, digits


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
