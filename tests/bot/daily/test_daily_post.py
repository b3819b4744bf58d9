"""The daily post on simcord: made once when the server's day ends, with that day's
board, Perfects and best answers; after a restart across midnight; a claim left by a
crash is taken over after its lease; the Play button starts the new day's game."""

from __future__ import annotations

import pytest

from bot.daily._service import LEASE_S
from tests.bot.daily.seeds import seed_day
from tests.support.sim import answer, button_id, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY_S = 24 * 3600


def posts(channel) -> list:
    return [m for m in channel.history() if m.embeds and "final board" in m.embeds[0].title]


async def test_the_day_is_posted_once_when_it_ends_with_its_board_and_best_answers(
    world, board
) -> None:
    await seed_day(world)
    await world.env.advance_time(DAY_S - 60)
    assert posts(board) == []  # 23:59: the day is not over
    await world.env.advance_time(120)
    [post] = posts(board)
    text = message_text(post)
    assert "Qualification · darts · January 1, 2026: the final board" in text
    lines = post.embeds[0].description.splitlines()
    assert lines[0] == f"`1.` <@{world.alice.id}> — ⭐ Perfect in 4 rounds · 40.0 s"
    assert lines[1].startswith(f"`2.` <@{world.bob.id}> — 🎯 Score 0 in 5 rounds")
    assert "2 players on the board" in text and "⭐ Perfects: 1" in text
    fields = {f.name: f.value for f in post.embeds[0].fields}
    assert fields["Round 1: 1234"] == f"Best answer: `12+34+54` = 100 (<@{world.bob.id}>)"
    assert fields["Round 4: 1234"] == f"Best answer: `1+2+3+45` = 51 (<@{world.alice.id}>)"
    assert "Closest" not in text  # no solver given: those lines are left out
    await world.env.advance_time(3 * 3600)
    assert len(posts(board)) == 1


async def test_a_bot_down_across_midnight_posts_the_missed_day_when_it_starts(
    world, board, make_bot
) -> None:
    await seed_day(world)
    await world.env.advance_time(DAY_S - 600)
    world.bot.daily.stop()  # the process is down from 23:50 (simcord restarts in place)
    await world.env.advance_time(3600)
    assert posts(board) == []
    await world.env.restart_bot(make_bot())  # 00:50: back up, the missed post is made
    assert len(posts(board)) == 1
    await world.env.restart_bot(make_bot())  # a restart after the post makes no second one
    await world.env.advance_time(600)
    assert len(posts(board)) == 1


async def test_a_claim_left_by_a_crash_mid_post_is_taken_over_after_its_lease(world, board) -> None:
    await seed_day(world)
    key = (world.guild.id, "darts", "2026-01-01")
    assert await world.store.servers.claim_post(key, "crashed", DAY_S + 1_767_225_600.0, LEASE_S)
    await world.env.advance_time(DAY_S + 60)
    assert posts(board) == []  # another process holds the claim
    await world.env.advance_time(LEASE_S + 300)
    assert len(posts(board)) == 1
    assert await world.store.servers.post_done(key)


async def test_the_play_button_starts_the_new_days_qualification(world, board) -> None:
    await world.env.advance_time(DAY_S + 60)
    [post] = posts(board)
    assert "Nobody played this Qualification that day." in message_text(post)
    clicked = await world.carol.click(post, custom_id=button_id(post, "fd:qual:darts"))
    assert "Your **Qualification**" in reply_text(clicked)
    record = await world.store.games.active_game_of(world.guild.id, world.carol.id)
    assert record is not None and record.period == "2026-01-02"


async def test_the_post_waits_for_a_game_of_the_day_still_being_played(world, board) -> None:
    await world.env.advance_time(DAY_S - 60)
    await world.alice.slash(world.channel, "qualification")  # 23:59, the day's last game
    await world.env.advance_time(50)
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    digits = record.state.rounds[0].digits
    await answer(world.alice, world.thread().last_message, digits)  # round 2 until 00:01:50
    await world.env.advance_time(60)
    assert posts(board) == []  # 00:01: its Digits are still secret to her
    await world.alice.slash(world.channel, "resign")
    await world.env.advance_time(90)
    [post] = posts(board)
    assert f"Best answer: `{digits}` = {digits} (<@{world.alice.id}>)" in message_text(post)
