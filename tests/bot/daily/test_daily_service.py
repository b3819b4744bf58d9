"""DailyPosts without Discord: only this process's shards' servers, only days that ended
after the channel was set, a Kyiv server's day posted at Kyiv midnight, every day a
downtime missed (a week back), a day's board of the Set's version played that day."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import NoReturn

import pytest

import rules
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts
from solver.result import Candidate
from tests.bot.daily import seeds
from tests.bot.daily.seeds import played

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Recorded:
    def __init__(self) -> None:
        self.posted: list[tuple[int, str]] = []
        self.contents: list[DailyContent] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        self.posted.append((content.guild_id, content.period))
        self.contents.append(content)
        return channel_id

    async def find(self, channel_id: int, marker: str, since: float) -> NoReturn:
        raise AssertionError("no post is looked for here: no claim is resumed")


def at(*moment: int) -> float:
    return datetime(*moment, tzinfo=UTC).timestamp()  # type: ignore[arg-type, misc]


async def test_only_owned_servers_and_days_ended_after_the_channel_was_set(store) -> None:
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    await store.servers.update(2, at(2026, 1, 1, 12), channel_id=20)
    await store.servers.update(3, at(2026, 1, 2, 0, 5), channel_id=30)  # set after midnight
    now = at(2026, 1, 2, 0, 10)
    channel = Recorded()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": rules.CLASSIC}), channel,
        clock=lambda: now, owns=lambda guild: guild != 2,
    )  # fmt: skip
    assert (await daily.run_due()).made == 1
    assert channel.posted == [(1, "2026-01-01")]


async def test_a_kyiv_server_is_posted_at_kyiv_midnight(store) -> None:
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10, timezone="Europe/Kyiv")
    clock = [at(2026, 1, 1, 21, 59)]
    channel = Recorded()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": rules.CLASSIC}), channel, clock=lambda: clock[0]
    )
    assert daily.wait_s(await store.servers.with_channel(), False) == 61.0
    assert (await daily.run_due()).made == 0  # 23:59 in Kyiv
    clock[0] = at(2026, 1, 1, 22, 1)
    assert (await daily.run_due()).made == 1
    assert channel.posted == [(1, "2026-01-01")]


async def test_every_day_missed_by_a_downtime_is_posted_oldest_first_a_week_back(store) -> None:
    """Down from 1 to 20 January: the days played within the last week are posted, and
    the day that ended last with the default Set (its Play button) though unplayed."""
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    for day in ("2026-01-01", "2026-01-15", "2026-01-16"):
        await played(store, 1, day.replace("-", "") * 4, 5, [("1", 1)], period=day)
    channel = Recorded()
    now = at(2026, 1, 20, 0, 10)
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": seeds.DARTS}), channel, clock=lambda: now
    )
    assert (await daily.run_due()).made == 3
    assert channel.posted == [(1, "2026-01-15"), (1, "2026-01-16"), (1, "2026-01-19")]
    assert (await daily.run_due()).made == 0


class Solved:
    def __init__(self) -> None:
        self.versions: list[str] = []
        self.prepared: list[str] = []

    async def prepare(self, digits: str, game_set: rules.GameSet) -> None:
        self.prepared.append(digits)

    async def closest(self, digits: str, game_set: rules.GameSet) -> Candidate | None:
        self.versions.append(game_set.version)
        return None


async def test_a_set_edited_after_midnight_posts_the_board_of_the_version_played(store) -> None:
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    perfect = [("(1+2)*34-2", 100), ("1*2*34+32", 100), ("12*3+64", 100), ("1+2+3+45", 51)]
    await played(store, 1, "a" * 32, 5, perfect)
    edited = dataclasses.replace(seeds.DARTS, goal=90)  # a new version since midnight
    channel, solved = Recorded(), Solved()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": edited}), channel,
        clock=lambda: at(2026, 1, 2, 2), closest=solved,
    )  # fmt: skip
    assert (await daily.run_due()).made == 1
    [content] = channel.contents
    assert content.summary.players == 1 and [row.user_id for row in content.summary.board] == [5]
    assert solved.versions == [seeds.DARTS.version]  # solved under the Set as it was played
    assert solved.prepared == ["1234"]  # prepared first: the day's `/game` reveals follow
