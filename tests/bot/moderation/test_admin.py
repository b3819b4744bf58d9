"""/admin on simcord: hidden from players, voids a running or finished game, bars a player
from ranked play, keeps a log."""

from __future__ import annotations

import pytest

import rules
from tests.support.sim import answer, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_admin_is_hidden_from_players(world, admin) -> None:
    assert "admin void" in admin.available_commands(world.channel)
    assert not any(c.startswith("admin") for c in world.carol.available_commands(world.channel))


async def test_a_voided_qualification_leaves_the_board_and_gives_the_attempt_back(
    world, admin
) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "qualification")
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    digits = record.state.rounds[0].digits
    await answer(world.alice, world.thread().last_message, digits)
    game = record.state.id
    voided = await admin.slash(
        world.channel, "admin void", game=game[:8], reason="shared the Digits"
    )
    assert f"`{game[:8]}` is voided" in reply_text(voided)
    board = await world.bob.slash(world.channel, "leaderboard qualification")
    assert f"<@{world.alice.id}>" not in message_text(board.followups[0].message)
    again = await world.alice.slash(world.channel, "qualification")
    assert "Your **Qualification**" in reply_text(again)
    replay = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert replay.seed != record.seed  # not the Digits she has already seen
    log = reply_text(await admin.slash(world.channel, "admin log"))
    assert "voided" in log and "shared the Digits" in log


async def test_voiding_a_running_game_ends_it_without_a_result(world, admin) -> None:
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    await admin.slash(world.channel, "admin void", game=record.state.id, reason="test game")
    stored = await world.store.games.load_game(record.state.id)
    assert stored.state.outcome.termination is rules.Termination.VOID
    assert "voided" in message_text(thread.last_message)
    assert not world.bot.service.flow.timers.armed(record.state.id)


async def test_a_barred_player_plays_training_but_nothing_ranked(world, admin) -> None:
    await admin.slash(world.channel, "admin bar", user=world.bob, reason="alt account")
    refused = await world.bob.slash(world.channel, "qualification")
    assert "an admin barred you (alt account)" in reply_text(refused)
    duel = await world.bob.slash(world.channel, "duel", opponent=world.alice)
    assert "barred" in reply_text(duel)
    training = await world.bob.slash(world.channel, "training")
    assert "Your game is in" in reply_text(training)
    await world.bob.slash(world.channel, "resign")
    await admin.slash(world.channel, "admin unbar", user=world.bob, reason="appealed")
    allowed = await world.bob.slash(world.channel, "qualification")
    assert "Your **Qualification**" in reply_text(allowed)
