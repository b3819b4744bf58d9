"""`formula-darts web`: the servers' web pages alone, over the bot's database.

The same pages the bot serves on WEB_PORT: there `formula-darts run` starts this very
command as its child (`bot.pages_child`), so hostile page traffic cannot take the bot's
event loop or GIL; alone, for a deployment that runs them apart (another container,
another machine). Without Discord it knows no member names beyond those the bot kept in
the store. It does not migrate: the bot (or `formula-darts db upgrade`) does. SIGTERM
and SIGINT stop it cleanly (its chart worker and store closed, no orphan left).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable
from typing import Any

# bot.web, bot.storage and bot.pages_child are imported where used: every command registers
# this one, and `eval` loads no bot module past the entry point.

log = logging.getLogger(__name__)


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser = sub.add_parser("web", help="serve the servers' web pages over the database")
    parser.add_argument("--url", help="database URL (default: DATABASE_URL)")
    parser.add_argument("--host", help="address to listen on (default: WEB_HOST, 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default: WEB_PORT, else 8080)")
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    parser.add_argument(  # the bot's child: its stdin is the bot's pipe
        "--child", action="store_true", help=argparse.SUPPRESS
    )
    parser.set_defaults(func=_run)


async def _parent_lines(forget: Callable[[], None]) -> None:
    """The bot's pipe on stdin, until it closes: the bot stopped or died (even by
    SIGKILL, which leaves it no time to stop this process), so this one ends too."""
    from bot.pages_child import SETTINGS_CHANGED

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if line == SETTINGS_CHANGED:
            forget()
    log.warning("formula-darts web: the bot's pipe closed; stopping")


async def _serve(url: str, host: str, port: int, *, child: bool = False) -> None:
    from bot.charts import ChartRenderer
    from bot.storage import open_store
    from bot.web import create_app, forget_servers, serve

    charts = ChartRenderer()
    try:
        async with await open_store(url, migrate=False) as store:
            app = create_app(store, charts=charts)
            async with serve(app, host, port):
                if not child:  # the bot's child: its log line says where (bot.web.serve)
                    print(f"formula-darts web: http://{host}:{port}/ (Ctrl-C stops)", flush=True)
                try:  # warmed while the pages are served: no player's page pays it
                    await charts.start()
                except Exception as exc:  # a page's chart timed out meanwhile and stopped it
                    log.warning("the chart worker did not warm up (%s); it starts on a chart", exc)
                if child:
                    await _parent_lines(lambda: forget_servers(app))
                else:
                    await asyncio.Event().wait()
    finally:
        await charts.close()


def _run(args: argparse.Namespace) -> int:
    from bot.cli._run import until_stopped
    from bot.observability import configure_logging
    from bot.pages_child import step_aside
    from bot.settings import BotSettings
    from bot.storage import normalize_url

    if args.child:  # the bot's pages: the games come first on a busy machine
        step_aside()
    settings = BotSettings()
    level = logging.getLevelNamesMapping().get(str(args.log_level).upper(), logging.INFO)
    configure_logging(settings, level)
    url = normalize_url(args.url or settings.database_url)
    port = args.port if args.port is not None else (settings.web_port or 8080)
    host = args.host or settings.web_host
    asyncio.run(until_stopped(lambda: _serve(url, host, port, child=args.child)))
    return 0
