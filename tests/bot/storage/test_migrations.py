"""Migrations: empty to head on both databases, and the models match what they build."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import AsyncEngine

import rules
from bot.cli import main
from bot.storage import GameMeta, _codec, open_store
from bot.storage._engine import (
    alembic_config,
    current_revision,
    head_revision,
    make_engine,
    upgrade,
)
from bot.storage._models import metadata
from tests.bot.storage.builders import CHECKOUT_4, DAY, GUILD, START, duel, single

TABLES = {
    "players",
    "servers",
    "games",
    "game_players",
    "rounds",
    "answers",
    "ratings",
    "rating_events",
    "challenges",
    "server_sets",
    "server_config",
    "daily_posts",
    "player_names",
    "untold_summaries",
    "best_answers",
    "best_pending",
}


def _diff(connection: sa.Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


def _tables(connection: sa.Connection) -> set[str]:
    return set(sa.inspect(connection).get_table_names())


async def test_empty_database_to_head_matches_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        assert await current_revision(engine) is None
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
        async with engine.connect() as conn:
            assert await conn.run_sync(_tables) >= TABLES
            assert await conn.run_sync(_diff) == []
    finally:
        await engine.dispose()


async def test_downgrade_to_empty_and_up_again(db_url: str) -> None:
    engine = make_engine(db_url)

    def down(connection: sa.Connection) -> None:
        command.downgrade(alembic_config(connection), "base")

    try:
        await upgrade(engine)
        async with engine.begin() as conn:
            await conn.run_sync(down)
        async with engine.connect() as conn:
            assert not (await conn.run_sync(_tables) & TABLES)
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_open_store_twice_is_harmless(db_url: str) -> None:
    first = await open_store(db_url)
    await first.close()
    second = await open_store(db_url)
    assert await second.games.active_games() == []
    await second.close()


async def test_cli_db_upgrade(db_url: str, capsys: object) -> None:
    assert await asyncio.to_thread(main, ["db", "--url", db_url, "upgrade"]) == 0
    assert await asyncio.to_thread(main, ["db", "--url", db_url, "current"]) == 0
    engine = make_engine(db_url)
    try:
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_cli_refuses_an_unknown_database() -> None:
    assert await asyncio.to_thread(main, ["db", "--url", "mysql://x/y", "upgrade"]) == 1


async def test_cli_reads_database_url_like_the_bot(tmp_path, monkeypatch) -> None:
    target = tmp_path / "from-env" / "bot.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{target}")
    assert await asyncio.to_thread(main, ["db", "upgrade"]) == 0
    assert target.exists()
    store = await open_store(f"sqlite:///{target}", migrate=False)
    try:
        assert await store.games.active_games() == []
    finally:
        await store.close()


async def test_cli_url_after_the_action(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`db upgrade --url U` works as well as `db --url U upgrade`; the later one wins."""
    assert await asyncio.to_thread(main, ["db", "upgrade", "--url", db_url]) == 0
    assert await asyncio.to_thread(main, ["db", "current", "--url", db_url]) == 0
    assert "up to date" in capsys.readouterr().out
    both = ["db", "--url", "mysql://x/y", "current", "--url", db_url]
    assert await asyncio.to_thread(main, both) == 0
    assert await asyncio.to_thread(main, ["db", "--url", db_url, "current"]) == 0


# A database as revision 0003 left it, written in that schema's own SQL, then upgraded.

_COLUMNS_0003 = {
    "players": ("id", "first_seen"),
    "servers": ("guild_id", "first_seen"),
    "games": (
        "id", "guild_id", "channel_id", "mode", "set_name", "set_snapshot", "seed", "period",
        "status", "player", "termination", "winner", "rounds_played", "perfect",
        "final_score", "rank_class", "rank_value", "answer_time", "version", "state", "meta",
        "created_at", "finished_at",
    ),
    "game_players": (
        "game_id", "seat", "player", "guild_id", "mode", "status", "created_at", "score",
        "answered", "points_total", "won", "checkout", "perfect",
    ),
    "rounds": ("game_id", "number", "digits", "started_at", "deadline", "resolved"),
    "answers": (
        "game_id", "round_number", "seat", "player", "formula", "result", "points", "score",
        "elapsed", "auto",
    ),
    "ratings": ("guild_id", "user_id", "rating", "games", "wins", "draws", "losses"),
    "rating_events": ("game_id", "user_id", "guild_id", "before", "after", "created_at"),
    "server_sets": ("guild_id", "name", "data", "updated_at"),
    "challenges": (
        "id", "guild_id", "channel_id", "challenger_id", "opponent_id", "set_name",
        "expires_at", "status", "message_id",
    ),
    "install_secrets": ("name", "value"),
}  # fmt: skip
MINE_THEN = rules.GameSet(
    name="mine", start_score=301, goal=100, bonus=50, max_rounds=7, time_limit=120, min_rounds=3
)
MINE_NOW = dataclasses.replace(MINE_THEN, time_limit=60)
"""The server Set was edited after its game: the game keeps the version it was played at."""


def _rows_0003() -> dict[str, list[dict[str, object]]]:
    qualification = single("q-classic", 5, CHECKOUT_4, game_set=rules.CLASSIC)
    mine = single("q-mine", 6, [100, 100, 100], game_set=MINE_THEN)
    fought = duel("d-classic", (5, 6), [(100, 1), (100, 1), (100, 1), (51, 1)])
    rows: dict[str, list[dict[str, object]]] = {table: [] for table in _COLUMNS_0003}
    for state, period in ((qualification, DAY), (mine, DAY), (fought, None)):
        game = _codec.game_row(
            state, guild_id=GUILD, channel_id=42, period=period, seed="s" if period else None,
            meta=GameMeta(), created_at=START, finished_at=START + 900,
            state_json=_codec.dumps(state.to_dict()),
        )  # fmt: skip
        rows["games"].append({c: game[c] for c in _COLUMNS_0003["games"]})
        rows["game_players"] += _codec.player_rows(state, guild_id=GUILD, created_at=START)
        for rnd in state.rounds:
            rows["rounds"].append(_codec.round_row(state.id, rnd))
            rows["answers"] += [
                _codec.answer_row(state.id, rnd, seat, state.players[seat], answer)
                for seat, answer in enumerate(rnd.answers)
                if answer is not None
            ]
    legacy = dict(rows["games"][0], id="legacy", player="7", set_snapshot='{"name":"darts"}')
    rows["games"].append(legacy)  # a snapshot that no longer reads as a Set
    rows["game_players"].append(dict(rows["game_players"][0], game_id="legacy", player="7"))
    rows["players"] = [{"id": p, "first_seen": START} for p in ("5", "6", "7")]
    rows["servers"] = [{"guild_id": GUILD, "first_seen": START}]
    rows["ratings"] = [
        {"guild_id": GUILD, "user_id": 5, "rating": 1016, "games": 1, "wins": 1, "draws": 0,
         "losses": 0},
        {"guild_id": GUILD, "user_id": 6, "rating": 984, "games": 1, "wins": 0, "draws": 0,
         "losses": 1},
    ]  # fmt: skip
    rows["rating_events"] = [
        {"game_id": "d-classic", "user_id": u, "guild_id": GUILD, "before": 1000, "after": a,
         "created_at": START + 900}
        for u, a in ((5, 1016), (6, 984))
    ]  # fmt: skip
    rows["server_sets"] = [
        {"guild_id": GUILD, "name": "mine", "data": _codec.dumps(MINE_NOW.to_dict()),
         "updated_at": START + 1000}
    ]  # fmt: skip
    rows["challenges"] = [
        {"id": "c1", "guild_id": GUILD, "channel_id": 42, "challenger_id": 5, "opponent_id": 6,
         "set_name": "darts", "expires_at": START + 60, "status": "pending", "message_id": 9}
    ]  # fmt: skip
    rows["install_secrets"] = [{"name": "qualification", "value": "ab" * 16}]
    return rows


async def _fill(engine: AsyncEngine, rows: dict[str, list[dict[str, object]]]) -> None:
    async with engine.begin() as conn:
        for table, columns in _COLUMNS_0003.items():  # parents before children
            if not rows[table]:
                continue
            names = ", ".join(f'"{c}"' for c in columns)
            values = ", ".join(f":{c}" for c in columns)
            statement = sa.text(f"INSERT INTO {table} ({names}) VALUES ({values})")
            await conn.execute(statement, [{c: r[c] for c in columns} for r in rows[table]])


async def _counts(engine: AsyncEngine) -> dict[str, int]:
    async with engine.connect() as conn:
        return {
            table: int(await conn.scalar(sa.text(f"SELECT count(*) FROM {table}")) or 0)
            for table in _COLUMNS_0003
        }


async def test_a_database_at_0003_upgrades_to_head_keeping_every_row(db_url: str) -> None:
    engine = make_engine(db_url)
    rows = _rows_0003()
    try:
        await upgrade(engine, "0003")
        await _fill(engine, rows)
        assert await _counts(engine) == {t: len(r) for t, r in rows.items()}
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
        assert await _counts(engine) == {t: len(r) for t, r in rows.items()}
        async with engine.connect() as conn:
            result = await conn.execute(sa.text("SELECT id, set_version FROM games"))
            versions = {str(row.id): str(row.set_version) for row in result}
            indexes = await conn.run_sync(lambda c: sa.inspect(c).get_indexes("games"))
        assert {"name": "ix_games_finished_at", "column_names": ["finished_at"]} in [
            {"name": i["name"], "column_names": i["column_names"]} for i in indexes
        ]
    finally:
        await engine.dispose()
    assert versions == {
        "q-classic": rules.CLASSIC.version,
        "d-classic": rules.CLASSIC.version,
        "q-mine": MINE_THEN.version,
        "legacy": "",
    }
    store = await open_store(db_url)
    try:
        loaded = await store.games.load_game("q-mine")
        assert loaded is not None and loaded.state.game_set == MINE_THEN
        assert await store.sets.server_sets(GUILD) == [MINE_NOW]
        version = rules.CLASSIC.version
        assert await store.games.count_attempts(GUILD, 5, "darts", DAY, version=version) == 1
        board = await store.boards.qualification_leaderboard(GUILD, "darts", DAY, version=version)
        assert [r.game_id for r in board] == ["q-classic"]
        unknown = await store.boards.qualification_leaderboard(GUILD, "darts", DAY, version="")
        assert [r.game_id for r in unknown] == ["legacy"]
        assert sorted(await store.boards.set_versions(GUILD, "darts")) == sorted(["", version])
        duel_board = await store.boards.duel_leaderboard(GUILD)
        assert [(r.user_id, r.rating, r.games) for r in duel_board] == [(5, 1016, 1), (6, 984, 1)]
        challenge = await store.challenges.load_challenge("c1")
        assert challenge is not None and challenge.locale == "en"
        finished = await store.games.finished_since(START)  # the games' moments survived 0009
        assert sorted(t.finished_at for t in finished) == [START + 900] * 4
    finally:
        await store.close()
