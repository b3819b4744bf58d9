"""Docker pool latency and throughput against a cold `docker run --rm` per formula.

Run: `python -m bench.bench_docker [--seconds 3] [--cold-runs 5]`. Builds the
sandbox image if it does not carry the current worker, measures 1, 2 and 8
concurrent callers through `Evaluator.evaluate` (checker + pool + container),
then the same formulas in a fresh container each (the baseline a per-formula
`docker run` design would cost), and writes the "docker" section of
docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import subprocess
import time

from bench._report import percentile, write_section
from evaluator import Evaluation, EvaluatorSettings, open_evaluator
from evaluator.sandbox import images
from evaluator.sandbox._docker_config import container_config
from evaluator.sandbox.docker import docker_available

CALLERS = (1, 2, 8)


def formulas(count: int, seed: int = 7) -> list[tuple[str, str]]:
    """(digits, formula) pairs the checker accepts: a b c d split in a few shapes."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b, c, d = (str(rng.randint(1, 9)) for _ in range(4))
        shape = rng.choice(
            ("{a}{b}+{c}{d}", "{a}*{b}+{c}{d}", "pow({a},{b})-{c}*{d}", "{a}{b}{c}/{d}")
        )
        out.append((a + b + c + d, shape.format(a=a, b=b, c=c, d=d)))
    return out


async def warm(settings: EvaluatorSettings, seconds: float) -> tuple[list[dict[str, float]], str]:
    work = formulas(2000)
    rows = []
    async with await open_evaluator(settings) as evaluator:
        assert evaluator.backend == "docker", evaluator.reason
        for digits, formula in work[:200]:  # warm-up: caches, first frames
            await evaluator.evaluate(formula, digits, ["pow"])
        for callers in CALLERS:
            latencies: list[float] = []
            deadline = time.perf_counter() + seconds

            async def caller(
                offset: int, callers: int, deadline: float, latencies: list[float]
            ) -> None:
                i = offset
                while time.perf_counter() < deadline:
                    digits, formula = work[i % len(work)]
                    started = time.perf_counter()
                    verdict = await evaluator.evaluate(formula, digits, ["pow"])
                    latencies.append(time.perf_counter() - started)
                    if not isinstance(verdict, Evaluation):
                        raise RuntimeError(f"{formula}: {verdict}")
                    i += callers

            began = time.perf_counter()
            await asyncio.gather(*(caller(k, callers, deadline, latencies) for k in range(callers)))
            elapsed = time.perf_counter() - began
            rows.append(
                {
                    "callers": callers,
                    "n": len(latencies),
                    "p50": percentile(latencies, 50) * 1e3,
                    "p99": percentile(latencies, 99) * 1e3,
                    "rate": len(latencies) / elapsed,
                }
            )
            print(rows[-1])
        return rows, evaluator.reason


def cold(settings: EvaluatorSettings, runs: int) -> list[float]:
    """`docker run --rm` with the pool's limits, one formula each, answer checked."""
    docker_cli = shutil.which("docker")
    if docker_cli is None:
        raise SystemExit("the cold baseline needs the docker CLI")
    host = container_config(settings, [], "bench")["host_config"]
    flags = [
        "--rm", "--network", "none", "--read-only", "--cap-drop", "ALL",
        "--security-opt", "no-new-privileges", "--user", "65534:65534",
        "--memory", host["mem_limit"], "--memory-swap", host["memswap_limit"],
        "--pids-limit", str(host["pids_limit"]), "--cpus", str(settings.docker_cpus),
        "--log-driver", "none", "--label", "formula-darts.bench=1",
    ]  # fmt: skip
    times = []
    for digits, formula in formulas(runs, seed=11):
        del digits
        started = time.perf_counter()
        out = subprocess.run(
            [docker_cli, "run", *flags, settings.docker_image, "php", "-n", "-r",
             f"echo json_encode({formula});"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        times.append(time.perf_counter() - started)
        if not out.stdout.strip():
            raise RuntimeError(f"cold run printed nothing: {out.stderr}")
    print({"cold_runs": runs, "median_ms": statistics.median(times) * 1e3})
    return times


def report(rows: list[dict[str, float]], cold_s: list[float], settings: EvaluatorSettings) -> str:
    cold_p50 = statistics.median(cold_s) * 1e3
    one = rows[0]
    ratio = cold_p50 / one["p50"]
    lines = [
        "## Docker pool (`bench/bench_docker.py`)",
        "",
        f"Pool of {settings.pool_size} warm containers of `{settings.docker_image}`, each "
        "formula through `Evaluator.evaluate` (checker, pool, attach socket, php). "
        f"Baseline: `docker run --rm` of the same image per formula ({len(cold_s)} runs), "
        "same limits.",
        "",
        "| callers | formulas | p50 ms | p99 ms | formulas/s |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['callers']:.0f} | {row['n']:.0f} | {row['p50']:.3f} | "
            f"{row['p99']:.3f} | {row['rate']:,.0f} |"
        )
    lines.append(
        f"| cold `docker run --rm` | {len(cold_s)} | {cold_p50:.1f} | "
        f"{max(cold_s) * 1e3:.1f} | {len(cold_s) / sum(cold_s):.1f} |"
    )
    lines += [
        "",
        f"One caller's p50 is **{ratio:,.0f}×** faster than the cold baseline "
        f"(target ≥ 200×: {'met' if ratio >= 200 else 'NOT met'}); "
        f"p50 {one['p50']:.3f} ms (target ≤ 1 ms: {'met' if one['p50'] <= 1 else 'NOT met'}).",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per caller count")
    parser.add_argument("--cold-runs", type=int, default=5)
    args = parser.parse_args()
    settings = EvaluatorSettings(evaluator="docker")
    images.ensure_image(settings.docker_image)
    ok, why = docker_available(settings)
    if not ok:
        raise SystemExit(f"Docker backend not usable: {why}")
    rows, _ = asyncio.run(warm(settings, args.seconds))
    cold_s = cold(settings, args.cold_runs)
    body = report(rows, cold_s, settings)
    print(body)
    write_section("docker", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
