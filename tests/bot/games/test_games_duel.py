"""Online Duel end to end: challenge, accept, secret answers, auto-move, ends, ratings."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from bot.storage import _ratings
from tests.support.sim import answer, answer_id, button_id, message_text, public_message, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def first_message(thread, message_id: int):
    return next(m for m in thread.history() if m.id == message_id)


async def start_duel(world, set_name: str = "darts"):
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob, set=set_name)
    message = public_message(challenge)
    assert "challenges" in message.content
    accepted = await world.bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    assert "accepted the duel" in reply_text(accepted)
    return world.thread()


async def test_duel_secret_answers_auto_move_win_and_ratings(world) -> None:
    world.digits.extend("3489", "6002")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    stranger = await world.carol.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    assert "Only the challenged player" in reply_text(stranger)
    await world.bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    thread = world.thread()
    assert any("accepted the duel" in m.content for m in world.channel.history())
    first = thread.last_message
    assert "Online Duel — round 1 of 7" in first.embeds[0].title

    acknowledged = await answer(world.alice, first, "3*4+89")
    assert all(f.ephemeral for f in acknowledged.followups)
    assert "secret" in reply_text(acknowledged) and "101" in reply_text(acknowledged)
    public = "\n".join(message_text(m) for m in thread.history())
    assert "3*4+89" not in public
    assert "has answered" in public
    twice = await answer(world.alice, first, "3+4+89")
    assert "already answered" in reply_text(twice)
    stranger = await world.carol.slash(thread, "answer", formula="3489")
    assert "Only the players" in reply_text(stranger)

    bob_modal = await world.bob.click(first, custom_id=answer_id(first))
    await world.env.advance_time(121)
    result = message_text(thread.history()[-2])
    assert "3*4+89" in result and "auto-move `34+89`" in result
    assert "Score **402**" in result and "Score **424**" in result
    assert not first_message(thread, first.id).components
    late = await world.bob.submit_modal(bob_modal, {"formula": "34+89"})
    assert "Too late" in reply_text(late)

    second = thread.last_message
    assert "round 2 of 7" in second.embeds[0].title
    await answer(world.bob, second, "6+0+0+2")
    await answer(world.alice, second, "600+2")
    summary = message_text(thread.last_message)
    assert f"<@{world.alice.id}> wins with Score 0 in round 2" in summary
    assert "1000 → **1016** (+16)" in summary and "1000 → **984** (-16)" in summary
    assert button_id(thread.last_message, "fd:rematch:")

    rematch = await world.bob.click(
        thread.last_message, custom_id=button_id(thread.last_message, "fd:rematch:")
    )
    assert "Rematch challenge posted" in reply_text(rematch)
    offer = world.channel.last_message
    assert f"<@{world.bob.id}> challenges <@{world.alice.id}>" in offer.content


async def test_both_reaching_zero_is_a_draw(world) -> None:
    world.digits.extend("7001")
    thread = await start_duel(world)
    first = thread.last_message
    await answer(world.alice, first, "700+1")
    await answer(world.bob, first, "700+1")
    summary = message_text(thread.last_message)
    assert "Both reached 0 in round 1: a draw" in summary
    assert "Perfect" in summary


async def test_max_rounds_without_zero_is_a_draw(world) -> None:
    one_round = rules.validate_set(
        "oneshot",
        {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 1, "min_rounds": 1,
         "time_limit": 30},
    )  # fmt: skip
    await world.store.sets.save_server_set(world.guild.id, one_round)
    world.digits.extend("3489")
    thread = await start_duel(world, "oneshot")
    assert "round 1 of 1" in thread.last_message.embeds[0].title
    first = thread.last_message
    await answer(world.alice, first, "34+89")
    await answer(world.bob, first, "3+4+8+9")
    assert "1 round played and nobody reached 0: a draw" in message_text(thread.last_message)


async def test_resign_gives_the_opponent_the_win(world) -> None:
    thread = await start_duel(world)
    resigned = await world.bob.slash(world.channel, "resign")
    assert "resigned" in reply_text(resigned)
    summary = message_text(thread.last_message)
    assert f"<@{world.bob.id}> resigned: <@{world.alice.id}> wins" in summary
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None


async def test_decline_expiry_and_refused_opponents(world) -> None:
    self_duel = await world.alice.slash(world.channel, "duel", opponent=world.alice)
    assert "cannot duel yourself" in reply_text(self_duel)
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    bot_duel = await world.alice.slash(world.channel, "duel", opponent=robot)
    assert "cannot duel a bot" in reply_text(bot_duel)

    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    await world.bob.click(message, custom_id=button_id(message, "fd:duel:no:"))
    assert "declined" in world.channel.history()[-1].content

    challenge = await world.alice.slash(world.channel, "duel", opponent=world.carol)
    message = public_message(challenge)
    await world.env.advance_time(301)
    assert "expired" in world.channel.history()[-1].content
    assert not world.channel.threads


async def test_a_failed_elo_write_is_retried_with_the_duels_end_and_counts_once(
    world, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save that ends the duel carries its Elo: when that write fails, the deadline's
    retry ends the duel again from the store, and both ratings move exactly once."""
    original, calls = _ratings.record_duel, []

    async def flaky(conn: Any, record: Any) -> Any:
        calls.append(record.state.id)
        if len(calls) == 1:
            raise ConnectionError("the database went away mid-write")
        return await original(conn, record)

    monkeypatch.setattr(_ratings, "record_duel", flaky)
    one_round = rules.validate_set(
        "oneshot",
        {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 1, "min_rounds": 1,
         "time_limit": 30},
    )  # fmt: skip
    await world.store.sets.save_server_set(world.guild.id, one_round)
    world.digits.extend("7001")
    thread = await start_duel(world, "oneshot")
    await answer(world.alice, thread.last_message, "700+1")  # Score 0
    await world.env.advance_time(31)  # bob's auto-move ends it; the Elo write fails
    await world.env.advance_time(120)  # the deadline's retry
    summary = message_text(thread.last_message)
    assert f"<@{world.alice.id}> wins" in summary
    assert "1000 → **1016** (+16)" in summary and "1000 → **984** (-16)" in summary
    board = await world.store.boards.duel_leaderboard(world.guild.id)
    assert [(r.user_id, r.rating, r.games) for r in board] == [
        (world.alice.id, 1016, 1),
        (world.bob.id, 984, 1),
    ]
    assert len(calls) >= 2
