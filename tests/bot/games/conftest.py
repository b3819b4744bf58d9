"""A simulated Discord (simcord) around the real bot, the real local PHP pool and a
temporary SQLite store per test. Digits are forced through the bot's digits source."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.app import FormulaDartsBot, create_bot
from bot.settings import BotSettings
from bot.storage import Store
from evaluator import Evaluator
from tests.support.fixtures import ForcedDigits, simulated


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
