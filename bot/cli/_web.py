"""`formula-darts web`: the servers' web pages alone, over the bot's database.

The same pages the bot serves on WEB_PORT, for a deployment that runs them apart (a
second process, another machine). Without Discord it knows no member names, so players
show as a short label. It does not migrate: the bot (or `formula-darts db upgrade`) does.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any

# bot.web and bot.storage are imported where used: every command registers this one.

log = logging.getLogger(__name__)


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser = sub.add_parser("web", help="serve the servers' web pages over the database")
    parser.add_argument("--url", help="database URL (default: DATABASE_URL)")
    parser.add_argument("--host", help="address to listen on (default: WEB_HOST, 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default: WEB_PORT, else 8080)")
    parser.set_defaults(func=_run)


async def _serve(url: str, host: str, port: int) -> None:
    from bot.charts import ChartRenderer
    from bot.storage import open_store
    from bot.web import create_app, serve

    charts = ChartRenderer()
    try:
        async with (
            await open_store(url, migrate=False) as store,
            serve(create_app(store, charts=charts), host, port),
        ):
            print(f"formula-darts web: http://{host}:{port}/ (Ctrl-C stops)", flush=True)
            try:  # warmed while the pages are served: no player's page pays it
                await charts.start()
            except Exception as exc:  # a page's chart timed out meanwhile and stopped it
                log.warning("the chart worker did not warm up (%s); it starts on a chart", exc)
            await asyncio.Event().wait()
    finally:
        await charts.close()


def _run(args: argparse.Namespace) -> int:
    from bot.settings import BotSettings
    from bot.storage import normalize_url

    settings = BotSettings()
    url = normalize_url(args.url or settings.database_url)
    port = args.port if args.port is not None else (settings.web_port or 8080)
    asyncio.run(_serve(url, args.host or settings.web_host, port))
    return 0
