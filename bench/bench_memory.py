"""Memory of one bot process: resident set idle, and what 1,000 active games add.

Run: `python -m bench.bench_memory [--games 1000] [--no-write]`. Writes the "memory"
section of docs/BENCHMARKS.md (docs/scaling.md quotes it).

The number is `process_resident_memory_bytes` from the bot's own `Metrics` registry
(prometheus-client's process collector, as `/metrics` shows it), after a full GC.
Each phase runs in a fresh process, so memory freed by one phase cannot be reused by
the next and hide its cost:

- idle: the real bot (`create_bot`, every cog) logged in on simcord with one server,
  a SQLite store and the local PHP pool of 2 (the PHP workers are processes of their
  own and not counted here);
- games: the game service without Discord (`GameService`, `NoEvents`) on a SQLite
  store and the same pool, before and after starting N Training games, each with its
  round open and its deadline timer armed. What Discord adds per game in the real bot
  (discord.py's thread object; its message cache is capped at 1,000 messages) is not
  in this number;
- private: the real bot (`SOLO_GAMES=private`) on simcord, N players each starting a
  private Training by `/training` and answering round 1 with its Answer button, so
  every game holds what discord.py makes for it (its interactions, followup webhooks,
  Views and their timeout tasks, if any); measured idle (one game played), with the N
  games running, and after every one ended by `/resign`; then (`--batches 2`, the
  default) N other players the same way from the warm idle the first batch left, so
  what stays after the games end is told apart as per game (a leak) or first use; then
  16 minutes later (past discord.py's 15-minute View timeout). Resident memory
  includes simcord's own copy of every message (an upper bound of the bot's share);
  discord.py's Views, Interactions and Webhooks alive, and the asyncio tasks, are
  counted too; `--traced` says who allocated what (bench/_memory_private.py);
  `--kept-via` gives the bytes a running private game keeps of its interaction.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench._memory_private import (
    DROPPED,
    ENDED_DROPPED,
    FRAMES,
    MOMENTS,
    OWNERS,
    TRACED,
    TRACED2,
    WARM,
    kept_via_bytes,
    memory_bot,
    private,
    resident,
)
from bench._report import write_section


async def idle(tmp: Path) -> dict[str, float]:
    import simcord

    async with memory_bot(tmp / "m.db", private=False) as (bot, metrics):
        env = simcord.Env(bot, shard_count=1)
        await env.start()
        guild = env.create_guild("Memory Club")
        guild.create_text_channel("games")
        await env.advance_time(1)
        measured = resident(metrics)
        await env.shutdown()
    return {"idle_mib": measured}


async def games(tmp: Path, count: int) -> dict[str, float]:
    import rules
    from bot.observability import Metrics
    from bot.play import GameService, NoEvents
    from bot.storage import open_store
    from evaluator import EvaluatorSettings, open_evaluator

    metrics = Metrics()
    pool = EvaluatorSettings(evaluator="local", pool_size=2)
    async with await open_store(f"sqlite+aiosqlite:///{tmp}/g.db") as store, await open_evaluator(
        pool
    ) as evaluator:  # fmt: skip
        service = GameService(store, evaluator, rules.load_sets(), NoEvents())

        async def thread(_set: rules.GameSet) -> int:
            return 1

        # one game warms every code path and cache before the baseline
        await service.start_single(rules.Mode.TRAINING, 1, 1, None, "en", thread)
        before = resident(metrics)
        for player in range(2, count + 2):
            await service.start_single(rules.Mode.TRAINING, 1, player, None, "en", thread)
        after = resident(metrics)
        held = len(service.active)
        await service.close()
    return {"before_mib": before, "after_mib": after, "held": held}


def phase(name: str, count: int, *, traced: bool = False, batches: int = 1) -> dict[str, float]:
    command = [sys.executable, "-m", "bench.bench_memory", "--phase", name, "--games", str(count),
               "--batches", str(batches)]  # fmt: skip
    out = subprocess.run(
        command + (["--traced"] if traced else []),
        capture_output=True, text=True, check=False, cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"phase {name} failed:\n{out.stderr[-3000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def listed(values: list[float]) -> str:
    return ", ".join(f"{v:.1f}" for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per phase")
    parser.add_argument("--phase", choices=["idle", "games", "private"], help=argparse.SUPPRESS)
    parser.add_argument("--private-only", action="store_true", help="the private phase alone")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--traced", action="store_true",
        help="private: also trace allocations by package (simcord's apart; slower)",
    )  # fmt: skip
    parser.add_argument(
        "--batches", type=int, choices=[1, 2], default=2,
        help="private: a second batch of --games after the first ended, against the warm idle",
    )  # fmt: skip
    parser.add_argument(
        "--kept-via", action="store_true",
        help="bytes per KeptVia, what a running private game keeps of its interaction",
    )  # fmt: skip
    args = parser.parse_args()
    if args.kept_via:
        print(f"{kept_via_bytes():.0f} bytes per KeptVia (over 1,000, traced)")
        return
    if args.phase:
        with tempfile.TemporaryDirectory(prefix="fd-mem-") as tmp:
            place = Path(tmp)
            work = {
                "idle": lambda: idle(place),
                "games": lambda: games(place, args.games),
                "private": lambda: private(
                    place, args.games, traced=args.traced, batches=args.batches
                ),
            }[args.phase]()
            print(json.dumps(asyncio.run(work)))
        return

    if args.private_only:
        seen = phase("private", args.games, traced=args.traced, batches=args.batches)
        private_report(seen, args.games, write=not args.no_write)
        return
    idles = sorted(phase("idle", args.games)["idle_mib"] for _ in range(args.runs))
    runs = [phase("games", args.games) for _ in range(args.runs)]
    assert all(r["held"] == args.games + 1 for r in runs), runs
    per_k = sorted((r["after_mib"] - r["before_mib"]) / args.games * 1000 for r in runs)
    bases = sorted(r["before_mib"] for r in runs)
    mid = args.runs // 2
    body = "\n".join(
        [
            "## Memory of one bot process\n",
            f"`python -m bench.bench_memory`: `process_resident_memory_bytes` after a full GC, "
            f"each phase in a fresh process, {args.runs} runs (median; all runs in brackets).\n",
            "| what | MiB |",
            "|---|---:|",
            "| the bot idle on simcord, simcord included (every cog, one server, SQLite, "
            f"PHP pool of 2 outside it) | {idles[mid]:.1f} ({listed(idles)}) |",
            f"| the game service alone, one game running | {bases[mid]:.1f} ({listed(bases)}) |",
            f"| added by {args.games:,} more active Training games (round open, timer armed), "
            f"per 1,000 | {per_k[mid]:.1f} ({listed(per_k)}) |",
            "",
            "Not counted: the PHP workers (their own processes, each capped by MEMORY_MB) and "
            "what Discord adds per game in the real bot (discord.py's thread object).",
        ]
    )
    print(body)
    if not args.no_write:
        write_section("memory", body)


def private_report(seen: dict[str, float], count: int, *, write: bool) -> None:
    """The private phase's table (section "memory-private")."""
    moments = [m for m in MOMENTS if f"{m}_rss" in seen]
    rows = [
        f"| {moment} | {seen[f'{moment}_rss']:.1f} | {seen[f'{moment}_views']:.0f} | "
        f"{seen[f'{moment}_interactions']:.0f} | {seen[f'{moment}_webhooks']:.0f} | "
        f"{seen[f'{moment}_tasks']:.0f} |"
        for moment in moments
    ]
    held = " and ".join(f"{seen[k]:.0f}" for k in ("held1", "held2") if k in seen)
    per_k = (seen["running_rss"] - seen["idle_rss"]) / count * 1000
    second = ""
    if "running2_rss" in seen:
        per_k2 = (seen["running2_rss"] - seen["warm_rss"]) / count * 1000
        second = f"; a second batch against the warm idle: {per_k2:.1f}"
    body = "\n".join(
        [
            "## Memory of private games, with discord.py's own objects\n",
            f"`python -m bench.bench_memory --private-only --games {count}`: the real bot "
            "(`SOLO_GAMES=private`) on simcord (`RealWorkEnv`: game time moves only when the "
            f"run moves it, so no round times out while the machine is slow); each of {count:,} "
            "players starts a private Training by `/training` and answers round 1 with its "
            "Answer button; then every game ends by `/resign`. 'warm' is after that once "
            "simcord's logs and its copies of the ended games (messages, interactions: what "
            "Discord keeps, not a bot) are let go; 'running2' and 'ended2' are a second batch "
            f"of {count:,} other players from there ('ended2' with simcord's logs and copies "
            "let go); 'later' is 16 minutes on (past discord.py's 15-minute View timeout). "
            "Resident memory after a full GC; Views, Interactions and Webhooks are "
            "discord.py's objects alive.\n",
            "| moment | RSS MiB | Views | Interactions | Webhooks | asyncio tasks |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            f"RSS added per 1,000 running private games: {per_k:.1f} MiB against idle, simcord "
            f"included{second} (CPython keeps freed arenas, so RSS does not come back "
            f"down; the traced figures are the measure of what is held); games held at "
            f"'running': {held} of {count:,}.",
            *traced_lines(seen, count),
        ]
    )
    print(body)
    if write:
        write_section("memory-private", body)


def traced_lines(seen: dict[str, float], count: int) -> list[str]:
    """`--traced`: what was added, by owner (bench/_memory_private.py), per 1,000 games:
    the first batch against idle, the second against the warm idle the first left."""
    if "traced_running_simcord" not in seen:
        return []
    names = (*OWNERS, "other")
    lines = [
        "",
        f"Traced (`--traced`: tracemalloc, {FRAMES} frames; each allocation goes to the "
        "innermost frame of simcord, discord.py, the bot or SQLAlchemy/aiosqlite on its stack, "
        "'other' when none is), MiB per 1,000 games. simcord's logs of every call keep each "
        "payload as discord.py built it, and its copies of every message and interaction "
        "share the bot's strings, so what discord.py and the bot made is also measured once "
        "those are let go (a test's record and Discord's side, which no bot process has):",
        "",
        f"| batch | moment | against | {' | '.join(names)} | all but simcord |",
        "|---|---|---|" + "---:|" * (len(names) + 1),
    ]
    labels = {
        "running": ("1", "running", "idle"),
        DROPPED: ("1", "running, simcord's logs let go", "idle"),
        "ended": ("1", "ended", "idle"),
        ENDED_DROPPED: ("1", "ended, simcord's logs let go", "idle"),
        WARM: ("1", "ended, simcord's logs and copies let go (**warm idle**)", "idle"),
        "running2": ("2", "running", "warm idle"),
        "running2-nologs": ("2", "running, simcord's logs let go", "warm idle"),
        "ended2": ("2", "ended, simcord's logs and copies let go", "warm idle"),
    }
    for moment in (*TRACED, *TRACED2):
        if f"traced_{moment}_simcord" not in seen:
            continue
        per_k = {o: seen[f"traced_{moment}_{o}"] / count * 1000 for o in names}
        ours = sum(v for k, v in per_k.items() if k != "simcord")
        cells = " | ".join(f"{per_k[o]:.2f}" for o in names)
        batch, label, against = labels[moment]
        lines.append(f"| {batch} | {label} | {against} | {cells} | **{ours:.2f}** |")
    return lines


if __name__ == "__main__":
    main()
