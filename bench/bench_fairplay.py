"""What `/admin fairplay` costs (issue 31): `signals` (the player's last 100 finished
games, the server's last 500, best answers included, and the computation) on a server
with a long history, against the same computation over the server's whole history,
measured in the same run: the bound keeps the command's cost flat as a server grows.

A SQLite store (the bot's default) with `--players` players each finishing `--games`
Training games of 6 rounds, every round's best answer stored in the game; then, for each
player, the bounded signals and the unbounded baseline are timed. Prints both latencies
and their ratio and writes the `fairplay` section of docs/BENCHMARKS.md. The bot's own
work only: no Discord, no PHP.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import tempfile
import time

import rules
from bench._report import latency_cells, percentile, write_section
from bot.moderation import PLAYER_GAMES, report, signals
from bot.storage import GameMeta, GameRecord, Reveal, Store, open_store

GUILD = 1
DARTS = dataclasses.replace(rules.CLASSIC, attempts=100)
FORMULAS = ("12+34", "pow(2,5)*sqrt(9)", "1*2*3*4", "(1+2)**3-4")


def game(game_id: str, player: int, index: int) -> GameRecord:
    state = rules.new_game(game_id, rules.Mode.TRAINING, DARTS, [str(player)])
    for number in range(6):
        now = 200.0 * number
        state = rules.apply(state, rules.StartRound("1234", now))
        formula = FORMULAS[(index + number + player) % len(FORMULAS)]
        state = rules.apply(state, rules.Submit(str(player), formula, 1, now + 5 + number))
    state = rules.apply(state, rules.Resign(str(player)))
    best = []
    for played in state.rounds:
        answer = played.answers[0]
        assert answer is not None
        better = (played.number + index) % 2  # every other round beats the answer
        best.append(Reveal(played.number, 0, "best", 2, 2, float(answer.score) - better))
    return GameRecord(state=state, guild_id=GUILD, channel_id=1, meta=GameMeta(best=tuple(best)))


async def unbounded(store: Store, player: int) -> object:
    """The baseline: the same signals over every finished game the server has."""
    everything = await store.fairplay.server_finished(GUILD, 10**9)
    own = await store.fairplay.player_finished(GUILD, player, 10**9)
    return report(own[:PLAYER_GAMES], everything, str(player))


async def run(players: int, games: int) -> tuple[list[float], list[float]]:
    bounded: list[float] = []
    whole: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
        try:
            for index in range(games):
                for player in range(players):
                    await store.games.save_game(
                        game(f"{index:08x}{player:08x}", 1000 + player, index)
                    )
            assert len(await store.fairplay.server_finished(GUILD, 10**9)) == players * games
            for player in range(players):
                start = time.perf_counter()
                await signals(store.fairplay, GUILD, 1000 + player)
                middle = time.perf_counter()
                await unbounded(store, 1000 + player)
                whole.append(time.perf_counter() - middle)
                bounded.append(middle - start)
        finally:
            await store.close()
    return bounded, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    bounded, whole = asyncio.run(run(args.players, args.games))
    ratio = percentile(bounded, 50) / percentile(whole, 50)
    body = "\n".join([
        "## Fair-play signals (`bench/bench_fairplay.py`)",
        "",
        f"{args.players} players each finish {args.games} Training games of 6 rounds"
        f" ({args.players * args.games} games on one server, every round's best answer"
        " stored), SQLite; per player `/admin fairplay`'s `signals` (the player's last 100"
        " finished games, the server's last 500) and, as the baseline measured in the same"
        " run, the same report over the server's whole history.",
        "",
        "| read | players | p50 | p90 | p99 | max ms |",
        "|---|---|---|---|---|---|",
        f"| bounded (`signals`) | {len(bounded)} | {latency_cells(bounded)} |",
        f"| whole history (baseline) | {len(whole)} | {latency_cells(whole)} |",
        "",
        f"The bounded p50 is {ratio:.2f}× the whole history's.",
    ])  # fmt: skip
    print(body)
    if not args.no_write:
        write_section("fairplay", body)


if __name__ == "__main__":
    main()
