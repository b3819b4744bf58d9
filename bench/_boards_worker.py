"""One tree's uncached board on a loaded database; `bench_boards.py` starts it.

Run as a script with only one tree on the path (see `bench_service.isolated`), so the
board's queries are that tree's code on that tree's schema: `open_store` upgrades the
copy of the data it is given to the tree's head (this tree's indexes, or none). With
`--load` it fills the database instead (the baseline's loader: the data is loaded once,
at the baseline's schema). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from bot.storage import open_store

try:  # the query layer, discord-free since the web's split; a baseline keeps it in the cog
    from bot.views import BoardPeriod, board
except ImportError:
    from bot.leaderboards import BoardPeriod, board  # type: ignore[attr-defined,no-redef]

GUILD = 900_000_000_000_000_000


async def load(url: str, games: int, players: int) -> dict[str, Any]:
    from bench._storage_data import Dataset, bulk_load  # the baseline tree's own loader

    store = await open_store(url)
    try:
        began = time.perf_counter()
        await bulk_load(store, Dataset(games, games * 5, 1, players))
        return {"load_s": time.perf_counter() - began}
    finally:
        await store.close()


async def uncached_board(store: Any, period: BoardPeriod) -> None:
    """What the web page asks the store for a board it has not cached (`_board_page`).
    A tree from before the Store's split by subject (767f095) has the boards' reads on
    the Store itself."""
    boards = getattr(store, "boards", store)
    await boards.qualification_sets(GUILD)
    versions = await boards.set_versions(GUILD, "darts")
    await board(store, GUILD, "darts", period, versions[0] if versions else None, 0)


async def measure(url: str, repeats: int) -> dict[str, Any]:
    began = time.perf_counter()
    store = await open_store(url)  # upgrades to this tree's head
    out: dict[str, Any] = {"open_s": time.perf_counter() - began}
    try:
        for period in (BoardPeriod.ALL, BoardPeriod.WEEK):
            await uncached_board(store, period)  # warm: statements compiled, pages cached
            cpu, wall = [], []
            for _ in range(repeats):
                start, began = time.process_time(), time.perf_counter()
                await uncached_board(store, period)
                cpu.append((time.process_time() - start) * 1000)
                wall.append((time.perf_counter() - began) * 1000)
            out[period.value] = cpu
            out[f"{period.value}_wall"] = wall  # PostgreSQL's own CPU is in its server
    finally:
        await store.close()
    out["modules"] = {
        name: [module.__file__] if module.__file__ else list(getattr(module, "__path__", []))
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in ("bot", "rules", "evaluator", "solver")
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--load", action="store_true")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    if args.load:
        result = asyncio.run(load(args.url, args.games, args.players))
        result["modules"] = {"bot": [sys.modules["bot"].__file__ or ""]}
    else:
        result = asyncio.run(measure(args.url, args.repeats))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
