"""The midnight wave (issue 20): 10,000 servers in one timezone, 2,000 of them played.

The real `DailyPosts` (its look ahead and its `run_due`) on a real SQLite store holding
the servers and their day's games (each played server's Qualification on the Digits
its seed gives, as `/qualification` starts it), a channel that renders each post
(`daily_embed`, `daily_view`) and sends it as one bot-token call through the real
`RestBudget` in `Lane.DAILY` (`with_retry`), the games' own calls arriving beside it
in `Lane.GAMES`; every call is counted in the second it is made. Real time, real
asyncio: the budget's rate is real.

Reveals are the real solver process (`SolverProcess.best`, top 3, a random Digits and
Score, as a round's reveal asks; without the PHP confirmation): one every
1/`--reveals` s in a quiet time before midnight and through the wave, their latency
from the ask to the answer.

The look ahead runs for real over the store, but its solver is a stand-in that answers
at once (2,000 servers' ~7,000 distinct Digits would take the real one ~25 minutes of
a shared core); its cost is reported from the real solver's cold `closest`, measured
here on `--sample` random Digits. During the wave the posts' solver is the real one:
whatever was not solved ahead would be solved there (the run counts it).

`--baseline` also runs, for a minute, the wave as it was before: no look ahead, one
server after another, each post preparing its Digits and querying them in the real
solver process, to show what that does to the reveals.

    python -m bench.bench_midnight                     # writes docs/BENCHMARKS.md
    python -m bench.bench_midnight --servers 1000 --played 200 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime

import rules
from bench._midnight_parts import (
    CALLS_PER_GAME_S,
    Channel,
    Counts,
    Instant,
    Real,
    Reveals,
    games_traffic,
)
from bench._report import percentile, write_section
from bot.common import SetsDirectory
from bot.daily import DailyPosts
from bot.daily._ahead import AHEAD_S, IDLE_FACTOR, IDLE_MIN_S
from bot.daily._service import CONCURRENCY
from bot.games import RestBudget
from bot.storage import GameMeta, GameRecord, Store, _games, open_store
from solver.process import SolverProcess

DAY = "2026-03-01"
MIDNIGHT = datetime(2026, 3, 2, tzinfo=UTC).timestamp()
SINCE = MIDNIGHT - 3 * 86400
GUILD0 = 900_000_000_000_000_000
DARTS = rules.load_sets()["darts"]
CHUNK = 250


def _game(guild: int, player: int, seed: str, rng: random.Random) -> GameRecord:
    state = rules.new_game(
        f"{guild - GUILD0:08d}{player:024d}", rules.Mode.QUALIFICATION, DARTS, [str(player)]
    )
    for number in range(1, DARTS.max_rounds + 1):
        digits = rules.seeded_digits(seed, number)
        state = rules.apply(state, rules.StartRound(digits, 1000.0 * number))
        result = rng.choice([100, 99, 51, 50, 1, rng.randint(1, 300)])
        formula = f"{rng.randint(1, 99)}+{rng.randint(1, 99)}"
        state = rules.apply(state, rules.Submit(str(player), formula, result, 1000.0 * number + 20))
        if state.outcome is not None:
            break
    if state.outcome is None:
        state = rules.apply(state, rules.Resign(str(player)))
    return GameRecord(
        state=state,
        guild_id=guild,
        channel_id=1,
        period=DAY,
        seed=seed,
        meta=GameMeta(),
        created_at=MIDNIGHT - 43_200,
    )


async def load(store: Store, servers: int, played: int, players: int) -> float:
    began = time.perf_counter()
    rng = random.Random(20)
    secret = await store.install.secret("qualification")
    for n in range(servers):
        await store.servers.update(GUILD0 + n, SINCE, channel_id=10 * n + 1)
    records = []
    for n in range(played):
        guild = GUILD0 + n
        seed = rules.qualification_seed(guild, "darts", DAY, secret=secret, version=DARTS.version)
        records += [_game(guild, 800 + p, seed, rng) for p in range(players)]
    for start in range(0, len(records), CHUNK):
        async with store.engine.begin() as conn:
            for record in records[start : start + CHUNK]:
                await _games.save(conn, record, None)
    return time.perf_counter() - began


async def cold_closest_ms(solver: SolverProcess, sample: int) -> list[float]:
    rng = random.Random(7)
    times = []
    for _ in range(sample):
        began = time.perf_counter()
        await solver.closest(str(rng.randint(1000, 9999)), DARTS, timeout_s=60)
        times.append((time.perf_counter() - began) * 1000)
    return times


@dataclass
class Wave:
    seconds: float
    made: int
    last_post_s: float
    max_per_s: int
    per_s_p99: float
    daily_calls: int
    games_calls: int
    fallback_calls: int
    reveals: list[float]


async def wave(
    store: Store, solver: SolverProcess, reveals: Reveals, *, ahead: bool, games_rate: float,
    limit_s: float | None,
) -> tuple[Wave, dict[str, float]]:  # fmt: skip
    """The posts of midnight: solved ahead (stand-in) first when `ahead`, then
    `run_due` in real time; `limit_s` cuts it short (the baseline)."""
    loop = asyncio.get_running_loop()
    sets = SetsDirectory(store, {"darts": DARTS})
    budget = RestBudget(loop.time)
    counts = Counts()
    channel = Channel(budget, counts)
    instant, real = Instant(), Real(solver)
    clock = [MIDNIGHT - 3600.0]
    daily = DailyPosts(
        store, sets, channel, clock=lambda: clock[0] + loop.time(), closest=instant,
        concurrency=CONCURRENCY if ahead else 1,
    )  # fmt: skip
    assert daily.ahead is not None
    info: dict[str, float] = {}
    offset = MIDNIGHT - 3600.0 - loop.time()
    clock[0] = offset
    if ahead:

        async def no_pause(seconds: float) -> None:
            del seconds  # the stand-in took no time: modeled in the report instead

        daily.ahead.sleep = no_pause
        began = time.perf_counter()
        servers = await store.servers.with_channel()
        info["ahead_solved"] = await daily.ahead.look(servers)
        info["ahead_wall_s"] = time.perf_counter() - began
    daily.ahead.solver = real  # from here on, the posts' solver is the real one
    games = asyncio.create_task(games_traffic(budget, counts, games_rate))
    await asyncio.sleep(2.0)  # the games' calls are flowing when midnight comes
    start = loop.time()
    counts.origin = start
    clock[0] = MIDNIGHT + 1.0 - start  # 00:00:01, when the loop wakes
    run = asyncio.create_task(daily.run_due())
    try:
        made = (await asyncio.wait_for(run, limit_s)).made
    except TimeoutError:
        made = len(channel.sent_at)
    end = loop.time()
    games.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await games  # its calls still queued are cancelled with it
    await asyncio.sleep(5.0)  # the reveals asked before the end have their answers
    seconds = [counts.per_second[s] for s in range(int(end - start) + 1)]
    result = Wave(
        seconds=end - start,
        made=made,
        last_post_s=max(channel.sent_at, default=start) - start + 1.0,
        max_per_s=max(seconds),
        per_s_p99=percentile([float(s) for s in seconds], 99),
        daily_calls=counts.daily,
        games_calls=counts.games,
        fallback_calls=real.calls,
        reveals=reveals.between(start, end),
    )
    return result, info


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=10_000)
    parser.add_argument("--played", type=int, default=2_000)
    parser.add_argument("--players", type=int, default=2, help="games per played server")
    parser.add_argument("--reveals", type=float, default=0.5, help="reveals asked a second")
    parser.add_argument(
        "--running", type=int, default=1_000,
        help=f"games running through the wave, each {CALLS_PER_GAME_S:g} bot-token calls/s",
    )  # fmt: skip
    parser.add_argument(
        "--games-rate", type=float, default=None,
        help="the games' bot-token calls a second (default: --running x their rate)",
    )  # fmt: skip
    parser.add_argument(
        "--quiet", type=float, default=300.0,
        help="the quiet time, s: as long as the wave, so both p99s come from as many reveals",
    )  # fmt: skip
    parser.add_argument("--sample", type=int, default=30, help="cold closest timed")
    parser.add_argument("--baseline", type=float, default=60.0, help="s of the old wave; 0: none")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    if args.games_rate is None:
        args.games_rate = args.running * CALLS_PER_GAME_S
    with tempfile.TemporaryDirectory() as tmp:
        lines = await run(args, f"sqlite+aiosqlite:///{tmp}/midnight.db", f"{tmp}/old.db")
    print("\n".join(lines))
    if not args.no_write:
        write_section("midnight", "\n".join(lines))
    return 0


async def run(args: argparse.Namespace, url: str, old: str) -> list[str]:
    store = await open_store(url)
    loaded = await load(store, args.servers, args.played, args.players)
    print(f"loaded {args.servers} servers, {args.played * args.players} games: {loaded:.0f} s",
          file=sys.stderr)  # fmt: skip
    async with SolverProcess() as solver:
        cold = await cold_closest_ms(solver, args.sample)
        reveals = Reveals(solver, args.reveals, DARTS)
        asking = asyncio.create_task(reveals.run())
        loop = asyncio.get_running_loop()
        quiet_start = loop.time()
        await asyncio.sleep(args.quiet)
        quiet = reveals.between(quiet_start, loop.time())
        now, info = await wave(
            store, solver, reveals, ahead=True, games_rate=args.games_rate, limit_s=None
        )
        print(f"wave: {now}", file=sys.stderr)
        before = None
        if args.baseline:
            async with store.engine.begin() as conn:
                from bot.storage._posts import posts_t

                await conn.execute(posts_t.delete())
            before, _ = await wave(
                store, solver, reveals, ahead=False, games_rate=args.games_rate,
                limit_s=args.baseline,
            )  # fmt: skip
            print(f"baseline: {before}", file=sys.stderr)
        asking.cancel()
        await reveals.settle()
    await store.close()
    return report(args, loaded, cold, quiet, now, info, before, reveals.failed)


def _ms(samples: list[float]) -> str:
    if not samples:
        return "—"
    return f"{percentile(samples, 50):.0f} / {percentile(samples, 99):.0f} / {max(samples):.0f}"


def report(
    args: argparse.Namespace, loaded: float, cold: list[float], quiet: list[float],
    now: Wave, info: dict[str, float], before: Wave | None, reveals_failed: int,
) -> list[str]:  # fmt: skip
    solved = int(info.get("ahead_solved", 0))
    cold_p50 = percentile(cold, 50)
    modeled_min = solved * cold_p50 / 1000 * (1 + IDLE_FACTOR) / 60
    modeled_min = max(modeled_min, solved * (cold_p50 / 1000 + IDLE_MIN_S) / 60)
    q99 = percentile(quiet, 99)
    w99 = percentile(now.reveals, 99) if now.reveals else float("nan")
    lines = [
        "## The midnight wave (`bench/bench_midnight.py`)",
        "",
        f"{args.servers:,} servers in one timezone with a daily-post channel, {args.played:,}"
        f" of them played ({args.players} Qualification games each, darts, on the Digits"
        " their seeds give), on SQLite; the real `DailyPosts` (look ahead, then `run_due`,"
        f" {CONCURRENCY} servers at a time); every post rendered and sent as one bot-token"
        " call through the real `RestBudget` (40 calls/s) in its daily lane, beside the"
        f" games' {args.games_rate:g} calls/s in theirs ({args.games_rate / CALLS_PER_GAME_S:,.0f}"
        f" running games at {CALLS_PER_GAME_S:g} calls/s each, `bench_rest`'s mix with"
        " private solo games); real time. Reveals: the real solver"
        f" process (`SolverProcess.best`, top 3, a random Digits and Score, without PHP's"
        f" confirmation), {args.reveals:g} a second, quiet for {args.quiet:g} s before"
        " midnight and through the wave. The look ahead's solver is a stand-in that"
        " answers at once (the real one would take the time modeled below); the posts'"
        " solver in the wave is the real one.",
        "",
        "| | measured |",
        "|---|---|",
        f"| Digits solved ahead (distinct, for {args.played:,} played servers) | {solved:,} |",
        "| the look's own work (store reads, stand-in solver, no pauses)"
        f" | {info.get('ahead_wall_s', 0):.1f} s |",
        f"| real cold `closest`, {len(cold)} random Digits, p50 / p99 / max ms | {_ms(cold)} |",
        f"| the look with the real solver, modeled (p50 x {solved:,}, idle as long after each)"
        f" | {modeled_min:.0f} min of the {AHEAD_S / 3600:.0f} h before midnight |",
        f"| posts made | {now.made:,} |",
        f"| the last post, after midnight | {now.last_post_s:.0f} s (target: 300 s) |",
        f"| the last post's floor: posts / (40 - the games' {args.games_rate:g} calls/s)"
        f" | {now.made / max(1e-9, 40 - args.games_rate):.0f} s |",
        f"| bot-token calls: daily / games | {now.daily_calls:,} / {now.games_calls:,} |",
        "| bot-token calls a second through the wave: all / the daily lane's"
        f" | {(now.daily_calls + now.games_calls) / now.seconds:.1f}"
        f" / {now.daily_calls / now.seconds:.1f} |",
        f"| calls in any one second: max (p99) | {now.max_per_s} ({now.per_s_p99:.0f})"
        " (target: 40) |",
        f"| solver calls by the posts during the wave | {now.fallback_calls} |",
        f"| reveal latency, quiet, before midnight: p50 / p99 / max ms ({len(quiet)})"
        f" | {_ms(quiet)} |",
        f"| reveal latency, during the wave: p50 / p99 / max ms ({len(now.reveals)})"
        f" | {_ms(now.reveals)} |",
        f"| reveal p99, wave / quiet | {w99 / q99:.2f}x (target: issue 34's 1x, no worse"
        " than quiet; issue 20's 2x) |",
        f"| reveals the solver refused or failed (busy, timeout) | {reveals_failed} |",
    ]
    if before is not None:
        lines += [
            "",
            f"**Before (the old way, cut after {args.baseline:g} s):** no look ahead, one"
            " server after another, each post preparing each of its Digits and querying it"
            " in the solver process (the same budget). Posts made in that time:"
            f" {before.made:,}; solver calls {before.fallback_calls:,}; reveal latency"
            f" p50 / p99 / max ms ({len(before.reveals)}): {_ms(before.reveals)}.",
        ]
    lines += ["", f"Loading the store took {loaded:.0f} s."]
    return lines


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
