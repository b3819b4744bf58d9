"""A duel nobody played is void: no Elo, off the boards, and its summary says why
(issue 21: an AFK duel was rated as a draw)."""

from __future__ import annotations

import pytest

import rules
from tests.support.sim import answer, button_id, message_text, public_message

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def start_duel(world):
    offer = public_message(await world.alice.slash(world.channel, "duel", opponent=world.bob))
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    return world.thread()


async def let_every_round_pass(world, thread) -> None:
    for _ in range(rules.CLASSIC.max_rounds):
        await world.env.advance_time(rules.CLASSIC.time_limit + 1)


async def test_a_duel_nobody_answered_is_void_and_unrated(world) -> None:
    world.digits.extend(*["1234"] * 7)
    thread = await start_duel(world)
    await let_every_round_pass(world, thread)
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert record is None
    [played] = await world.store.games.history(world.guild.id, world.alice.id)
    assert played.state.outcome.termination is rules.Termination.VOID
    summary = message_text(thread.last_message)
    assert "voided" in summary and "Nobody answered" in summary, summary
    assert await world.store.boards.duel_leaderboard(world.guild.id) == []
    stats = await world.store.boards.player_stats(world.guild.id, world.alice.id)
    assert stats.duel is None and stats.games == 0


async def test_one_answer_makes_it_a_rated_draw(world) -> None:
    world.digits.extend(*["1234"] * 7)
    thread = await start_duel(world)
    await answer(world.bob, thread.last_message, "12+34")  # what the auto-move plays
    await let_every_round_pass(world, thread)
    summary = message_text(thread.last_message)
    assert "draw" in summary and "Nobody answered" not in summary, summary
    board = await world.store.boards.duel_leaderboard(world.guild.id)
    assert len(board) == 2
    stats = await world.store.boards.player_stats(world.guild.id, world.alice.id)
    assert stats.duel is not None and stats.games == 1
