"""The closest formulas of a day are solved in the quarter hour before the server's
midnight (issue 20's wave: each post waited for up to 7 prepares and closest solves),
for the Digits played so far, and not before that window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.common import SetsDirectory
from bot.daily import DailyPosts
from bot.daily._service import AHEAD_S
from tests.bot.daily import seeds
from tests.bot.daily.seeds import played
from tests.bot.daily.test_daily_service import Recorded, Solved

pytestmark = pytest.mark.asyncio(loop_scope="session")


def at(*moment: int) -> float:
    return datetime(*moment, tzinfo=UTC).timestamp()


async def test_a_days_digits_are_solved_in_the_window_before_its_midnight(store) -> None:
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    await store.servers.update(2, at(2026, 1, 1, 12), channel_id=20, timezone="Europe/Kyiv")
    perfect = [("(1+2)*34-2", 100), ("1*2*34+32", 100)]
    await played(store, 1, "a" * 32, 5, perfect)
    await played(store, 2, "b" * 32, 6, [("5678", 5678)], digits="5678")
    clock = [at(2026, 1, 1, 23, 40)]
    solved = Solved()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": seeds.DARTS}), Recorded(),
        clock=lambda: clock[0], closest=solved,
    )  # fmt: skip
    assert await daily.prepare_ahead() == 0  # 20 minutes before: too early in UTC
    assert solved.versions == []
    assert daily.ahead_wait_s(await store.servers.with_channel()) == 5 * 60
    clock[0] = at(2026, 1, 1, 23, 50)
    assert await daily.prepare_ahead() == 1  # the UTC server's Digits; Kyiv's day is over
    assert solved.versions == [seeds.DARTS.version] and solved.prepared == []
    clock[0] = at(2026, 1, 1, 21, 50)  # 23:50 in Kyiv
    solved.versions.clear()
    assert await daily.prepare_ahead() == 1
    assert AHEAD_S == 900.0
