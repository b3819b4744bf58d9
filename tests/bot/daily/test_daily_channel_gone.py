"""A daily-post channel Discord refuses (403) or that is gone (404), and a server the bot
left, are taken off `/config` (issue 20): nothing is sent there every night, and
`/config show` tells the admin which channel, why and when. `/config` acknowledges
before it reads the database."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.sim import reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY_S = 24 * 3600


def posts_to(world, channel_id: int) -> list:
    return [
        r
        for r in world.env.http_requests
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
    ]


@pytest.mark.parametrize(
    ("status", "code", "reason", "said"),
    [
        (403, 50013, "forbidden", "Discord refused my post in"),
        (404, 10003, "not_found", "was gone"),
    ],
)
async def test_a_channel_that_refuses_the_post_is_cleared_and_the_admin_told(
    world, board, admin, status, code, reason, said
) -> None:
    world.env.inject_error(
        "POST", f"/channels/{board.id}/messages", status=status, code=code, times=None
    )
    await world.env.advance_time(DAY_S + 60)
    settings = await world.store.servers.settings(world.guild.id)
    assert settings.channel_id is None  # nothing is sent there any more
    assert (settings.cleared_channel_id, settings.cleared_reason) == (board.id, reason)
    tried = len(posts_to(world, board.id))
    assert tried == 1
    await world.env.advance_time(3 * DAY_S)  # three more nights: nothing is sent there
    assert len(posts_to(world, board.id)) == tried
    text = reply_text(await admin.slash(world.channel, "config show"))
    assert "Daily post: off" in text and said in text and f"<#{board.id}>" in text
    world.env.backend.faults.clear()
    again = reply_text(await admin.slash(world.channel, "config channel", channel=board))
    assert "turned off" not in again  # chosen again: the notice is forgotten
    assert (await world.store.servers.settings(world.guild.id)).cleared_reason is None


async def test_a_server_the_bot_left_is_cleared_with_its_reason(world, board) -> None:
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    from bot.config._cog import shown as config_text

    settings = await world.store.servers.settings(world.guild.id)
    assert settings.channel_id is None
    assert settings.cleared_reason == "bot_removed"
    assert await world.store.servers.with_channel() == []
    uk = config_text(settings, "uk")
    assert "коли мене вилучили із сервера" in uk
    assert "when I was removed from this server" in config_text(settings, "en")


async def test_config_answers_before_a_slow_database(world, admin, monkeypatch) -> None:
    real = world.store.servers.settings

    async def slow(*args, **kwargs):
        await asyncio.sleep(4)  # beyond Discord's 3 s for the first response
        return await real(*args, **kwargs)

    monkeypatch.setattr(world.store.servers, "settings", slow)
    shown = await admin.slash(world.channel, "config show")
    await world.env.advance_time(30)
    assert world.env.errors == []
    assert shown.acknowledged
    assert "Daily post: off" in reply_text(shown)
