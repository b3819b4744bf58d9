"""`/healthz` on the real bot (discord.py on simcord), the real store and the real PHP pool:
not ready before the bot has logged in, ready while it runs, not ready once it closed
(as `run_discord`'s `async with bot` closes it)."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.observability import HealthServer, Metrics, readiness_checks
from bot.settings import BotSettings
from tests.support.fixtures import simulated
from tests.support.observability import healthz

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_ready_only_while_the_bot_is_logged_in(store, evaluator, tmp_path) -> None:
    settings = BotSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3")
    bot = create_bot(settings, store=store, evaluator=evaluator)
    async with HealthServer(Metrics(), readiness_checks(bot, store.games, evaluator)) as server:
        status, body = await healthz(server)
        assert (status, body["failing"]) == (503, ["discord"])
        async with simulated(bot):
            status, body = await healthz(server)
            assert (status, body["checks"]) == (
                200,
                {"discord": "ok", "store": "ok", "evaluator": "ok"},
            )
            await bot.close()
            status, body = await healthz(server)
            assert (status, body["failing"]) == (503, ["discord"])
