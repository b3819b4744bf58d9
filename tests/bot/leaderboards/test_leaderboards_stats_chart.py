"""/stats carries the chart of the player's last games, drawn by a real chart worker, in
the asker's language; practice and voided games are not on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest_asyncio

from bot.app import create_bot
from bot.charts import stats_chart
from bot.settings import BotSettings, SoloGames
from tests.bot.leaderboards.conftest import Board, UnusedEvaluator
from tests.bot.leaderboards.games_played import CHECKOUT_4, NO_CHECKOUT, qualification
from tests.support.fixtures import simulated
from tests.support.renderers import recording  # noqa: F401 (fixture)
from tests.support.sim import shown


@pytest_asyncio.fixture
async def charted(store, tmp_path: Path, recording) -> AsyncIterator[Board]:
    recording.asked.clear()
    settings = BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/x",
        solo_games=SoloGames.THREAD,
    )
    bot = create_bot(settings, store=store, evaluator=UnusedEvaluator(), charts=recording)
    async with simulated(bot) as env:
        guild = env.create_guild("Darts Club")
        yield Board(env, guild, guild.create_text_channel("games"),
                    guild.add_member(env.create_user("alice")),
                    guild.add_member(env.create_user("bob")),
                    guild.add_member(env.create_user("carol")), store)  # fmt: skip


async def test_stats_carry_the_chart_of_the_counted_games(charted, recording) -> None:
    guild, a = charted.guild.id, charted.alice.id
    for index in range(3):  # one attempt a day
        await qualification(
            charted.store, guild, f"s-{index}", a, CHECKOUT_4, period=f"2026-01-0{index + 1}"
        )
    await qualification(charted.store, guild, "s-max", a, NO_CHECKOUT, period="2026-01-04")
    await qualification(charted.store, guild, "s-void", a, CHECKOUT_4, period="2026-01-05")
    assert await charted.store.moderation.void_game(guild, "s-void", 1, "test", 0.0)

    def ukrainian(event: str, payload: Any) -> None:
        if event == "INTERACTION_CREATE":
            payload["locale"] = discord.Locale.ukrainian.value

    charted.env.backend.subscribers.insert(0, ukrainian)
    message = shown(await charted.bob.slash(charted.channel, "stats", user=charted.alice))
    (attachment,) = message.attachments
    assert attachment.filename == "stats.png"
    assert message.embeds[0].image.url == "attachment://stats.png"
    assert charted.env.backend.cdn.get(attachment.url).startswith(b"\x89PNG")
    ((chart, data, locale),) = recording.asked
    assert chart is stats_chart and locale == "uk"
    assert len(data.games) == 4  # the voided game is not drawn


async def test_stats_without_games_have_no_chart(charted, recording) -> None:
    message = shown(await charted.carol.slash(charted.channel, "stats"))
    assert not message.attachments and recording.asked == []
