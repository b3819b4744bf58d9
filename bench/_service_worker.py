"""One measured run of the game service, headless; `bench_service.py` starts it.

Run as a script (not `-m`), so `bot`, `rules` and `evaluator` come from PYTHONPATH:
this tree or a baseline checkout of another commit, measured by the same code in
the same run. It imports nothing from `bench` for that reason, and prints one JSON
object: raw samples in milliseconds, which the parent turns into a report.

The service is the real one (GameService, the real local PHP pool, a real store);
only Discord is replaced, by `Places`, which renders what the Announcer would post
and hands back a message id, with no network.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import inspect
import io
import json
import os
import pstats
import random
import sys
import tempfile
import time
import tracemalloc
from dataclasses import replace
from typing import Any

import rules
from bot.games import _render
from bot.play import GameService
from bot.play._types import Posted
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange, Store, open_store
from evaluator import EvaluatorSettings, open_evaluator
from evaluator.result import EvalError, Evaluation

GUILD = 900_000_000_000_000_001
LOCALE = "en"


class Places:
    """Discord's side of `GameEvents`, minus Discord: the embeds are rendered, not sent."""

    def __init__(self) -> None:
        self.posts = 0

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Any = None
    ) -> Posted | None:
        _render.round_embed(record, LOCALE, replayed=replayed)
        self.posts += 1
        return Posted(self.posts, time.time())

    async def answer_received(self, record: GameRecord, player: int, via: Any = None) -> None:
        del record, player

    async def round_resolved(self, record: GameRecord, number: int, via: Any = None) -> None:
        _render.result_embed(record, number, LOCALE)

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Any = None
    ) -> None:
        del ratings
        _render.outcome_text(record.state, LOCALE)

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        del record, message_id

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        del challenge, status


class AnswerVia:
    """An answer's interaction, as every answer of the real bot has (the Answer button's
    modal, or /answer): announcements may ride it. Here it carries nothing (`Places`
    posts nowhere), but the flow knows the answer came through one."""

    source = None
    channel_id = None

    def can_edit(self, message_id: int | None) -> bool:
        del message_id
        return False

    def can_post(self, channel_id: int) -> bool:
        del channel_id
        return False

    def outlives(self, round_s: float) -> bool:
        del round_s
        return False

    async def edit(self, message_id: int, **fields: Any) -> None:
        raise AssertionError("nothing rides this stand-in")

    async def post(self, **fields: Any) -> Posted:
        raise AssertionError("nothing rides this stand-in")


VIA = AnswerVia()


class TimedPhp:
    """The PHP pool, with the time spent waiting for it added up."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.spent = 0.0

    @property
    def timeout_s(self) -> float:
        return float(self.inner.timeout_s)

    async def evaluate(
        self, formula: str, digits: str, functions: Any, *, who: str | None = None
    ) -> Evaluation | EvalError:
        began = time.perf_counter()
        try:
            result: Evaluation | EvalError = await self.inner.evaluate(
                formula, digits, functions, who=who
            )
            return result
        finally:
            self.spent += time.perf_counter() - began


class TimedStore(Store):
    """The Store, with the time and count of game saves added up (the DB cost).

    A tree with the Store's repositories saves through `store.games`; an older one (a
    baseline) through the Store itself: whichever this tree's bot calls is timed."""

    spent = 0.0
    saves = 0
    each: list[float] | None = None
    """While a list: every save's own wall time in s (the open loop's steps)."""

    def __init__(self, engine: Any) -> None:
        super().__init__(engine)
        games = getattr(self, "games", None)
        owner = games if games is not None and hasattr(games, "save_game") else self
        untimed = owner.save_game

        async def timed(record: GameRecord, *, now: float | None = None) -> None:
            began = time.perf_counter()
            try:
                await untimed(record, now=now)
            finally:
                took = time.perf_counter() - began
                self.spent += took
                self.saves += 1
                if self.each is not None:
                    self.each.append(took)

        owner.save_game = timed


class Bench:
    def __init__(self, service: GameService, php: TimedPhp, store: TimedStore) -> None:
        self.service, self.php, self.store = service, php, store
        self.users = 0
        self.games: list[tuple[str, int]] = []  # (game id, player)
        takes_via = "via" in inspect.signature(service.submit).parameters  # older trees: no
        self.via: dict[str, Any] = {"via": VIA} if takes_via else {}

    async def open_game(self) -> tuple[str, int]:
        self.users += 1
        # players of their own per process: two workers on one database (bench_two_processes)
        user = 700_000_000_000_000_000 + (os.getpid() % 100_000) * 1_000_000 + self.users

        async def channel(game_set: rules.GameSet) -> int:
            del game_set
            return 600_000_000_000_000_000 + user

        record = await self.service.start_single(
            rules.Mode.TRAINING, GUILD, user, None, LOCALE, channel
        )
        return record.state.id, user

    async def answer(self, index: int) -> tuple[float, float, float, int, float]:
        """One answer to game `index` (a new game once it ends): total, PHP, DB in s; saves;
        the CPU time of this (the event loop's) thread through `submit`, in s."""
        game_id, user = self.games[index]
        record = self.service.game_in_channel(600_000_000_000_000_000 + user)
        if record is None or record.state.current_round is None:
            self.games[index] = game_id, user = await self.open_game()
            record = self.service.game_in_channel(600_000_000_000_000_000 + user)
            assert record is not None
        rnd = record.state.current_round
        assert rnd is not None
        php, db, saves = self.php.spent, self.store.spent, self.store.saves
        began, cpu = time.perf_counter(), time.thread_time()
        result = await self.service.submit(
            game_id, user, "+".join(rnd.digits), rnd.number, **self.via
        )
        total, cpu = time.perf_counter() - began, time.thread_time() - cpu
        assert result.error is None, result.error
        return total, self.php.spent - php, self.store.spent - db, self.store.saves - saves, cpu


async def sequential(bench: Bench, answers: int, warmup: int) -> dict[str, Any]:
    """One answer at a time, round-robin over the held games: the cost of one answer."""
    own, php, db, saves, cpu = [], [], [], [], []
    for i in range(warmup + answers):
        total, p, d, s, c = await bench.answer(i % len(bench.games))
        if i >= warmup:
            own.append((total - p) * 1000)
            php.append(p * 1000)
            db.append(d * 1000)
            saves.append(s)
            cpu.append(c * 1000)
    return {
        "own": own, "php": php, "db": db, "cpu": cpu, "saves": sum(saves) / max(1, len(saves))
    }  # fmt: skip


async def offered(bench: Bench, rate: float, seconds: float) -> dict[str, Any]:
    """Answers arriving at `rate` per second (open loop) to idle games: their latencies."""
    busy: set[int] = set()
    latencies: list[float] = []
    dropped = 0
    tasks: set[asyncio.Task[None]] = set()

    async def one(index: int) -> None:
        try:
            total, *_ = await bench.answer(index)
            latencies.append(total * 1000)
        finally:
            busy.discard(index)

    saves: list[float] = []
    bench.store.each = saves
    began, cpu = time.perf_counter(), time.thread_time()
    sent = 0
    while (now := time.perf_counter() - began) < seconds:
        while sent < now * rate:
            sent += 1
            idle = [
                i
                for i in random.sample(range(len(bench.games)), min(8, len(bench.games)))
                if i not in busy
            ]
            if not idle:
                dropped += 1
                continue
            busy.add(idle[0])
            task = asyncio.create_task(one(idle[0]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.sleep(0.001)
    await asyncio.gather(*tasks)
    elapsed, cpu = time.perf_counter() - began, time.thread_time() - cpu
    bench.store.each = None
    return {
        "rate": rate, "done": len(latencies) / elapsed, "lat": latencies, "dropped": dropped,
        "loop_cpu": cpu / elapsed, "saves_ms": [s * 1000 for s in saves],
    }  # fmt: skip


async def run(args: argparse.Namespace) -> dict[str, Any]:
    url = args.url or f"sqlite+aiosqlite:///{tempfile.mkdtemp(prefix='fd-svc-')}/games.sqlite3"
    opened = await open_store(url)
    store = TimedStore(opened.engine)
    pool = await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=args.pool))
    php = TimedPhp(pool)
    game_sets = {n: replace(s, time_limit=3600) for n, s in rules.load_sets().items()}
    service = GameService(store, php, game_sets, Places(), clock=time.time)
    bench = Bench(service, php, store)
    out: dict[str, Any] = {}
    try:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        bench.games = [await bench.open_game() for _ in range(args.games)]
        out["kib_per_game"] = (tracemalloc.get_traced_memory()[0] - before) / 1024 / args.games
        tracemalloc.stop()
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        out.update(await sequential(bench, args.answers, args.warmup))
        if profiler:
            profiler.disable()
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(45)
            print(text.getvalue(), file=sys.stderr)
        out["offered"] = []
        for rate in args.rates:
            step = await offered(bench, rate, args.seconds)
            out["offered"].append(step)
            lat = sorted(step["lat"])
            if not lat or lat[round(0.99 * (len(lat) - 1))] > args.limit_ms:
                break
        out["active"] = len(list(service.active))
    finally:
        await service.close()
        await pool.close()
        await store.close()
    out["modules"] = loaded_from()
    return out


def loaded_from() -> dict[str, list[str]]:
    """Where each module of the project's packages came from (its file, or a package's
    paths), for the parent to check that this run used one tree's code only."""
    return {
        name: [module.__file__] if module.__file__ else list(getattr(module, "__path__", []))
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in ("bot", "rules", "evaluator", "solver")
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--pool", type=int, default=2)
    parser.add_argument("--rates", type=float, nargs="*", default=[])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--limit-ms", type=float, default=50.0)
    parser.add_argument("--profile", action="store_true")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
