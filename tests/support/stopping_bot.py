"""A real process for the shutdown test (tests/bot/cli/test_cli_stop.py), run by
`run_bot` as `formula-darts run` runs `run_discord`: the game service over a SQLite
store and the local PHP pool, closed by `async with` as the bot closes them. It starts
a Training and answers round 1 through an interaction (`Carried`), so round 2 is up
in this process only: its note rides the next save, or the clean shutdown's
(`GameService.close`). It prints "ready" and waits to be signalled. Given a port, it
serves the web pages there as `formula-darts run` does for WEB_PORT (`serve_pages`: its
supervised child), and first prints "pages PID" once the child answers on the port.
`python -m tests.support.stopping_bot DATABASE_FILE [WEB_PORT]`."""

from __future__ import annotations

import asyncio
import sys
from contextlib import suppress
from typing import Any

import rules
from bot.cli._run import run_bot
from bot.pages_child import PagesChild
from bot.play import GameService, NoEvents, Posted
from bot.process import serve_pages
from bot.settings import BotSettings
from bot.storage import open_store
from evaluator import EvaluatorSettings, open_evaluator


class Carried:
    """An answer's interaction as the service sees one (`Via`); NoEvents never uses it."""

    source: int | None = None
    channel_id: int | None = 1

    def can_edit(self, message_id: int | None) -> bool:
        return False

    def can_post(self, channel_id: int) -> bool:
        return True

    def outlives(self, round_s: float) -> bool:
        return True

    async def edit(self, message_id: int, **fields: Any) -> None:
        return None

    async def post(self, **fields: Any) -> Posted:
        return Posted(1, 0.0)


async def _answering(child: PagesChild, port: int) -> None:
    """Until the pages' child accepts connections on `port`; then its pid is printed."""
    while True:
        with suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            if child.process is not None:
                print("pages", child.process.pid, flush=True)
                return
        await asyncio.sleep(0.05)


async def main(database: str, port: int | None) -> None:
    url = f"sqlite+aiosqlite:///{database}"
    async with (
        await open_store(url) as store,
        await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=1)) as evaluator,
        serve_pages(
            BotSettings(discord_token=None, database_url=url, web_port=port), store
        ) as pages,
    ):
        if isinstance(pages, PagesChild) and port is not None:
            await _answering(pages, port)
        service = GameService(store, evaluator, rules.load_sets(), NoEvents())

        async def thread(_set: rules.GameSet) -> int:
            return 1

        try:
            record = await service.start_single(rules.Mode.TRAINING, 1, 1, None, "en", thread)
            digits = record.state.rounds[0].digits
            await service.submit(record.state.id, 1, digits, 1, via=Carried())
            print("ready", flush=True)
            await asyncio.Event().wait()
        finally:
            await service.close()


if __name__ == "__main__":
    web_port = int(sys.argv[2]) if len(sys.argv) > 2 else None
    sys.exit(run_bot(lambda: main(sys.argv[1], web_port)))
