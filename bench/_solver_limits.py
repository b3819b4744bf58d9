"""The solver's limits (`bench_solver --limits`): huge Scores, deadlines, memory.

A Score has no upper bound, so a caller may ask for Score 1e308 on new Digits back to
back: this measures what that costs in process, whether reveals on prepared Digits keep
their latency meanwhile (the huge ones go to a second process), the peak of that
process, and that a call past its deadline is stopped and the next one answered.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from bench._report import latency_cells, ms, write_section
from bench._solver_inputs import round_score
from rules.sets import CLASSIC
from solver import Solution, SolverProcess
from solver.solve import Solver

HUGE = 1e308


async def _honest(process: SolverProcess, digits: str, rng: random.Random, n: int) -> list[float]:
    """Latencies of `n` reveals (random ordinary Scores) on prepared Digits."""
    out = []
    for _ in range(n):
        started = time.perf_counter()
        found = await process.best(digits, round_score(rng), CLASSIC)
        out.append(time.perf_counter() - started)
        assert isinstance(found, Solution), found
    return out


async def limits(rng: random.Random, hostile_digits: list[str], n: int) -> dict[str, object]:
    """Through `SolverProcess` with its defaults: reveals on a prepared Digits when quiet
    (the baseline) and while a caller sends Score 1e308 on new Digits back to back; a
    call past its deadline; the peak of the process that served the huge Scores."""
    out: dict[str, object] = {}
    async with SolverProcess(timeout_s=60) as process:
        assert await process.prepare("3489", CLASSIC) is None
        out["quiet"] = await _honest(process, "3489", rng, n)
        hostile_ms: list[float] = []
        stop = asyncio.Event()

        async def attack() -> None:
            for d in hostile_digits:
                if stop.is_set():
                    return
                started = time.perf_counter()
                found = await process.best(d, HUGE, CLASSIC)
                hostile_ms.append(time.perf_counter() - started)
                assert isinstance(found, Solution), found

        attacker = asyncio.ensure_future(attack())
        await asyncio.sleep(0.5)  # the second process is up and busy
        out["attacked"] = await _honest(process, "3489", rng, n)
        stop.set()
        await attacker
        out["hostile"] = hostile_ms
        wide = await process.status(wide=True)
        assert isinstance(wide, tuple)
        out["wide_peak"] = wide[2]
        started = time.perf_counter()
        late = await process.prepare("9779", CLASSIC, timeout_s=0.1)
        out["stopped_after"] = time.perf_counter() - started
        out["stopped"] = late.reason.value if late is not None else "done"
        started = time.perf_counter()
        assert isinstance(await process.best("3489", 300, CLASSIC), Solution)
        out["next_call"] = time.perf_counter() - started
    return out


def limits_section(args: argparse.Namespace) -> None:
    rng = random.Random(2027)
    hostile = [str(rng.randint(1000, 9999)) for _ in range(args.hostile)]
    solver = Solver(cache_size=1)
    solver.solve("1234", 501, CLASSIC)
    in_process: dict[str, list[float]] = {"501": [], "1e308": []}
    for d in hostile[:12]:
        for name, score in (("501", 501), ("1e308", HUGE)):
            solver.clear()
            started = time.perf_counter()
            solver.solve(d, score, CLASSIC)
            in_process[name].append(time.perf_counter() - started)
    m = asyncio.run(limits(rng, hostile, args.reveals))
    quiet, attacked = m["quiet"], m["attacked"]
    hostile_ms = m["hostile"]
    assert isinstance(quiet, list) and isinstance(attacked, list) and isinstance(hostile_ms, list)

    def row(name: str, samples: list[float]) -> str:
        return f"| {name} | {latency_cells(samples)} |"

    wide_peak = m["wide_peak"]
    assert isinstance(wide_peak, int)
    lines = [
        "## Solver limits (`bench/bench_solver.py --limits`)",
        "",
        "A Score has no upper bound (`pow(3,489)` leaves about 2e233). Cold solves, in",
        "process, of 12 new Digits at Score 501 and at 1e308 (before the slack fix a 1e308",
        "solve of 3489 took 9-30 s and 793 MiB of numpy arrays, 22 MiB at 501). Then",
        "through `SolverProcess` (defaults: 256 MiB, cache of 8): reveals on prepared Digits",
        "(random Scores 1-501) when quiet, the baseline of the same run, and while another",
        f"caller sends Score 1e308 on new Digits back to back ({len(hostile_ms)} calls,",
        "served by the second process).",
        "",
        "| | p50 ms | p90 ms | p99 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        row("cold solve at 501, in process", in_process["501"]),
        row("cold solve at 1e308, in process", in_process["1e308"]),
        row(f"reveal, quiet ({len(quiet)})", quiet),
        row(f"reveal while 1e308 calls run ({len(attacked)})", attacked),
        row("the 1e308 calls (second process)", hostile_ms),
        "",
        f"- peak resident of the process serving 1e308: {wide_peak / 2**20:.0f} MiB"
        " (budget 256 MiB, enforced: RLIMIT_DATA)",
        f"- a `prepare` of 9779 with a 100 ms deadline answered `{m['stopped']}` after"
        f" {ms(float(m['stopped_after']))} ms (its process killed); the next call, in a"  # type: ignore[arg-type]
        f" new process, {ms(float(m['next_call']))} ms",  # type: ignore[arg-type]
    ]
    body = "\n".join(lines) + "\n"
    write_section("solver-limits", body)
    print(body)
