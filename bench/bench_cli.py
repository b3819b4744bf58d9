"""`formula-darts eval --jsonl`: start-up and cost per line, against a cold `php -r '1;'`.

Run: `python -m bench.bench_cli [--lines 20000] [--runs 9] [--baseline 8829cc8 ...]`.
All in one run, as a user runs the command (EVALUATOR left at its default,
auto; POOL_SIZE=2):
- a cold `php -r '1;'` (the unit both targets are counted in), median of many;
- start-up: the whole command answering one line, median of `--runs`; each
  baseline commit's command (unpacked with `git archive`, run the same way)
  beside it (by default 8829cc8, before issue 20, and acf9953, the main this
  branch started from), what the eval path imports (`python -X importtime`) and whether
  it loads any of HEAVY;
- cost per line: `--lines` lines through one command, minus its start-up.
Writes the "cli" section of docs/BENCHMARKS.md.

Targets: start-up <= 20 cold `php -r` runs (issue 20; it was 30 in issue 13);
cost per line >= 200x below a cold `php -r` (issue 13).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench._report import write_section
from bench.bench_pool import unpack

ROOT = Path(__file__).resolve().parent.parent
ENV = {**{k: v for k, v in os.environ.items() if k.upper() != "EVALUATOR"}, "POOL_SIZE": "2"}
HEAVY = ("docker", "pydantic", "pydantic_settings", "sqlalchemy", "alembic", "discord")
"""What the eval path must not load (tests/evaluator/test_cli_eval_hostile.py checks it too)."""
STARTUP_TARGET = 20
ONE = b'{"digits": "3489", "formula": "34+89", "score": 501}\n'


def timed(args: list[str], stdin: bytes, cwd: Path = ROOT) -> float:
    started = time.perf_counter()
    out = subprocess.run(args, input=stdin, capture_output=True, cwd=cwd, env=ENV, check=False)
    elapsed = time.perf_counter() - started
    if out.returncode != 0:
        raise SystemExit(f"{args} failed: {out.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def median(args: list[str], stdin: bytes, runs: int, cwd: Path = ROOT) -> float:
    """The median wall time of `runs` runs."""
    return statistics.median(timed(args, stdin, cwd) for _ in range(runs))


def lines(count: int) -> bytes:
    rows = []
    for n in range(count):
        digits = 1000 + n % 9000
        formula = f"{digits // 100:02d}+{digits % 100:02d}"
        rows.append(json.dumps({"digits": str(digits), "formula": formula, "score": 501}))
    return ("\n".join(rows) + "\n").encode()


def heaviest_imports(top: int = 5) -> tuple[list[tuple[str, float]], list[str]]:
    """The eval path's biggest imports (cumulative ms), from `python -X importtime`, and
    which of HEAVY it loaded."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot.cli", "eval", "--jsonl"],
        input=ONE, capture_output=True, cwd=ROOT, env=ENV, check=True,
    )  # fmt: skip
    found: dict[str, float] = {}
    for line in out.stderr.decode().splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].strip()
            if "." not in name:
                found[name] = max(found.get(name, 0.0), int(parts[1]) / 1000)
    return sorted(found.items(), key=lambda item: -item[1])[:top], [m for m in HEAVY if m in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", action="append", help="repeatable (8829cc8, acf9953)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    baselines: list[str] = args.baseline or ["8829cc8", "acf9953"]

    command = [sys.executable, "-m", "bot.cli", "eval", "--jsonl"]
    cold = ["php", "-r", "1;"]
    stream = lines(args.lines)
    # Interleaved, so a busy machine slows both sides of every ratio alike.
    rounds: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="fd-baseline-") as tmp:
        trees = {}
        for commit in baselines:
            (Path(tmp) / commit).mkdir()
            paths = ("bot", "evaluator", "rules", "solver", "sets.yaml")
            trees[commit] = unpack(commit, Path(tmp) / commit, paths)
        for k in range(args.runs):
            php = median(cold, b"", 5)
            row = {"php": php, "startup": timed(command, ONE)}
            for commit, tree in trees.items():
                row[commit] = timed(command, ONE, cwd=tree)
            if k < 3:
                row["stream"] = timed(command, stream)
                row["after"] = median(cold, b"", 5)
            rounds.append(row)
    php = statistics.median(r["php"] for r in rounds)
    startup = statistics.median(r["startup"] for r in rounds)
    startup_runs = statistics.median(r["startup"] / r["php"] for r in rounds)
    streamed = [r for r in rounds if "stream" in r]
    total = statistics.median(r["stream"] for r in streamed)
    per_line = statistics.median((r["stream"] - r["startup"]) / args.lines for r in streamed)
    line_ratio = statistics.median(
        (r["php"] + r["after"]) / 2 / ((r["stream"] - r["startup"]) / args.lines) for r in streamed
    )
    imports, heavy = heaviest_imports()
    met = startup_runs <= STARTUP_TARGET
    verdicts = [
        f"start-up: {startup * 1e3:.0f} ms = {startup_runs:.1f} cold `php -r` runs "
        f"(target <= {STARTUP_TARGET}): " + ("met" if met else "MISSED"),
        "the eval path loads " + (", ".join(heavy) if heavy else f"none of {', '.join(HEAVY)}"),
        f"cost per line: {per_line * 1e6:.1f} µs, {line_ratio:.0f}x below a cold `php -r` "
        "(target >= 200x): " + ("met" if line_ratio >= 200 else "MISSED"),
    ]
    rows = [
        "| measure | value |",
        "|---|---|",
        f"| cold `php -r '1;'` (median of {args.runs * 5}) | {php * 1e3:.1f} ms |",
        f"| `eval --jsonl`, one line, whole command (median of {args.runs}) "
        f"| {startup * 1e3:.0f} ms ({startup_runs:.1f} `php -r`) |",
        *(
            f"| the same at {commit} | {statistics.median(r[commit] for r in rounds) * 1e3:.0f} ms "
            f"({statistics.median(r[commit] / r['php'] for r in rounds):.1f} `php -r`; this "
            f"tree {statistics.median(r[commit] / r['startup'] for r in rounds):.2f}x faster) |"
            for commit in baselines
        ),
        f"| {args.lines:,} lines through one command (median of 3) | {total:.2f} s |",
        f"| cost per line (minus start-up) | {per_line * 1e6:.1f} µs "
        f"({1 / per_line:,.0f} lines/s) |",
        "| heaviest imports now (cumulative) | "
        + ", ".join(f"{name} {ms:.0f} ms" for name, ms in imports)
        + " |",
    ]
    body = "\n\n".join(
        [
            "## `formula-darts eval --jsonl` (`bench/bench_cli.py`)\n\n"
            "The command run as a user runs it (`python -m bot.cli eval --jsonl`, EVALUATOR "
            "at its default `auto`, 2 workers), counted in cold `php -r '1;'` runs measured "
            "in the same run, "
            "interleaved (each ratio is the median of per-round ratios). Each baseline "
            "commit's command is unpacked with `git archive` and run the same way.",
            "\n".join(rows),
            "\n".join(f"- {v}" for v in verdicts),
        ]
    )
    print(body)
    if not args.no_write:
        write_section("cli", body)


if __name__ == "__main__":
    main()
