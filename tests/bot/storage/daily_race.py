"""One bot process's daily posts, for test_daily_posts: run twice at once on one
PostgreSQL, each prints the posts it made. Its own OS process, because a real race
needs two connection pools and two event loops (simcord allows one environment per
loop, and the race is in the database, not in Discord).

    python daily_race.py URL OWNER START_AT
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import NoReturn

import rules
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts
from bot.storage import open_store

MIDNIGHT_PAST = 1_767_312_030.0  # 2026-01-02 00:00:30 UTC


class Recorded:
    """A channel that takes its time (a REST call), so the two processes overlap."""

    def __init__(self) -> None:
        self.posted: list[list[object]] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        await asyncio.sleep(0.02)
        self.posted.append([content.guild_id, content.set_name, content.period])
        return channel_id

    async def find(self, channel_id: int, marker: str, since: float) -> NoReturn:
        raise AssertionError("no post is looked for here: no claim is resumed")


async def main(url: str, owner: str, start_at: float) -> None:
    store = await open_store(url, migrate=False)
    try:
        channel = Recorded()
        daily = DailyPosts(
            store,
            SetsDirectory(store, {"darts": rules.CLASSIC}),
            channel,
            clock=lambda: MIDNIGHT_PAST,
            owner=owner,
        )
        await asyncio.sleep(max(0.0, start_at - time.time()))
        await daily.run_due()
        print(json.dumps(channel.posted))
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
