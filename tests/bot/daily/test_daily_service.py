"""DailyPosts without Discord: only this process's shards' servers, only days that ended
after the channel was set, a Kyiv server's day posted at Kyiv midnight."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import rules
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Recorded:
    def __init__(self) -> None:
        self.posted: list[tuple[int, str]] = []

    async def post(self, channel_id: int, content: DailyContent) -> int | None:
        self.posted.append((content.guild_id, content.period))
        return channel_id


def at(*moment: int) -> float:
    return datetime(*moment, tzinfo=UTC).timestamp()


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
