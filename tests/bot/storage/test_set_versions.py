"""A Set's version in storage: attempts and boards per version; a duel's end and its Elo
land in one transaction."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import rules
from bot.storage import AttemptsUsed, RatingChange, Store, _ratings, open_store
from tests.bot.storage.builders import CHECKOUT_4, CHECKOUT_5, DAY, GUILD, duel, record, single

ONCE = rules.CLASSIC
EDITED = dataclasses.replace(ONCE, time_limit=90)
"""The classic Set with other numbers: a new version, a new Qualification."""
REWORDED = dataclasses.replace(ONCE, description="Now with a better description")


def test_numbers_make_a_version_words_do_not() -> None:
    assert EDITED.version != ONCE.version
    assert REWORDED.version == ONCE.version


async def test_a_new_version_is_a_new_attempt(store: Store) -> None:
    await store.games.save_game(record(single("v1", 5, [100], game_set=ONCE)))
    with pytest.raises(AttemptsUsed):
        await store.games.save_game(record(single("reworded", 5, [], game_set=REWORDED)))
    assert await store.games.count_attempts(GUILD, 5, "darts", DAY, version=EDITED.version) == 0
    await store.games.save_game(record(single("v2", 5, [], game_set=EDITED)))
    with pytest.raises(AttemptsUsed):
        await store.games.save_game(record(single("v2-again", 5, [], game_set=EDITED)))
    assert await store.games.count_attempts(GUILD, 5, "darts", DAY, version=ONCE.version) == 1
    assert await store.games.count_attempts(GUILD, 5, "darts", DAY, version=EDITED.version) == 1
    stored = await store.games.load_game("v2")
    assert stored is not None and stored.state.game_set.version == EDITED.version


async def test_boards_rank_one_version_at_a_time(store: Store) -> None:
    many = dataclasses.replace(ONCE, attempts=5)
    other = dataclasses.replace(many, time_limit=90)
    games = [
        single("old-fast", 1, CHECKOUT_4, game_set=many),
        single("old-slow", 2, CHECKOUT_5, game_set=many),
        single("new", 3, CHECKOUT_5, game_set=other),
    ]
    for index, state in enumerate(games):
        rec = record(state)
        rec = dataclasses.replace(rec, created_at=1000.0 + index)
        await store.games.save_game(rec)
    old = await store.boards.qualification_leaderboard(GUILD, "darts", DAY, version=many.version)
    new = await store.boards.qualification_leaderboard(GUILD, "darts", DAY, version=other.version)
    assert [r.game_id for r in old] == ["old-fast", "old-slow"]
    assert [(r.game_id, r.rank) for r in new] == [("new", 1)]
    assert await store.boards.qualification_count(GUILD, "darts", DAY, version=many.version) == 2
    assert await store.boards.qualification_count(GUILD, "darts", DAY, version="") == 0
    assert await store.boards.set_versions(GUILD, "darts") == [other.version, many.version]
    assert await store.boards.set_versions(GUILD + 1, "darts") == []


def _fail_once(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The Elo write raises the first time it is reached: a crash or a dropped connection."""
    original = _ratings.record_duel
    calls: list[str] = []

    async def flaky(conn: Any, rec: Any) -> list[RatingChange]:
        calls.append(rec.state.id)
        if len(calls) == 1:
            raise ConnectionError("the database went away mid-write")
        return await original(conn, rec)

    monkeypatch.setattr(_ratings, "record_duel", flaky)
    return calls


async def test_a_failed_elo_write_leaves_the_duel_unended_and_its_retry_rates_once(
    store: Store, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    final = duel("elo", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    await store.games.save_game(record(dataclasses.replace(final, outcome=None)))
    calls = _fail_once(monkeypatch)
    with pytest.raises(ConnectionError):
        await store.games.save_game(record(final))
    stored = await store.games.load_game("elo")
    assert stored is not None and stored.state.outcome is None  # the end rolled back with it
    assert await store.boards.duel_leaderboard(GUILD) == []
    await store.games.save_game(record(final))  # the flow retries a failed save
    expected = [RatingChange(1, 1000, 1016), RatingChange(2, 1000, 984)]
    assert await store.boards.record_duel_result(record(final)) == expected
    await store.games.save_game(record(final))  # saved again: the same state, no new rating
    restarted = await open_store(db_url)
    try:
        await restarted.games.save_game(record(final))
        assert await restarted.boards.record_duel_result(record(final)) == expected
        board = await restarted.boards.duel_leaderboard(GUILD)
    finally:
        await restarted.close()
    assert [(r.user_id, r.rating, r.games, r.wins) for r in board] == [
        (1, 1016, 1, 1),
        (2, 984, 1, 0),
    ]
    assert calls[:2] == ["elo", "elo"]  # the failed write, then the retried save's


async def test_a_voided_duel_saved_again_is_not_rated_again(store: Store) -> None:
    final = duel("void-me", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    await store.games.save_game(record(final))
    assert await store.moderation.void_game(GUILD, "void-me", 99, "cheating", 2_000_000.0)
    await store.games.save_game(record(final))  # e.g. the last round's best answers kept late
    assert await store.boards.duel_leaderboard(GUILD) == []  # not rated again: off the Elo board
