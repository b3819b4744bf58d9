"""The storage benchmarks' data: 100,000 synthetic games, and their bulk load.

The rows are produced by the same codec the Store writes with (so the data has
production's shape and indexes) from games built directly, not played through the
rules (so 100,000 of them take seconds), then bulk-loaded: executemany on SQLite, COPY
on PostgreSQL. `bench_storage` and `bench_web` measure over it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import rules
from bot.storage import GameMeta, Store
from bot.storage import _codec as codec
from bot.storage._models import (
    AnswerRow,
    Game,
    GamePlayer,
    Player,
    Rating,
    RoundRow,
    Server,
    table,
)

DAYS = [f"2026-{month:02d}-{day:02d}" for month in (9, 10, 11) for day in range(1, 31)]
TODAY = DAYS[-1]
WEEK_START = DAYS[-7]
SETS = [
    rules.CLASSIC,
    rules.GameSet("blitz", 501, 100, 50, 12, 30, 4),
    rules.GameSet("marathon", 1001, 100, 50, 20, 120, 7),
]
LOAD_CHUNK = 5_000


@dataclass
class Dataset:
    games: int
    rounds: int
    guilds: int
    players_per_guild: int
    seed: int = 1
    loaded_rounds: int = 0
    loaded_answers: int = 0
    players: dict[int, list[str]] = field(default_factory=dict)


def _guild_id(index: int) -> int:
    return 900_000_000_000_000_000 + index


def _player_id(guild: int, index: int) -> str:
    return str(800_000_000_000_000_000 + guild * 100_000 + index)


def _synthetic_state(
    rng: random.Random,
    game_id: str,
    mode: rules.Mode,
    players: list[str],
    game_set: rules.GameSet,
    rounds: int,
    finished: bool,
) -> rules.GameState:
    """A plausible game built directly (not through apply) so 100k of them take seconds."""
    scores: list[rules.Number] = [game_set.start_score] * len(players)
    played: list[rules.Round] = []
    start = 1_790_000_000.0 + rng.random() * 8_000_000
    for number in range(1, rounds + 1):
        answers: list[rules.Answer | None] = []
        for seat in range(len(players)):
            result: rules.Number = rng.randint(1, 400) if rng.random() < 0.9 else rng.random() * 300
            points, score = rules.apply_points(
                scores[seat], result, game_set.goal, game_set.bonus, numbers=game_set.language_rules
            )
            scores[seat] = score
            answers.append(
                rules.Answer(
                    "12+34", result, points, score, rng.random() * 60, auto=rng.random() < 0.05
                )
            )
        began = start + number * 150
        played.append(
            rules.Round(
                number,
                str(rng.randint(1000, 9999)),
                began,
                began + game_set.time_limit,
                answers,
                resolved=True,
            )
        )
    outcome = None
    if finished:
        roll = rng.random()
        if roll < 0.45:
            scores[0] = 0
            outcome = rules.Outcome(
                rules.Termination.CHECKOUT, 0, rounds, rounds <= game_set.min_rounds
            )
        elif roll < 0.85:
            outcome = rules.Outcome(
                rules.Termination.MAX_ROUNDS, None if mode is rules.Mode.DUEL else 0, rounds
            )
        else:
            outcome = rules.Outcome(rules.Termination.TIMEOUT, None, rounds)
    elif played:
        played[-1].resolved = False
    return rules.GameState(game_id, mode, game_set, players, scores, played, outcome)


def generate(data: Dataset) -> Iterator[dict[str, list[dict[str, Any]]]]:
    """Rows per table, in chunks; round counts are drawn so the total is `data.rounds`."""
    rng = random.Random(data.seed)
    mean = data.rounds / data.games
    for guild in range(data.guilds):
        data.players[_guild_id(guild)] = [
            _player_id(guild, i) for i in range(data.players_per_guild)
        ]
    chunk: dict[str, list[dict[str, Any]]] = {
        "games": [],
        "game_players": [],
        "rounds": [],
        "answers": [],
    }
    rounds_left = data.rounds
    for index in range(data.games):
        guild = _guild_id(rng.randrange(data.guilds))
        roll = rng.random()
        mode = (
            rules.Mode.QUALIFICATION
            if roll < 0.5
            else rules.Mode.TRAINING
            if roll < 0.8
            else rules.Mode.DUEL
        )
        players = rng.sample(data.players[guild], mode.players)
        game_set = SETS[rng.randrange(len(SETS))]
        games_left = data.games - index
        target = rounds_left / games_left if games_left else mean
        rounds = max(1, min(game_set.max_rounds, round(rng.uniform(target - 4, target + 4))))
        if games_left == 1:
            rounds = max(1, rounds_left)
        rounds_left -= rounds
        finished = rng.random() > 0.01
        state = _synthetic_state(rng, f"g{index:07d}", mode, players, game_set, rounds, finished)
        period = rng.choice(DAYS) if mode is rules.Mode.QUALIFICATION else None
        created = state.rounds[0].started_at if state.rounds else 1_790_000_000.0
        chunk["games"].append(
            codec.game_row(
                state,
                guild_id=guild,
                channel_id=guild + 1,
                period=period,
                seed="bench" if period else None,
                meta=GameMeta(locale="en"),
                created_at=created,
                finished_at=created + 3000 if finished else None,
                state_json=codec.dumps(state.to_dict()),
            )
        )
        chunk["game_players"].extend(codec.player_rows(state, guild_id=guild, created_at=created))
        for rnd in state.rounds:
            chunk["rounds"].append(codec.round_row(state.id, rnd))
            for seat, answer in enumerate(rnd.answers):
                if answer is not None:
                    chunk["answers"].append(
                        codec.answer_row(state.id, rnd, seat, state.players[seat], answer)
                    )
        if len(chunk["games"]) >= LOAD_CHUNK:
            yield chunk
            chunk = {name: [] for name in chunk}
    if chunk["games"]:
        yield chunk


def _static_rows(data: Dataset) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(data.seed + 1)
    servers = [{"guild_id": g, "first_seen": 0.0} for g in data.players]
    players = [{"id": p, "first_seen": 0.0} for ps in data.players.values() for p in ps]
    ratings = []
    for guild, members in data.players.items():
        for player in members:
            games = rng.randint(1, 60)
            wins = rng.randint(0, games)
            draws = rng.randint(0, games - wins)
            ratings.append(
                {
                    "guild_id": guild,
                    "user_id": int(player),
                    "rating": rng.randint(800, 1400),
                    "games": games,
                    "wins": wins,
                    "draws": draws,
                    "losses": games - wins - draws,
                }
            )
    return {"servers": servers, "players": players, "ratings": ratings}


TABLES = {
    "servers": table(Server),
    "players": table(Player),
    "ratings": table(Rating),
    "games": table(Game),
    "game_players": table(GamePlayer),
    "rounds": table(RoundRow),
    "answers": table(AnswerRow),
}


async def bulk_load(store: Store, data: Dataset) -> float:
    """Insert everything in chunks; returns seconds. COPY on PostgreSQL, executemany on SQLite."""
    began = time.perf_counter()
    async with store.engine.begin() as conn:
        await _load_chunk(conn, _static_rows(data))
        for chunk in generate(data):
            data.loaded_rounds += len(chunk["rounds"])
            data.loaded_answers += len(chunk["answers"])
            await _load_chunk(conn, chunk)
    async with store.engine.connect() as conn:
        if store.dialect == "postgresql":
            autocommit = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await autocommit.exec_driver_sql("VACUUM ANALYZE")
        else:
            await conn.exec_driver_sql("ANALYZE")
            await conn.commit()
    return time.perf_counter() - began


async def _load_chunk(conn: Any, chunk: dict[str, list[dict[str, Any]]]) -> None:
    for name, rows in chunk.items():
        if not rows:
            continue
        target = TABLES[name]
        if conn.dialect.name == "postgresql":
            raw = (await conn.get_raw_connection()).driver_connection
            columns = list(rows[0])
            await raw.copy_records_to_table(
                name, records=[tuple(r[c] for c in columns) for r in rows], columns=columns
            )
        else:
            await conn.execute(target.insert(), rows)
