"""One bot process (`formula-darts run`): open the resources (store, sandboxes, solver,
chart worker), build the one game engine, run the faces on it (the Discord bot, its
metrics, the web pages' child process, the background fillers) until the bot stops,
close them.

Beside `bot.app`, which is the Discord face itself: this is its `main()` side, kept apart
so the face stays a class and the process's wiring reads in one place.
"""

from __future__ import annotations

import logging
from contextlib import AbstractAsyncContextManager, nullcontext

import rules
from bot.app import FormulaDartsBot, create_bot, discord_clock
from bot.charts import ChartRenderer
from bot.cli.engine import game_service
from bot.observability import Metrics, readiness_checks, serve_observability
from bot.pages_child import GRACE_S, PagesChild, PagesCommand
from bot.play import (
    BestBackfill,
    GameService,
    backfilling,
)
from bot.puzzles import PoolFiller, filling
from bot.settings import BotSettings
from bot.sharding import IdentifyGate
from bot.solving import ConfirmedSolver
from bot.storage import Store, normalize_url, open_store
from evaluator import Evaluator, open_evaluator
from evaluator.sandbox.stats import RestartReason
from solver.process import Lane as SolverLane
from solver.process import SolverProcess


class PhpObserver:
    """The evaluator's per-request PHP time, into the metrics (restarts are read from the
    pool's stats at scrape time)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def php_latency(self, seconds: float) -> None:
        self.metrics.php(seconds)

    def worker_restarted(self, reason: RestartReason) -> None:
        del reason


def active_games_by_mode(service: GameService) -> dict[str, int]:
    counts = dict.fromkeys((mode.value for mode in rules.Mode), 0)
    for record in service.active:
        counts[record.state.mode.value] += 1
    return counts


async def run_discord(settings: BotSettings, token: str) -> None:
    """Open the store, the sandboxes (PHP's, node's for the JavaScript Sets), the solver's
    process and the chart worker, run the bot (with its metrics and /healthz on
    METRICS_PORT) until it stops, close them."""
    metrics = Metrics()
    # the global Sets' languages are warmed now (a broken node fails here); a server's
    # own Set in another language opens its pool on its first formula
    languages = {s.language for s in rules.load_sets(settings.sets_file).values()}
    async with (
        await open_store(settings.database_url) as store,
        await open_evaluator(
            settings.evaluator_settings, observer=PhpObserver(metrics), languages=languages
        ) as evaluator,
        SolverProcess() as solver,
        ChartRenderer() as charts,
    ):
        revealer = ConfirmedSolver(solver, evaluator)
        service = game_service(
            settings, store, evaluator, clock=discord_clock, revealer=revealer
        )  # the one engine; each face is handed it
        await _run_faces(settings, token, metrics, service, revealer, solver, charts)


async def _run_faces(
    settings: BotSettings, token: str, metrics: Metrics, service: GameService,
    revealer: ConfirmedSolver, solver: SolverProcess, charts: ChartRenderer,
) -> None:  # fmt: skip
    """The faces on the one `service`: the Discord bot (which closes the service when it
    stops), its metrics, the web pages (a child process: `serve_pages`), the best answers'
    backfill; until the bot stops. `revealer` is the service's, shared with the rooms."""
    store, evaluator = service.store, revealer.evaluator
    async with (
        create_bot(
            settings,
            store=store,
            evaluator=evaluator,
            service=service,
            metrics=metrics,
            revealer=revealer,
            charts=charts,
            closest=ConfirmedSolver(solver, evaluator),
            identify_gate=IdentifyGate(store.install),
        ) as bot,
        serve_observability(settings, metrics, readiness_checks(bot, store.games, evaluator)),
        serve_pages(settings, store, logging.getLevelName(logging.getLogger().level)),
        backfilling(  # one process finds finished games' best answers: the one that syncs
            BestBackfill(
                store,
                ConfirmedSolver(solver, evaluator, lane=SolverLane.BACKFILL),
                clock=discord_clock,
                kept=bot.rewards.game_finished,  # earned once the best is known, not told
            )
            if settings.shards.syncs_commands
            else None
        ),
        filling(  # the puzzles' pool, prepared ahead in the solver's lowest lane: one process
            PoolFiller(
                store,
                ConfirmedSolver(solver, evaluator, lane=SolverLane.BACKFILL),
                list(rules.load_sets(settings.sets_file).values()),
                clock=discord_clock,
                after_pass=bot.puzzles.sweep,
            )
            if settings.shards.syncs_commands
            else None
        ),
    ):
        observe(metrics, bot, evaluator)
        await bot.start(token)


def serve_pages(
    settings: BotSettings, store: Store, log_level: str = "INFO", *, grace_s: float = GRACE_S
) -> AbstractAsyncContextManager[object]:
    """The servers' web pages on WEB_PORT, in a child process the bot supervises
    (`PagesChild`: `formula-darts web`, its own event loop, GIL and chart worker), told of
    this process's settings changes; nothing when WEB_PORT is not set. `grace_s`: how
    long the child may take to stop before it is killed."""
    if settings.web_port is None:
        return nullcontext()
    command = PagesCommand(
        normalize_url(settings.database_url), settings.web_host, settings.web_port, log_level
    )
    return PagesChild(command, lambda: store.servers.changes, grace_s=grace_s)


def observe(metrics: Metrics, bot: FormulaDartsBot, evaluator: Evaluator) -> None:
    """What a scrape reads live: the shards' latencies, the games, the PHP pool."""
    metrics.bind_shards(lambda: dict(bot.latencies))
    metrics.bind_games(lambda: active_games_by_mode(bot.service))
    metrics.bind_pool(evaluator.stats)
