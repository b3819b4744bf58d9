"""How long the Cups' schedule takes to look at every Cup in play (`CupSchedule.run_due`).

`python -m bench.bench_cup [--cups 100] [--samples 10]`: SQLite, `--cups` drawn Cups of 64
players, each of its 32 first-round matches opened and waiting for Ready within its start
window (nothing due: the look reads every Cup, its matches and its bracket message), with
a face that only records. The baseline, measured in the same run, is `open_cups()`
alone: reading those Cups and nothing else. A look runs every `POLL_S` (15 s) while
Cups are in play; target: a look at 100 Cups of 64 under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._report import percentile, write_section
from bot.common import SetsDirectory
from bot.cup import CupSchedule, CupService
from bot.storage import CupPhase, CupRecord, Store, open_store
from rules import load_sets
from rules.cup import draw

T0 = 1_767_225_600.0
PLAYERS = 64


class Recording:
    """A face that posts nothing (the look must not post: nothing is due)."""

    async def bracket(self, cup: CupRecord, message_id: int | None) -> int:
        return 1

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the look posted ({name}) while nothing was due")


async def load(store: Store, cups: int) -> None:
    entrants = [str(1000 + i) for i in range(PLAYERS)]
    for number in range(1, cups + 1):
        cup = CupRecord(
            id=number, guild_id=number, channel_id=5, name=f"Cup {number}", set_name="darts",
            starts_at=T0, zone="UTC", repeat="once", size=PLAYERS, legs=3, seeding="elo",
            locale="en", created_by="9", created_at=T0,
        )  # fmt: skip
        await store.cups.save(replace(cup, phase=CupPhase.DRAWN, bracket=draw(entrants, 3)), T0)
        await store.cups.claim_post(number, "bracket", "bench", T0, 300)
        await store.cups.finish_post(number, "bracket", "bench", 1, T0)
        for slot in range(PLAYERS // 2):
            await store.cup_matches.open(number, 1, slot, T0)
            await store.cup_matches.set_thread(number, 1, slot, 10_000 + slot)  # its thread


async def measure(store: Store, samples: int) -> dict[str, list[float]]:
    service = CupService(
        store,
        SetsDirectory(store, load_sets()),
        Recording(),
        lambda: T0 + 60,
    )
    schedule = CupSchedule(service)
    times: dict[str, list[float]] = {"open_cups (baseline)": [], "run_due (a look)": []}
    for _ in range(samples):
        began = time.perf_counter()
        await store.cups.open_cups()
        times["open_cups (baseline)"].append(time.perf_counter() - began)
        began = time.perf_counter()
        await schedule.run_due()
        times["run_due (a look)"].append(time.perf_counter() - began)
    return times


def report(cups: int, samples: int, times: dict[str, list[float]]) -> str:
    base = percentile(times["open_cups (baseline)"], 50)
    look = percentile(times["run_due (a look)"], 50)
    lines = [
        "## Cups in play (`bench/bench_cup.py`)",
        "",
        f"SQLite, {cups} drawn Cups of {PLAYERS} players, each with its 32 first-round matches"
        f" open and waiting for Ready (nothing due); {samples} samples. Times in ms.",
        "",
        "| measured | p50 | p99 | max |",
        "|---|---|---|---|",
    ]
    for name, samples_ in times.items():
        lines.append(
            f"| {name} | {percentile(samples_, 50) * 1000:.1f} | "
            f"{percentile(samples_, 99) * 1000:.1f} | {max(samples_) * 1000:.1f} |"
        )
    met = "met" if look < 1.0 else "NOT met"
    lines += [
        "",
        f"A look costs **{look / base:.0f}×** the baseline read; p50 {look * 1000:.0f} ms"
        f" (target under 1 s for 100 Cups: {met}).",
    ]
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="fd-bench-cup-") as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/cup.sqlite3")
        try:
            await load(store, args.cups)
            times = await measure(store, args.samples)
        finally:
            await store.close()
    text = report(args.cups, args.samples, times)
    print(text)
    if not args.no_write:
        write_section("cup", text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--cups", type=int, default=100)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
