"""The real bot with the leaderboards extension on a simulated Discord.

The store is filled with hand-made games before the commands read them; no game
is played, so the evaluator is a stand-in that is never asked anything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import FEATURES, Feature, FormulaDartsBot, create_bot
from bot.settings import BotSettings, SoloGames
from bot.storage import Store
from tests.support.fixtures import simulated
from tests.support.head_template import open_head_store

assert Feature.LEADERBOARDS in FEATURES, "the bot must load the leaderboards cog"


class UnusedEvaluator:
    """No formula is judged in these tests."""

    timeout_s = 2.0

    async def evaluate(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the leaderboards tests play no game")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_head_store(f"sqlite+aiosqlite:///{tmp_path}/boards.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def make_bot(store: Store, tmp_path: Path) -> Callable[[], FormulaDartsBot]:
    settings = BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        solo_games=SoloGames.THREAD,
    )

    def build() -> FormulaDartsBot:
        return create_bot(settings, store=store, evaluator=UnusedEvaluator())

    return build


@dataclass
class Board:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    store: Store


@pytest.fixture
async def board(make_bot: Callable[[], FormulaDartsBot], store: Store) -> AsyncIterator[Board]:
    async with simulated(make_bot()) as env:
        guild = env.create_guild("Darts Club")
        yield Board(
            env=env,
            guild=guild,
            channel=guild.create_text_channel("games"),
            alice=guild.add_member(env.create_user("alice")),
            bob=guild.add_member(env.create_user("bob")),
            carol=guild.add_member(env.create_user("carol")),
            store=store,
        )
