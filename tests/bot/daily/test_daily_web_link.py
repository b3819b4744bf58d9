"""The daily post links the Set's board on the server's web pages while they are on
(issue 22): the content carries the link and the embed's title opens it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NoReturn

import pytest

import rules
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts
from bot.daily._render import daily_embed

pytestmark = pytest.mark.asyncio(loop_scope="session")
BASE = "https://darts.example.org"


class Recorded:
    def __init__(self) -> None:
        self.contents: list[DailyContent] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        self.contents.append(content)
        return channel_id

    async def find(self, channel_id: int, marker: str, since: float) -> NoReturn:
        raise AssertionError("no post is looked for here: no claim is resumed")


def at(*moment: int) -> float:
    return datetime(*moment, tzinfo=UTC).timestamp()  # type: ignore[arg-type, misc]


async def test_the_post_links_the_board_only_while_the_web_is_on(store) -> None:
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    await store.servers.update(2, at(2026, 1, 1, 12), channel_id=20)
    key = (await store.servers.set_web(1, True, at(2026, 1, 1, 12))).web_key
    await store.servers.set_web(2, True, at(2026, 1, 1, 12))
    await store.servers.set_web(2, False, at(2026, 1, 1, 13))
    channel = Recorded()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": rules.CLASSIC}), channel,
        clock=lambda: at(2026, 1, 2, 0, 10), web_base=BASE,
    )  # fmt: skip
    assert (await daily.run_due()).made == 2
    links = {c.guild_id: c.link for c in channel.contents}
    assert links == {1: f"{BASE}/s/{key}/?set=darts", 2: None}
    embeds = {c.guild_id: daily_embed(c) for c in channel.contents}
    assert embeds[1].url == links[1] and embeds[2].url is None
