"""The daily post's suites: a world whose server has an admin and a daily-post channel."""

from __future__ import annotations

import pytest_asyncio


@pytest_asyncio.fixture(loop_scope="session")
async def board(world, admin):
    """The channel the daily post goes to, set by /config at 00:00 UTC on 1 January."""
    channel = world.guild.create_text_channel("board")
    await admin.slash(world.channel, "config channel", channel=channel)
    return channel
