"""The solver: cold solves, queries on prepared Digits, memory, against evaluating formulas in PHP.

Run: `python -m bench.bench_solver [--digits 60] [--queries 10]`. Writes the
"solver" section of docs/BENCHMARKS.md.

- cold: a new Digits and one Score (tables built, then the search), in-process;
  also end to end through `SolverProcess` (IPC included) for a few;
- after a cold solve: more Scores on what the cold solve built;
- prepare: `Solver.prepare`, after a cold solve and whole on new Digits;
- prepared: more Scores on a prepared Digits (the target's query);
- memory: the solver process's peak resident set (VmHWM) over prepared Digits;
- baseline, in the same run: the obvious approach, every formula of the
  grammar through the warm PHP pool. It cannot be run whole (the grammar has
  ~10^9 formulas per Digits), so the pool's rate is measured on a slice and
  the full count is computed exactly from the grammar;
- disk: what a precomputed table of every Result of all 9,000 Digits would
  take, from the tables of a sample of Digits.

Targets on 2 cores: cold p50 <= 250 ms and p99 <= 1 s, prepared query p99 <= 50 ms,
<= 256 MiB per solver process.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bench._report import latency_cells, ms, percentile, write_section
from bench._solver_estimates import formula_count, pool_rate, result_table, table_bytes
from bench._solver_inputs import round_score
from bench._solver_limits import limits_section
from rules.sets import CLASSIC, load_sets
from solver import Solution, SolverProcess
from solver.cli import _stream
from solver.grammar import Grammar
from solver.solve import Solver
from solver.tables import build_tables

Timings = tuple[list[float], list[float]]  # wall seconds, this process's CPU seconds


@dataclass
class Measured:
    cold: Timings = field(default_factory=lambda: ([], []))
    after_cold: Timings = field(default_factory=lambda: ([], []))
    prepare_rest: Timings = field(default_factory=lambda: ([], []))
    prepare_whole: Timings = field(default_factory=lambda: ([], []))
    prepared: Timings = field(default_factory=lambda: ([], []))


def measure(digits: list[str], queries: int, rng: random.Random) -> Measured:
    """Per Digits: a cold solve, queries on what it left, the rest of `prepare`, queries on
    the prepared Digits (fresh Scores each time); then `prepare` alone on new Digits."""
    out = Measured()
    solver = Solver(cache_size=4)
    solver.solve("1234", 501, CLASSIC)  # imports and first-call costs out of the way
    for d in digits:
        score = rng.choice([501, round_score(rng)])
        _timed(out.cold, lambda: solver.solve(d, score, CLASSIC))  # noqa: B023
        for _ in range(queries):
            later = round_score(rng)
            _timed(out.after_cold, lambda: solver.solve(d, later, CLASSIC))  # noqa: B023
        _timed(out.prepare_rest, lambda: solver.prepare(d, CLASSIC))  # noqa: B023
        for _ in range(queries):
            later = round_score(rng)
            _timed(out.prepared, lambda: solver.solve(d, later, CLASSIC))  # noqa: B023
    fresh = Solver(cache_size=1)
    for _ in range(max(len(digits) // 3, 1)):
        d = str(rng.randint(1000, 9999))
        _timed(out.prepare_whole, lambda: fresh.prepare(d, CLASSIC))  # noqa: B023
    return out


def _timed(into: Timings, call: Callable[[], object]) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    into[0].append(time.perf_counter() - wall)
    into[1].append(time.process_time() - cpu)


async def through_process(digits: list[str]) -> tuple[list[float], int, int, int]:
    """As production runs it (default cache and memory limit): per Digits a cold best
    answer (timed, IPC included), then `prepare` and a query; the resident size after
    each call, and the peak the process ever had resident (VmHWM)."""
    latencies = []
    resident = 0
    async with SolverProcess(timeout_s=60) as process:
        await process.best("1234", 501, CLASSIC)
        for d in digits:
            started = time.perf_counter()
            outcome = await process.best(d, 501, CLASSIC)
            latencies.append(time.perf_counter() - started)
            assert isinstance(outcome, Solution), outcome
            assert await process.prepare(d, CLASSIC) is None
            assert isinstance(await process.best(d, 437, CLASSIC), Solution)
            status = await process.status()
            assert isinstance(status, tuple)
            resident = max(resident, status[1])
        final = await process.status()
        assert isinstance(final, tuple)
    return latencies, resident, final[1], final[2]


class _TimedSink(io.StringIO):
    """Notes when each answer line was written."""

    def __init__(self) -> None:
        super().__init__()
        self.moments: list[float] = []

    def write(self, text: str) -> int:
        self.moments.append(time.perf_counter())
        return super().write(text)


def jsonl_rates(rng: random.Random, lines: int = 600) -> tuple[float, float]:
    """`solve --jsonl` in this process, one stream: lines/s over 3 Digits with random
    Scores (each new Score a query), then the same lines again (answers given before)."""
    digits = [str(rng.randint(1000, 9999)) for _ in range(3)]
    once = "".join(
        json.dumps({"digits": rng.choice(digits), "score": round_score(rng)}) + "\n"
        for _ in range(lines)
    )
    sink = _TimedSink()
    started = time.perf_counter()
    _stream(Solver(cache_size=16), load_sets(), io.StringIO(once + once), sink)
    assert sink.getvalue().count('"ok": true') == 2 * lines
    half = sink.moments[lines - 1]
    return lines / (half - started), lines / (sink.moments[-1] - half)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limits", action="store_true", help="only the limits section")
    parser.add_argument("--hostile", type=int, default=40)
    parser.add_argument("--reveals", type=int, default=200)
    parser.add_argument("--digits", type=int, default=60)
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument("--through-process", type=int, default=12)
    parser.add_argument("--disk-sample", type=int, default=4)
    args = parser.parse_args()
    if args.limits:
        limits_section(args)
        return
    rng = random.Random(2026)
    digits = [str(rng.randint(1000, 9999)) for _ in range(args.digits)]
    grammar = Grammar.for_functions(CLASSIC.functions)

    load_before = os.getloadavg()[0]
    m = measure(digits, args.queries, rng)
    cold, warm = m.cold[0], m.prepared[0]
    process_latency, resident_rss, final_rss, peak_rss = asyncio.run(
        through_process([str(rng.randint(1000, 9999)) for _ in range(args.through_process)])
    )
    first_pass, repeated = jsonl_rates(rng)
    rate, slice_size = asyncio.run(pool_rate("3489"))
    counts = [formula_count(d, grammar) for d in digits[:20]]
    mean_count = sum(counts) / len(counts)
    baseline_s = mean_count / rate

    sample = digits[: args.disk_sample]
    tables_b = [table_bytes(build_tables(d, grammar)) for d in sample]
    results = [result_table(d, grammar) for d in sample]
    entries = np.mean([r[0] for r in results])
    mean_len = np.mean([r[1] for r in results])
    # a stored entry: the value (8 bytes), its type and length (2) and the formula text
    entry_bytes = 10 + mean_len
    all_digits_gb = 9000 * entries * entry_bytes * 11 / 1e9  # x11: the value and its 10 wraps

    load_after = os.getloadavg()[0]
    cold_p50, cold_p99 = percentile(cold, 50), percentile(cold, 99)
    warm_p99 = percentile(warm, 99)

    def met(ok: bool) -> str:
        return "met" if ok else "**not met**"

    def row(name: str, samples: list[float]) -> str:
        return f"| {name} | {latency_cells(samples)} |"

    mib = 2**20
    issue_count = 1.9e9
    lines = [
        "## Solver (`bench/bench_solver.py`)",
        "",
        f"Set `{CLASSIC.name}`, {args.digits} random Digits (seed 2026), one Score each (501 or"
        f" random), then {args.queries} more Scores on what that cold solve left, then",
        f"`Solver.prepare` (the rest of it), then {args.queries} more Scores on the prepared"
        " Digits; Scores are",
        "ones a round can start with (1-501). In-process, one core; the full grammar (a",
        "function around any literal or subexpression, the whole formula included).",
        "A prepared Digits has its whole top level listed (sorted keys and two lengths,",
        "~12 bytes a value) and what hexdec/octdec/bindec read in it; a cold solve lists",
        "that only when its answer needs the text forms. Production prepares the Digits",
        "of each finished Qualification day before its daily post and its `/game` reveals.",
        f"Load average {load_before:.1f} at the start, {load_after:.1f} at the end (other work",
        "shares the 2 cores), so the CPU time of the solving process is shown beside the wall",
        "time; the targets are judged on wall time.",
        "",
        "| | p50 ms | p90 ms | p99 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        row("cold solve (new Digits, one Score)", cold),
        row("cold solve, CPU time", m.cold[1]),
        row("query after a cold solve only", m.after_cold[0]),
        row("`prepare` after that cold solve (the rest)", m.prepare_rest[0]),
        row(f"`prepare` of a new Digits, whole ({len(m.prepare_whole[0])})", m.prepare_whole[0]),
        row("query on prepared Digits", warm),
        row("query on prepared Digits, CPU time", m.prepared[1]),
        row(f"cold through `SolverProcess` ({len(process_latency)} Digits, IPC)", process_latency),
        "",
        f"- cold p50 {ms(cold_p50)} ms (target <= 250 ms): {met(cold_p50 <= 0.25)};"
        f" cold p99 {ms(cold_p99)} ms (target <= 1 s): {met(cold_p99 <= 1.0)}",
        f"- prepared query p99 {ms(warm_p99)} ms (target <= 50 ms): {met(warm_p99 <= 0.05)}",
        f"- solver process memory, {len(process_latency)} Digits prepared through"
        " `SolverProcess` with its defaults (cache of 8):",
        f"  peak resident (VmHWM) {peak_rss / mib:.0f} MiB, at most {resident_rss / mib:.0f} MiB"
        f" after a call, {final_rss / mib:.0f} MiB at the end (target <= 256 MiB):"
        f" {met(peak_rss <= 256 * mib)}",
        f"- `solve --jsonl` (in-process, 600 lines over 3 Digits, random Scores): {first_pass:,.0f}"
        f" lines/s on first sight (each new Score a query), {repeated:,.0f} lines/s for lines it"
        " has answered before (the answer cache); thousands per second only for repeats",
        "",
        "**Baseline in the same run: every formula evaluated in PHP.** The warm local pool",
        f"(2 workers, `Evaluator.evaluate_many`) evaluates {rate:,.0f} formulas/s, measured on",
        f"the {slice_size:,} formulas of the operator slice of 3489 ({slice_size / rate:.2f} s).",
        f"This grammar has {mean_count:.2e} formulas per Digits (counted exactly for 20 of the",
        f"Digits): all of them would take {baseline_s:.1e} s per Digits,"
        f" {baseline_s / cold_p50:.1e}x the solver's cold p50. Even the issue's smaller",
        f"count ({issue_count:.1e} formulas) would take {issue_count / rate / 3600:,.0f} h.",
        "",
        "**A precomputed table for all 9,000 Digits.** The solver's per-Digits tables (every",
        f"range of at most 3 digits: values and lengths) are {np.mean(tables_b) / 1e6:.1f} MB on"
        f" average ({args.disk_sample} Digits sampled), {9000 * np.mean(tables_b) / 1e9:.1f} GB"
        " for 9,000, and would still need the top-level search.",
        f"A table of every Result with its formula has about {entries:,.0f} distinct",
        f"whole-Digits values before the outer wrap (shortest formula {mean_len:.1f} characters",
        f"on average), each with up to 10 wrap forms: at ~{entry_bytes:.0f} bytes an entry,",
        f"about **{all_digits_gb:,.0f} GB** for all 9,000 Digits (uncompressed; an upper bound,",
        "wraps that give equal values share entries). Solving on demand needs no disk.",
    ]
    body = "\n".join(lines) + "\n"
    write_section("solver", body)
    print(body)


if __name__ == "__main__":
    main()
