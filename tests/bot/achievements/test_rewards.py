"""`Rewards` over a real store (SQLite and PostgreSQL), without Discord: the puzzles' and
the Cup's seams, an answer as good as the best (found while played, or kept after),
streak milestones from stored Qualification days, and a Practice bot's seat earning
nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

import rules
from bot.achievements import Rewards
from bot.storage import Reveal, RoleReward, Source, Store, open_store
from rules import Mode
from rules.achievements import Achievement
from tests.bot.storage.builders import CHECKOUT_4, DARTS, GUILD, NO_CHECKOUT, record, single

A = Achievement
T0 = 1_800_000_000.0


class Woken:
    def __init__(self) -> None:
        self.times = 0

    def wake(self) -> None:
        self.times += 1


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    opened = await open_store(db_url)
    try:
        yield opened
    finally:
        await opened.close()


async def kinds(store: Store, user: int) -> set[Achievement]:
    return {e.achievement for e in await store.achievements.held(GUILD, user)}


async def test_runs_and_cups(store: Store) -> None:
    woken = Woken()
    rewards = Rewards(store, lambda: T0, woken)
    assert await rewards.run_finished(GUILD, 5, "storm", 12.5, "r1") == [A.STORM_10]
    assert await rewards.run_finished(GUILD, 5, "storm", 30.0, "r2") == [A.STORM_25]
    assert await rewards.run_finished(GUILD, 5, "streak", 10, "r3") == [A.PUZZLE_STREAK_10]
    assert await rewards.run_finished(GUILD, 5, "racer", 99, "r4") == []  # unknown kind
    await rewards.champion_crowned(GUILD, 5, 1)
    assert await kinds(store, 5) == {A.STORM_10, A.STORM_25, A.PUZZLE_STREAK_10, A.CUP_CHAMPION}
    assert woken.times == 0  # no role is given for them on this server
    await store.roles.set_reward(GUILD, RoleReward.CHAMPION, 77, T0)
    await rewards.champion_crowned(GUILD, 6, 2)
    assert woken.times == 1
    assert [(i.user_id, i.want) for i in await store.roles.undone()] == [(6, True)]


async def test_an_answer_as_good_as_the_best(store: Store) -> None:
    rewards = Rewards(store, lambda: T0)
    state = single("t1", 5, NO_CHECKOUT, mode=Mode.TRAINING)  # 501 → 500 → … one a round
    found = dataclasses.replace(
        record(state), meta=dataclasses.replace(record(state).meta, best=(
            Reveal(1, 0, "12*34", 408, 93, 408),  # the best left 408; the player 500
        )),
    )  # fmt: skip
    await store.games.save_game(found, now=T0)
    assert await rewards.game_finished(found) == []
    await store.best.keep("t1", Reveal(3, 0, "1+2+3+4", 10, 10, 498))  # found after: 498 ≥
    earned = await rewards.game_finished(found)
    assert [(e.achievement, e.source, e.source_id) for e in earned] == [
        (A.SOLVER_MATCH, Source.GAME, "t1")
    ]


async def test_seven_days_in_a_row_and_the_bots_seat(store: Store) -> None:
    rewards = Rewards(store, lambda: T0)
    darts = dataclasses.replace(DARTS, name=rules.CLASSIC.name)
    for day in range(1, 8):
        last = record(single(f"q{day}", 5, CHECKOUT_4, game_set=darts), period=f"2026-12-0{day}")
        await store.games.save_game(last, now=T0 + day)
        earned = {e.achievement for e in await rewards.game_finished(last)}
        assert (A.STREAK_7 in earned) is (day == 7)
    assert await kinds(store, 5) == {
        A.FIRST_CHECKOUT, A.FIRST_PERFECT, A.QUALIFICATION_PERFECT, A.STREAK_7,
    }  # fmt: skip
    practice = rules.new_game("p1", Mode.PRACTICE, rules.CLASSIC, ["6", "bot:3"])
    for points in CHECKOUT_4:
        practice = rules.apply(practice, rules.StartRound("1234", T0))
        for player in ("6", "bot:3"):
            practice = rules.apply(practice, rules.Submit(player, "1234", points, T0 + 1))
    assert practice.outcome is not None
    by_practice = await rewards.game_finished(record(practice))
    assert {e.user_id for e in by_practice} == {6}  # the bot's seat is nobody's
