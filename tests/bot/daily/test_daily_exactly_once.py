"""The daily post exactly once across a crash (issue 21) on simcord: Discord took the post
but its done mark was not written (the write failed, or the process died in between);
the next owner of the claim finds the post in the channel by its marker instead of
posting it again. Every try of one post carries the same nonce (`enforce_nonce`)."""

from __future__ import annotations

import asyncio

import pytest

from bot.daily._service import LEASE_S
from tests.bot.daily.seeds import seed_day
from tests.support.sim import message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY_S = 24 * 3600


def posts(channel) -> list:
    return [m for m in channel.history() if m.embeds and "final board" in m.embeds[0].title]


def key(world) -> tuple[int, str, str]:
    return (world.guild.id, "darts", "2026-01-01")


async def test_a_done_mark_that_failed_after_the_post_does_not_post_it_again(
    world, board, monkeypatch
) -> None:
    await seed_day(world)
    real = world.store.servers.finish_post
    marks: list[object] = []

    async def failing_once(*args, **kwargs):
        marks.append(args)
        if len(marks) == 1:
            raise OSError("the database went away after Discord took the post")
        return await real(*args, **kwargs)

    monkeypatch.setattr(world.store.servers, "finish_post", failing_once)
    await world.env.advance_time(DAY_S + 60)
    assert len(posts(board)) == 1
    await world.env.advance_time(LEASE_S + 600)  # the claim is taken again, and again
    [post] = posts(board)
    assert await world.store.servers.post_done(key(world))
    # found by what its Play button carries, which no player reads: no id in the footer
    assert "darts/2026-01-01" not in message_text(post)
    assert "2026-01-01" not in post.embeds[0].footer.text
    assert "Qualification · darts · January 1, 2026: the final board" in message_text(post)


async def test_a_process_dead_between_the_post_and_its_mark_is_not_posted_twice(
    world, board, monkeypatch, make_bot
) -> None:
    await seed_day(world)
    real = world.store.servers.finish_post

    async def dies(*args, **kwargs):
        world.bot.daily.stop()  # the process dies right after Discord took the post
        await asyncio.sleep(0)
        raise AssertionError("a dead process writes nothing")

    monkeypatch.setattr(world.store.servers, "finish_post", dies)
    await world.env.advance_time(DAY_S + 60)
    assert len(posts(board)) == 1
    monkeypatch.setattr(world.store.servers, "finish_post", real)
    await world.env.restart_bot(make_bot())  # another process: another owner
    await world.env.advance_time(60)
    assert not await world.store.servers.post_done(key(world))  # within the dead one's lease
    await world.env.advance_time(LEASE_S + 120)
    assert len(posts(board)) == 1
    assert await world.store.servers.post_done(key(world))


async def test_every_try_of_a_post_carries_the_same_nonce(world, board) -> None:
    await seed_day(world)
    world.env.inject_error("POST", f"/channels/{board.id}/messages", status=500)
    await world.env.advance_time(DAY_S + 60)
    await world.env.advance_time(120)  # retried
    sent = [
        r.json
        for r in world.env.http_requests
        if r.method == "POST" and r.path == f"/channels/{board.id}/messages"
    ]
    assert len(sent) >= 2 and len(posts(board)) == 1
    nonces = {(body or {}).get("nonce") for body in sent}
    assert len(nonces) == 1 and None not in nonces
    assert all((body or {}).get("enforce_nonce") is True for body in sent)
