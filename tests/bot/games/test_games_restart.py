"""Restart recovery: games go on after `restart_bot`, old buttons keep working,
and a round whose deadline passed while the bot was down is played again."""

from __future__ import annotations

import pytest

from tests.support.sim import answer, message_text, public_message, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_training_goes_on_after_a_restart(world, make_bot) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "34+89")
    second = thread.last_message
    await world.env.restart_bot(make_bot())

    done = await answer(world.alice, second, "2*47+6")
    assert "100" in reply_text(done)
    assert "Score **274**" in message_text(thread.history()[-2])
    assert "round 3 of 7" in thread.last_message.embeds[0].title
    await world.env.advance_time(121)
    assert "Time ran out in round 3" in message_text(thread.last_message)


async def test_a_round_missed_while_down_is_replayed(world, make_bot) -> None:
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    first = thread.last_message
    await world.bot.service.close()  # the bot goes down: its timers stop
    await world.env.advance_time(600)
    await world.env.restart_bot(make_bot())

    replay = thread.last_message
    assert replay.id != first.id
    assert "played again" in message_text(replay)
    assert replay.embeds[0].fields[0].value == "**3489**"
    assert "round 1 of 7" in replay.embeds[0].title
    accepted = await answer(world.alice, replay, "34+89")
    assert "123" in reply_text(accepted)
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert game is not None and len(game.state.rounds) == 2 and game.state.scores == [424]


async def test_duel_round_is_resolved_once_across_a_restart(world, make_bot) -> None:
    world.digits.extend("3489", "7001")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    yes = next(
        c.custom_id  # type: ignore[union-attr]
        for row in message.components
        for c in row.children  # type: ignore[union-attr]
        if "yes" in c.custom_id  # type: ignore[operator, union-attr]
    )
    await world.bob.click(message, custom_id=yes)
    thread = world.thread()
    first = thread.last_message
    await answer(world.alice, first, "3*4+89")
    await world.env.restart_bot(make_bot())

    await answer(world.bob, first, "34+89")
    result = message_text(thread.history()[-2])
    assert "3*4+89" in result and "34+89" in result
    assert "round 2 of 7" in thread.last_message.embeds[0].title
    game = await world.store.games.active_game_of(world.guild.id, world.bob.id)
    assert game is not None and game.state.scores == [402, 424]
    assert sum(r.resolved for r in game.state.rounds) == 1


async def test_a_challenge_that_expired_while_down_is_closed(world, make_bot) -> None:
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    await world.bot.service.close()
    await world.env.advance_time(400)
    await world.env.restart_bot(make_bot())
    closed = next(m for m in world.channel.history() if m.id == message.id)
    assert "expired" in closed.content
    assert not closed.components
    stored = await world.store.challenges.load_challenge(
        next(c.custom_id for row in message.components for c in row.children).split(":")[-1]  # type: ignore[union-attr]
    )
    assert stored is not None and stored.status == "expired"
