"""A real process for the shutdown test (tests/bot/cli/test_cli_stop.py), run by
`run_bot` as `formula-darts run` runs `run_discord`: the game service over a SQLite
store and the local PHP pool, closed by `async with` as the bot closes them. It starts
a Training and answers round 1 through an interaction (`Carried`), so round 2 is up
in this process only: its note rides the next save, or the clean shutdown's
(`GameService.close`). It prints "ready" and waits to be signalled.
`python -m tests.support.stopping_bot DATABASE_FILE`."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import rules
from bot.cli._run import run_bot
from bot.play import GameService, NoEvents, Posted
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


async def main(database: str) -> None:
    async with (
        await open_store(f"sqlite+aiosqlite:///{database}") as store,
        await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=1)) as evaluator,
    ):
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
    sys.exit(run_bot(lambda: main(sys.argv[1])))
