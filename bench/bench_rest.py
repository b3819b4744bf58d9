"""Bot-token REST at scale: how many calls a second each mode's rounds make, how many
concurrent games one token carries, and what the budget's admission does with 10,000.

A model, not Discord: players start games at the rate that would keep `--games`
running at once (a 7-round darts game, answers after 10-80 s, a tenth of the rounds
timed out at 120 s), each game spends its bot-token calls through the real
`RestBudget` (its lanes, its FIFO, `admit_start`) on a virtual clock, a call itself
takes no time. The calls per game are counted twice: as the code made them before
issue 20 (a round's post and its result edit, a duel's answer edit) and as the code
makes them now, counted by route on simcord (`tests/bot/games/test_interaction_rounds.py`:
an answered round and the summary after it ride the answer's interaction, a timed-out
round is 2 calls, the start is the thread and round 1; an archive behind a busy
optional lane is left to Discord's auto-archive). tests/bot/test_rest_http.py proves
the budget against a server that speaks Discord's protocol; this scales the arithmetic.

    python -m bench.bench_rest                  # 10,000 games, 20 virtual minutes, writes
    python -m bench.bench_rest --minutes 5 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import itertools
import math
import random
import sys
import time
from dataclasses import dataclass

from bench._report import percentile, write_section
from bench._rest_calls import (
    ANSWER_KNEE_PER_S,
    ANSWER_S,
    ARCHIVE_WAIT_S,
    BEFORE,
    FOLLOWUPS_PER_ANSWER,
    MIX,
    NOW,
    PLAYERS,
    PRIVATE,
    ROUNDS,
    TIME_LIMIT_S,
    TIMEOUT_SHARE,
    Calls,
)
from bot.games._discord import DEADLINE_S, Lane, RestBudget, RestBusy


class VirtualTime:
    """A clock only sleeps move; sleepers wake in order of their time."""

    def __init__(self) -> None:
        self.now = 0.0
        self._heap: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (self.now + max(0.0, seconds), next(self._seq), wake))
        await wake

    async def run_until(self, end: float) -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        while self._heap and self._heap[0][0] <= end:
            due = self._heap[0][0]
            self.now = max(self.now, due)
            while self._heap and self._heap[0][0] <= self.now:
                _, _, wake = heapq.heappop(self._heap)
                if not wake.done():
                    wake.set_result(None)
            for _ in range(3):
                await asyncio.sleep(0)
        self.now = end


@dataclass
class Run:
    started: int = 0
    refused: int = 0
    finished: int = 0
    calls: int = 0
    refused_calls: int = 0
    refused_optional: int = 0
    live: int = 0
    live_samples: list[int] | None = None
    waits: list[float] | None = None


def per_second(calls: dict[str, Calls]) -> dict[str, tuple[float, float]]:
    """(calls per game, calls per second per running game) for each mode."""
    out = {}
    for mode, c in calls.items():
        per_game, seconds = expected(c)
        out[mode] = (per_game, per_game / seconds)
    return out


def expected(c: Calls) -> tuple[float, float]:
    """(calls, seconds) of one game: the exact expectation over which rounds time out
    (each with TIMEOUT_SHARE); a single-player game ends at its first timeout."""
    p, answer_s = TIMEOUT_SHARE, sum(ANSWER_S) / 2
    per_game = float(c.start + c.archive)
    seconds = 0.0
    alive_after = {False: 1.0, True: 0.0}  # P(playing this round | last one timed out)
    for number in range(1, ROUNDS + 1):
        going: dict[bool, float] = {False: 0.0, True: 0.0}
        for after, weight in alive_after.items():
            if not weight:
                continue
            per_game += weight * (1 - p) * c.round_cost(number, False, after)
            per_game += weight * p * c.round_cost(number, True, after)
            seconds += weight * ((1 - p) * answer_s + p * TIME_LIMIT_S)
            going[False] += weight * (1 - p)
            going[True] += 0.0 if c.ends_on_timeout else weight * p
        alive_after = going
    return per_game, seconds


async def simulate(calls: dict[str, Calls], games: int, minutes: float, seed: int) -> Run:
    clock = VirtualTime()
    budget = RestBudget(clock, sleep=clock.sleep)
    rng = random.Random(seed)
    run = Run(live_samples=[], waits=[])
    game_s = sum(MIX[mode] * expected(c)[1] for mode, c in calls.items())
    arrivals_per_s = games / game_s
    modes, weights = list(MIX), list(MIX.values())
    tasks: set[asyncio.Task[None]] = set()

    async def call(lane: Lane = Lane.GAMES) -> None:
        began = clock()
        try:
            await budget.take(lane, within=DEADLINE_S if lane is Lane.GAMES else ARCHIVE_WAIT_S)
        except RestBusy:
            if lane is Lane.GAMES:
                run.refused_calls += 1
            else:
                run.refused_optional += 1
            return
        run.calls += 1
        if lane is Lane.GAMES:
            assert run.waits is not None
            run.waits.append(clock() - began)

    async def game(c: Calls) -> None:
        run.live += 1
        for _ in range(c.start):
            await call()
        timed_out = False
        for number in range(1, ROUNDS + 1):
            after = timed_out
            timed_out = rng.random() < TIMEOUT_SHARE
            await clock.sleep(TIME_LIMIT_S if timed_out else rng.uniform(*ANSWER_S))
            for _ in range(c.round_cost(number, timed_out, after)):
                await call()
            if timed_out and c.ends_on_timeout:
                break
        run.live -= 1
        run.finished += 1
        for _ in range(c.archive):
            await call(Lane.OPTIONAL)  # the thread archived (15 minutes later in the bot)

    async def arrivals() -> None:
        while True:
            await clock.sleep(rng.expovariate(arrivals_per_s))
            if not budget.admit_start():
                run.refused += 1
                continue
            run.started += 1
            mode = rng.choices(modes, weights)[0]
            task = asyncio.create_task(game(calls[mode]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def sample() -> None:
        while True:
            await clock.sleep(10.0)
            assert run.live_samples is not None
            run.live_samples.append(run.live)

    background = [asyncio.create_task(arrivals()), asyncio.create_task(sample())]
    await clock.run_until(minutes * 60)
    for task in [*background, *tasks]:
        task.cancel()
    await asyncio.gather(*background, *tasks, return_exceptions=True)
    return run


def answers_per_game(mode: str) -> tuple[float, float]:
    """(answers, seconds) of one game of `mode`: each round answered with probability
    1 - TIMEOUT_SHARE by each person; a single-player game ends at its first timeout."""
    c = NOW[mode]
    _, seconds = expected(c)
    p, alive, answers = TIMEOUT_SHARE, 1.0, 0.0
    for _ in range(ROUNDS):
        answers += alive * (1 - p) * PLAYERS[mode]
        alive *= (1 - p) if c.ends_on_timeout else 1.0
    return answers, seconds


def followup_lines(games: int) -> list[str]:
    """What `games` running at once ask of a process and of Discord's interaction
    endpoints: answers per second, the followups they make, the processes they need."""
    answers = sum(MIX[m] * answers_per_game(m)[0] for m in MIX)
    seconds = sum(MIX[m] * answers_per_game(m)[1] for m in MIX)
    per_s = games * answers / seconds
    processes = math.ceil(per_s / ANSWER_KNEE_PER_S)
    rows = [
        f"**Followups and processes** for {games:,} games running at once (the mix above; "
        f"{TIMEOUT_SHARE:.0%} of rounds timed out):",
        "",
        "| what | per game | per second at this many games |",
        "|---|---|---|",
        f"| answers (each an interaction) | {answers:.2f} | **{per_s:,.0f}** |",
    ]
    for kind, n in FOLLOWUPS_PER_ANSWER.items():
        rows.append(f"| interaction {kind}s (outside the global limit) | {answers * n:.2f} "
                    f"| {per_s * n:,.0f} |")  # fmt: skip
    rows += [
        "",
        f"One process handles {ANSWER_KNEE_PER_S:.0f} answers/s with p99 under 50 ms "
        f"(`bench_service`): {games:,} games need **{processes} processes** "
        f"({per_s / processes:,.0f} answers/s each), one bot token, the bot-token calls "
        "above shared between them. Followups spend no bot-token call: what limits them "
        "is each interaction's own limit (an answered round makes 2 webhook calls on its "
        "token, a duel's second answer 1 more) and the channel's webhook bucket, which "
        "a busy channel of private games shares: a 429 there is capped (`Followups`, "
        "10 s) and the round waits unseen with its clock not started.",
    ]
    return rows


def _table(name: str, calls: dict[str, Calls]) -> list[str]:
    rate = RestBudget(lambda: 0.0).rate
    rows = [
        f"**{name}** — calls a game makes (7 rounds, {TIMEOUT_SHARE:.0%} of rounds timed out):",
        "",
        "| mode | start | answered round (last) | timed-out round: after an answer / round 1 "
        "/ after a timeout (last) | archive | per game | calls/s per running game "
        "| games one token carries |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for mode, (per_game, per_s) in per_second(calls).items():
        c = calls[mode]
        rows.append(
            f"| {mode} | {c.start} | {c.answered} ({c.last_answered}) "
            f"| {c.timed_out} / {c.timed_out_first} / {c.timed_out_again} ({c.last_timed_out})"
            f"{' ends the game' if c.ends_on_timeout else ''} | {c.archive} "
            f"| {per_game:.1f} | {per_s:.4f} | {rate / per_s:,.0f} |"
        )
    mixed = sum(MIX[m] * per_s for m, (_, per_s) in per_second(calls).items())
    rows.append(
        f"| the mix ({', '.join(f'{m} {w:.0%}' for m, w in MIX.items())}) | | | | | "
        f"| {mixed:.4f} | **{rate / mixed:,.0f}** |"
    )
    return rows


def _run_line(label: str, run: Run, games: int, minutes: float, wall: float) -> str:
    samples = run.live_samples or [0]
    steady = samples[len(samples) // 2 :] or samples
    waits = run.waits or [0.0]
    attempts = run.started + run.refused
    return (
        f"| {label} | {games:,} | {minutes:.0f} | {attempts:,} | {run.refused:,} "
        f"({run.refused / max(1, attempts):.0%}) | {sum(steady) / len(steady):,.0f} "
        f"| {run.calls / (minutes * 60):.1f} | {percentile(waits, 99):.2f} "
        f"| {max(waits):.2f} | {run.refused_calls:,} | {run.refused_optional:,} | {wall:.1f} |"
    )


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--followups-only", action="store_true", help="print the followups' table and stop"
    )
    args = parser.parse_args(argv)
    if args.followups_only:
        print("\n".join(followup_lines(args.games)))
        return 0
    lines = [
        "## Discord REST at scale (`bench/bench_rest.py`)",
        "",
        "A model on a virtual clock through the real `RestBudget` (one process, one token: "
        f"{RestBudget(lambda: 0.0).rate:.0f} calls/s, 80 % of Discord's 50/s global limit). "
        "Calls are counted, not sent; the harness tests (`tests/bot/test_rest_http.py`) "
        "show discord.py and the budget against Discord's protocol.",
        "",
        *_table("Before issue 20", BEFORE),
        "",
        *_table("Now (the code; counted by route on simcord)", NOW),
        "",
        *_table("Now with `SOLO_GAMES=private` (solo games in private messages)", PRIVATE),
        "",
        *followup_lines(args.games),
        "",
        f"Players start games at the rate that would keep {args.games:,} running; each start "
        "asks `admit_start` (refused when the backlog would show the first round after "
        "10 s, or while the running games ask 90 % of the rate or more); a refused start "
        "is not retried in the model. A game's waits make it last longer, so more games "
        "run at once than the table's capacity when its calls queue. An archive is "
        f"optional: behind more than {ARCHIVE_WAIT_S:.0f} s of the optional lane it is "
        "left to Discord's auto-archive (shed), never queued.",
        "",
        "| counts | games wanted | virtual min | starts asked | refused | games running "
        "(2nd half, mean) | calls/s served | games' wait p99 s | max wait s "
        "| games' calls refused (30 s deadline) | archives shed (optional lane) | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    runs = (("before", BEFORE), ("now", NOW), ("now, SOLO_GAMES=private", PRIVATE))
    for label, calls in runs:
        began = time.perf_counter()
        run = await simulate(calls, args.games, args.minutes, args.seed)
        line = _run_line(label, run, args.games, args.minutes, time.perf_counter() - began)
        print(line, flush=True)
        lines.append(line)
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("rest", body)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
