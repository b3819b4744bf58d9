"""The board's reads that skip through indexes (board5) answer exactly as the
straightforward queries over every game do, on SQLite and PostgreSQL: on random games
(Sets, versions, days, start times, players, results, voids), the Sets played, a Set's
versions latest first and numbered by their first game, and the day's and week's
boards (each player's best game of the range, in RULES.md's order) equal what a GROUP
BY, a DISTINCT and a best-per-player in Python give. On SQLite, a period's board reads
the period's range of `ix_games_qualification`, not every game of the version from
`ix_games_board` (its plan)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from bot.storage import Store
from bot.storage._boards import window_page
from bot.storage._games import games
from tests.bot.storage.builders import GUILD, record, single

RESULTS = ([100, 100, 100, 51], [100, 100, 100, 100, 99], [1] * 7, [100, 100, 100, 100, 1])
DAYS = [f"2026-11-{day:02d}" for day in range(20, 30)]
SETS = ("darts", "bigdarts", "tiny")
VERSIONS = ("", "v1aaaaaaa", "v2bbbbbbb", "v3ccccccc")


async def _random_games(store: Store, rng: random.Random, count: int) -> None:
    """Games saved as the bot saves them, then moved to a random Set, version, day and
    start (the triggers keep `board_best` with them); some voided or lost."""
    for index in range(count):
        game_id = f"r{index:03d}"
        lost = rng.random() < 0.15
        results = [100, 100] if lost else rng.choice(RESULTS)
        state = single(game_id, rng.randrange(9), results, seconds=rng.choice((5.0, 10.0)),
                       timeout=lost)  # fmt: skip
        await store.games.save_game(record(state))
        async with store.engine.begin() as conn:
            await conn.execute(
                sa.update(games)
                .where(games.c.id == game_id)
                .values(
                    set_name=rng.choice(SETS),
                    set_version=rng.choice(VERSIONS),
                    period=rng.choice(DAYS),
                    created_at=float(rng.randrange(50)),  # ties on purpose
                )
            )
        if rng.random() < 0.1:
            await store.moderation.void_game(GUILD, game_id, 99, "random", float(index))


async def _rows(store: Store, *conditions: Any) -> list[Any]:
    async with store.engine.connect() as conn:
        query = sa.select(games).where(games.c.guild_id == GUILD, games.c.mode == "qualification")
        return list((await conn.execute(query.where(*conditions))).all())


def _best(rows: list[Any]) -> list[tuple[str, str, int]]:
    """Each player's best ranked game in RULES.md's order (ties: the earlier, then the
    id), as (player, game id, total)."""
    ranked = [r for r in rows if r.rank_class in (0, 1)]
    key = lambda r: (r.rank_class, r.rank_value, r.answer_time, r.created_at, r.id)  # noqa: E731
    best: dict[str, Any] = {}
    for row in sorted(ranked, key=key):
        best.setdefault(row.player, row)
    board = sorted(best.values(), key=key)
    return [(row.player, row.id, len(board)) for row in board]


async def test_skipping_reads_equal_the_straightforward_ones(store: Store) -> None:
    rng = random.Random(5)
    await _random_games(store, rng, 90)
    rows = await _rows(store)
    assert await store.boards.qualification_sets(GUILD) == sorted({r.set_name for r in rows})
    for set_name in SETS:
        of_set = [r for r in rows if r.set_name == set_name]
        latest: dict[str, float] = {}
        first: dict[str, float] = {}
        for row in of_set:
            latest[row.set_version] = max(latest.get(row.set_version, -1.0), row.created_at)
            first[row.set_version] = min(first.get(row.set_version, 1e9), row.created_at)
        expected = sorted(latest, key=lambda v: (-latest[v], v))
        assert await store.boards.set_versions(GUILD, set_name) == expected
        numbered = sorted((v for v in first if v), key=lambda v: (first[v], v))
        assert await store.boards.set_version_numbers(GUILD, set_name) == {
            v: n for n, v in enumerate(numbered, start=1)
        }
        for version in VERSIONS:
            for since, until in (("2026-11-24", None), ("2026-11-26", "2026-11-26")):
                of_range = [
                    r for r in of_set
                    if r.set_version == version and r.period >= since
                    and (until is None or r.period <= until)
                ]  # fmt: skip
                async with store.engine.connect() as conn:
                    page, total = await window_page(
                        conn, GUILD, set_name, since, 100, 0, version, until
                    )
                got = [(str(r.user_id), r.game_id, total) for r in page]
                assert got == _best(of_range), (set_name, version, since, until)


@contextmanager
def _statements(store: Store) -> Iterator[list[tuple[str, Any]]]:
    seen: list[tuple[str, Any]] = []

    def note(_c: Any, _cur: Any, statement: str, params: Any, _ctx: Any, _many: bool) -> None:
        seen.append((statement, params))

    event.listen(store.engine.sync_engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", note)


async def test_a_weeks_board_reads_the_weeks_range_on_sqlite(store: Store) -> None:
    """Seen failing before board5: SQLite read the week's board from `ix_games_board`
    (in the window's order, the period last), every game of the version."""
    if store.engine.dialect.name != "sqlite":
        return
    await _random_games(store, random.Random(6), 20)
    with _statements(store) as seen:
        await store.boards.qualification_page(GUILD, "darts", "2026-11-24", version="")
    statement, params = seen[0]
    async with store.engine.connect() as conn:
        plan = await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params)
        steps = [str(row[-1]) for row in plan]
    reads = [s for s in steps if "games USING" in s and "sqlite_autoindex_games" not in s]
    assert reads and all("ix_games_qualification" in s and "period>" in s for s in reads), steps
