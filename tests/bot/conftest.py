"""A simulated Discord (simcord) around the real bot, the real local PHP pool and a
temporary SQLite store per test. Digits are forced through the bot's digits source."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.app import FormulaDartsBot, create_bot
from bot.settings import BotSettings
from bot.storage import Store
from evaluator import Evaluator
from tests.simbot import ForcedDigits, evaluator, store  # noqa: F401 (fixtures)


@pytest.fixture
def digits() -> ForcedDigits:
    return ForcedDigits()


@pytest.fixture
def settings(tmp_path: Path) -> BotSettings:
    return BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        dev_guild_id=None,
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
    """Like simcord's own `simcord_env`, on the session loop the PHP pool lives on."""
    running = simcord.Env(make_bot())
    await running.start()
    try:
        yield running
    finally:
        await running.shutdown()
        if running.check_errors:
            running._raise_errors_since(running._errors_acknowledged)


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
