"""A game played through simcord moves what an operator scrapes: the real bot with
METRICS_PORT on a free port, wired as `run_discord` wires it (`observe`), one refused
formula and one accepted, then `/metrics` over HTTP counts both verdicts and the running
game, and `/healthz` is 200."""

from __future__ import annotations

import pytest

from bot.app import create_bot
from bot.observability import Metrics, readiness_checks, serve_observability
from bot.process import observe
from bot.settings import BotSettings, SoloGames
from tests.support.fixtures import ForcedDigits, simulated
from tests.support.observability import healthz, scrape
from tests.support.sim import answer, round_messages

pytestmark = pytest.mark.asyncio(loop_scope="session")

ANSWERS = "formula_darts_answers_total"


async def test_a_played_game_shows_in_metrics_and_health(store, evaluator, tmp_path) -> None:
    settings = BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        dev_guild_id=None,
        metrics_port=0,
        solo_games=SoloGames.THREAD,
    )
    digits = ForcedDigits()
    digits.extend("3489")
    metrics = Metrics()
    bot = create_bot(
        settings, store=store, evaluator=evaluator, metrics=metrics, digits_source=digits
    )
    async with (
        serve_observability(
            settings, metrics, readiness_checks(bot, store.games, evaluator)
        ) as server,
        simulated(bot) as env,
    ):
        assert server is not None
        observe(metrics, bot, evaluator)
        guild = env.create_guild("Metrics Club")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        before = await scrape(server)
        assert before.value(ANSWERS, outcome="ok", code="ok") == 0

        await alice.slash(channel, "training")
        first = round_messages(channel.threads[-1])[-1]
        await answer(alice, first, "3+4+8+9+")  # the checker refuses it: not PHP-valid
        await answer(alice, first, "34+89")

        after = await scrape(server)
        assert after.value(ANSWERS, outcome="ok", code="ok") == 1
        refused = [s for s in after.samples if s.name == ANSWERS and s.labels["outcome"] == "error"]
        assert sum(s.value for s in refused) == 1, refused
        assert after.value("formula_darts_answer_seconds_count", outcome="ok") == 1
        assert after.value("formula_darts_active_games", mode="training") == 1
        assert after.value("formula_darts_pool_workers_live") >= 1
        assert after.value("process_resident_memory_bytes") > 0
        status, body = await healthz(server)
        assert (status, body["failing"]) == (200, [])
