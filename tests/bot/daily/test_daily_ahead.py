"""The closest formulas of a day are solved in the hours before the server's midnight
(issue 20's wave: each post waited for up to 7 prepares and closest solves), for the
Digits played so far, again every AHEAD_EVERY_S, and not before that window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.common import SetsDirectory
from bot.daily import DailyPosts
from bot.daily._service import AHEAD_EVERY_S, AHEAD_S
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
    assert AHEAD_S == 3 * 3600
    clock = [at(2026, 1, 1, 18, 40)]
    solved = Solved()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": seeds.DARTS}), Recorded(),
        clock=lambda: clock[0], closest=solved,
    )  # fmt: skip
    assert await daily.prepare_ahead() == 0  # 3 h 20 min before Kyiv midnight, 5 h 20 UTC
    assert solved.versions == []
    servers = await store.servers.with_channel()
    assert daily.ahead_wait_s(servers) == 20 * 60  # the Kyiv window opens at 19:00 UTC
    clock[0] = at(2026, 1, 1, 23, 50)
    assert daily.ahead_wait_s(servers) == AHEAD_EVERY_S
    assert await daily.prepare_ahead() == 1  # the UTC server's Digits; Kyiv's day is over
    assert solved.versions == [seeds.DARTS.version] and solved.prepared == []
    clock[0] = at(2026, 1, 1, 19, 50)  # 21:50 in Kyiv, 2 h 10 min before its midnight
    solved.versions.clear()
    assert await daily.prepare_ahead() == 1
