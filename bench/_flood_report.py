"""The web flood bench's report (`bench/bench_web_flood.py`): one table row per run, and
per layout each round's reveals' p99 flood / quiet, their median and the pooled ratio.

A round is a quiet run then a flood, 2 players asking reveals 1 s apart: 20-55 reveals
a run, so its p99 is its slowest reveal or the next one, and one ratio says little
(docs/BENCHMARKS.md, webproc: 0.7x-2.6x across runs of the same code). Several rounds
give each round's ratio beside the others' and their median; the pooled ratio is the
p99 of every flood run's reveals over every quiet run's.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from bench._flood_cpu import ROLES
from bench._report import latency_cells, percentile

Rounds = list[dict[str, dict[str, Any]]]
"""A layout's rounds, each its "quiet" and "flood" runs (`_phase`'s results)."""

LAYOUTS = {
    "together": "the bot's own wiring for WEB_PORT: its supervised `formula-darts web` child "
    "(SCHED_IDLE, nice +10, its session's autogroup at nice 19)",
    "together-nice": "the same child at nice +10 alone, as before SCHED_IDLE (the baseline)",
    "apart": "`formula-darts web` started apart, beside the bot",
    "in-process": "the pages on the bot's own event loop (what WEB_PORT did before)",
}


def _row(layout: str, name: str, run: dict[str, Any]) -> str:
    honest = run["honest"]
    answered = ", ".join(f"{k}: {v}" for k, v in sorted(honest["statuses"].items()))
    flooded = (
        ", ".join(f"{k}: {v}" for k, v in sorted(run["flood"]["statuses"].items()))
        if run["flood"]
        else "-"
    )
    reveals = run["reveals"]
    return (
        f"| {layout} | {name} | {len(reveals['times'])} "
        f"| {latency_cells(reveals['times'])} | {reveals['empty']} "
        f"| {answered} | {latency_cells(honest['times'])} "
        f"| {latency_cells(run['php']['times'])} | {run['php']['hung']} "
        f"| {run['spawn_failures']} | {run['most_open']} | {run['refused']} "
        f"| {flooded} |"
    )


def _ratio(rounds: Rounds, what: str) -> tuple[list[float], float]:
    """Each round's p99 flood / quiet of `what` ("reveals" or "php"), and the pooled one."""
    each = [
        percentile(r["flood"][what]["times"], 99) / percentile(r["quiet"][what]["times"], 99)
        for r in rounds
    ]
    pooled = [[t for r in rounds for t in r[name][what]["times"]] for name in ("flood", "quiet")]
    return each, percentile(pooled[0], 99) / percentile(pooled[1], 99)


def _note(layout: str, rounds: Rounds) -> str:
    reveals, pooled = _ratio(rounds, "reveals")
    php, php_pooled = _ratio(rounds, "php")
    counts = [sum(len(r[n]["reveals"]["times"]) for r in rounds) for n in ("quiet", "flood")]
    last = rounds[-1]["flood"]
    opened = sum((r["flood"]["loris"] or {}).get("opened", 0) for r in rounds)
    shown = ", ".join(f"{x:.2f}x" for x in reveals)
    several = len(rounds) > 1
    return (
        f"{layout}: **reveals p99 flood / quiet "
        + (f"by round {shown}, median {statistics.median(reveals):.2f}x" if several else shown)
        + "** (target <= 1.5x)"
        + (
            f"; pooled over the rounds {pooled:.2f}x ({counts[1]} flood reveals against "
            f"{counts[0]} quiet)"
            if several
            else ""
        )
        + (
            f"; PHP p99 flood / quiet median {statistics.median(php):.2f}x (pooled "
            f"{php_pooled:.2f}x)"
            if several
            else f"; PHP p99 flood / quiet {php[0]:.2f}x"
        )
        + f"; the slow-loris opened {opened:,} connections (each closed by the 5 s header "
        f"timeout or refused, then reopened); workers alive at the end: {last['workers']}."
    )


def _cpu_rows(out: dict[str, Rounds]) -> list[str]:
    """With `--cpu`: per run, each role's CPU seconds / run-queue wait seconds, and the
    reveals' median solve beside their median whole time."""
    shown = [r for r in ROLES if any(r in (run["cpu"] or {}) for runs in out.values()
                                      for one in runs for run in one.values())]  # fmt: skip
    if not shown:
        return []
    lines = [
        "",
        "CPU s / run-queue wait s by process, per run (`--cpu`), and the reveals' median "
        "solve (the solver's answer, at the bot's loop) beside their median whole time:",
        "",
        "| layout | run | reveal p50 ms | solve p50 ms | " + " | ".join(shown) + " |",
        "|---|---|---|---|" + "---|" * len(shown),
    ]
    for layout, runs in out.items():
        for number, one in enumerate(runs, 1):
            for name, run in one.items():
                uses = run["cpu"] or {}
                reveals = run["reveals"]
                whole = percentile(reveals["times"], 50) * 1000 if reveals["times"] else 0
                solve = percentile(reveals["solves"], 50) * 1000 if reveals["solves"] else 0
                cells = " | ".join(
                    f"{uses[r].cpu_s:.1f} / {uses[r].wait_s:.1f}" if r in uses else "-"
                    for r in shown
                )
                lines.append(
                    f"| {layout} | {name} {number} | {whole:.0f} | {solve:.0f} | {cells} |"
                )
    return lines


def report(out: dict[str, Rounds], args: argparse.Namespace, load: str) -> str:
    rounds = f"{args.rounds} rounds of " if args.rounds > 1 else ""
    lines = [
        "## Web port under a flood (`bench/bench_web_flood.py`)",
        "",
        f"A process like the bot (RLIMIT_NOFILE {args.nofile}): one server's {args.games:,} "
        "games, a bubblewrap PHP pool of 2 answering formulas in two lanes and timing one out "
        "every 2 s (a worker replaced each time). The pages on loopback, served by "
        + "; ".join(f"`{name}`: {LAYOUTS[name]}" for name in out)
        + ". "
        f"{rounds}Quiet, then with {args.loris} slow-loris connections and {args.clients} "
        f"clients asking other players' pages and replays, {args.seconds:.0f} s each; an "
        "honest reader asks a board and a player page one after another throughout, and "
        f"{args.reveals} players each ask a round's confirmed best answer (solver, then PHP), "
        "1 s apart: a round's flood asks the Digits and Scores of its quiet run, in the same "
        "order, each run on a new solver process (nothing prepared). The flood's and the "
        "slow-loris's processes ran at niceness "
        f"{args.hostile_nice} (19: standing for clients elsewhere, whose CPU is not the "
        f"bot's cores'). Load average before the run: {load}.",
        "",
        "| layout | run | reveals | reveal p50 | p90 | p99 | max ms | empty "
        "| honest answers | honest p50 | p90 | p99 | max ms | PHP p50 | p90 "
        "| p99 | max ms | workers replaced | replacements failed | most connections open "
        "| refused (503) | flood answers |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for layout, runs in out.items():
        for number, one in enumerate(runs, 1):
            for name, run in one.items():
                lines.append(_row(layout, f"{name} {number}" if len(runs) > 1 else name, run))
    notes = [_note(layout, runs) for layout, runs in out.items()]
    return "\n".join([*lines, *_cpu_rows(out), "", *notes])
