"""Fixtures every bot suite may use: the real PHP pool, a SQLite store, forced Digits,
settings that never read the environment, and a simulated Discord (simcord) around the
real bot with one server, a channel and three players (`world`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord

from bot.app import FormulaDartsBot, create_bot
from bot.settings import BotSettings, SoloGames
from bot.storage import Store
from evaluator import Evaluator
from tests.support.fixtures import ForcedDigits, evaluator, simulated, store  # noqa: F401


@pytest.fixture
def digits() -> ForcedDigits:
    return ForcedDigits()


@pytest.fixture
def settings(tmp_path: Path) -> BotSettings:
    return BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        dev_guild_id=None,
        solo_games=SoloGames.THREAD,  # private games are tests/bot/games/test_private_games.py
    )


@pytest.fixture
def make_bot(
    settings: BotSettings, store: Store, evaluator: Evaluator, digits: ForcedDigits
) -> Any:
    def build() -> FormulaDartsBot:
        return create_bot(settings, store=store, evaluator=evaluator, digits_source=digits)

    return build


@pytest_asyncio.fixture(loop_scope="session")
async def env(make_bot: Any) -> AsyncIterator[simcord.Env]:
    async with simulated(make_bot()) as running:
        yield running


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    digits: ForcedDigits
    store: Store

    @property
    def bot(self) -> FormulaDartsBot:
        return self.env.bot  # type: ignore[return-value]

    def thread(self, index: int = -1) -> simcord.ChannelHandle:
        return self.channel.threads[index]


@pytest.fixture
def world(env: simcord.Env, digits: ForcedDigits, store: Store) -> World:
    guild = env.create_guild("Darts Club")
    channel = guild.create_text_channel("games")
    return World(
        env=env,
        guild=guild,
        channel=channel,
        alice=guild.add_member(env.create_user("alice")),
        bob=guild.add_member(env.create_user("bob")),
        carol=guild.add_member(env.create_user("carol")),
        digits=digits,
        store=store,
    )


@pytest.fixture
def admin(world: World) -> simcord.MemberActor:
    """A member with Manage Server, for /config and /admin."""
    managers = world.guild.create_role(
        "Managers", permissions=discord.Permissions(manage_guild=True)
    )
    return world.guild.add_member(world.env.create_user("dana"), roles=[managers])
