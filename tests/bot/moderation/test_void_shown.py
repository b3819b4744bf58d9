"""A voided game shows as void with its reason wherever a game is shown (issue 21), on
simcord: `/history` and `/game` of a game voided after it ended no longer show its old
result; voiding twice is refused like barring twice; a voided duel's players leave the
Elo board when it was their only rated duel."""

from __future__ import annotations

import pytest

from tests.support.sim import answer, button_id, message_text, public_message, reply_text, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")


def text(result) -> str:
    """What the command showed: its public page, or its private reply."""
    seen = shown(result)
    return message_text(getattr(seen, "message", seen))


async def test_a_finished_game_voided_shows_void_and_why(world, admin) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    await answer(world.alice, world.thread().last_message, "700+1")  # Score 0: won
    before = text(await world.bob.slash(world.channel, "history", user=world.alice))
    assert "Perfect in 1 round" in before
    voided = await admin.slash(world.channel, "admin void", game=game.state.id[:8], reason="alt")
    assert "is voided" in reply_text(voided)
    history = text(await world.bob.slash(world.channel, "history", user=world.alice))
    assert "⛔ void: by an admin (alt)" in history and "Perfect" not in history
    replay = text(await world.bob.slash(world.channel, "game", id=game.state.id[:8]))
    assert "⛔ void: by an admin (alt)" in replay and "won" not in replay.lower()
    again = await admin.slash(world.channel, "admin void", game=game.state.id[:8], reason="x")
    assert f"Game `{game.state.id[:8]}` is void already" in reply_text(again)
    log = reply_text(await admin.slash(world.channel, "admin log"))
    assert log.count("voided") == 1


async def test_a_game_voided_while_running_says_why(world, admin) -> None:
    await world.alice.slash(world.channel, "training")
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    await admin.slash(world.channel, "admin void", game=game.state.id, reason="test game")
    history = text(await world.alice.slash(world.channel, "history"))
    assert "⛔ void: by an admin (test game)" in history
    again = await admin.slash(world.channel, "admin void", game=game.state.id, reason="again")
    assert "is void already" in reply_text(again)


async def test_a_voided_duels_players_leave_the_elo_board(world, admin) -> None:
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    await world.bob.slash(world.channel, "resign")  # Alice wins: both are rated
    board = text(await world.carol.slash(world.channel, "leaderboard duel"))
    assert f"<@{world.alice.id}>" in board and f"<@{world.bob.id}>" in board
    await admin.slash(world.channel, "admin void", game=game.state.id[:8], reason="collusion")
    board = text(await world.carol.slash(world.channel, "leaderboard duel"))
    assert f"<@{world.alice.id}>" not in board and f"<@{world.bob.id}>" not in board
    assert "No rated duels on this server yet" in board
    replay = text(await world.carol.slash(world.channel, "game", id=game.state.id[:8]))
    assert "⛔ void: by an admin (collusion)" in replay and "wins" not in replay
