"""The streaks' periods on SQLite and PostgreSQL: finished Qualifications count (a checkout
or all rounds played), losses, voided games, Training and other servers do not; and the
claim that keeps a Share from being posted twice."""

from __future__ import annotations

import asyncio

from bot.storage import Store
from rules import Mode, Streak
from tests.bot.storage.builders import CHECKOUT_4, GUILD, NO_CHECKOUT, record, single

TODAY = "2026-11-29"


async def test_player_and_board_streaks_count_finished_qualifications_only(store: Store) -> None:
    days = ["2026-11-25", "2026-11-26", "2026-11-28", "2026-11-29"]
    for index, day in enumerate(days):
        results = CHECKOUT_4 if index % 2 else NO_CHECKOUT
        await store.games.save_game(record(single(f"a{index}", 1, results), period=day))
    await store.games.save_game(record(single("a-twice", 1, CHECKOUT_4), period=TODAY))
    await store.games.save_game(record(single("lost", 1, [100], timeout=True), period="2026-11-27"))
    await store.games.save_game(record(single("void", 1, CHECKOUT_4), period="2026-11-27"))
    assert await store.moderation.void_game(GUILD, "void", 9, "test", 0.0)
    training = single("train", 1, CHECKOUT_4, mode=Mode.TRAINING)
    await store.games.save_game(record(training, period=None))
    await store.games.save_game(record(single("elsewhere", 1, CHECKOUT_4), guild=GUILD + 1,
                                 period="2026-11-27"))  # fmt: skip
    await store.games.save_game(record(single("b", 2, CHECKOUT_4), period="2026-11-27"))

    assert await store.boards.player_streaks(GUILD, 1, TODAY) == {"darts": Streak(2, 2)}
    assert await store.boards.player_streaks(GUILD, 3, TODAY) == {}
    board = await store.boards.board_streaks(GUILD, "darts", [1, 2, 3], TODAY)
    assert board == {1: Streak(2, 2), 2: Streak(0, 1), 3: Streak(0, 0)}


async def test_a_state_is_claimed_by_one_caller_only(store: Store) -> None:
    wins = await asyncio.gather(*(store.install.claim_state("share:g:1", str(i)) for i in range(4)))
    assert sorted(wins) == [False, False, False, True]
    await store.install.drop_state("share:g:1")
    assert await store.install.claim_state("share:g:1", "again")
