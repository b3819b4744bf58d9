"""Ranked play that can't be copied, and nothing that matters held only in memory."""

from __future__ import annotations

import discord
import pytest
from simcord import SetupError

import rules
from bot.play import GameError
from bot.storage import ChallengeStatus
from tests.support.sim import (
    answer,
    answer_id,
    button_id,
    message_text,
    public_message,
    reply_text,
    speak,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


# ------------------------------------------------------- ranked play that can't be copied


async def test_a_qualification_is_played_where_only_its_player_sees_it(world) -> None:
    await world.alice.slash(world.channel, "qualification")
    thread = world.thread()
    assert thread.history(viewer=world.alice)  # alice plays in it
    with pytest.raises(SetupError):
        thread.history(viewer=world.bob)  # bob cannot read it
    stored = world.env.backend.channels[thread.id]
    assert stored.type == discord.ChannelType.private_thread.value
    created = next(
        r for r in world.env.http_requests if r.path.endswith(f"/{world.channel.id}/threads")
    )
    assert created.json["invitable"] is False  # nobody can invite others (simcord ignores it)
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    today = record.state.rounds[0].digits
    seen_by_bob = [m.content for m in world.channel.history(viewer=world.bob)]
    assert not any(today in text for text in seen_by_bob)  # a thread name at most


async def test_game_shows_others_only_the_outcome_until_the_day_ends(world) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "qualification")
    thread = world.thread()
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    digits = record.state.rounds[0].digits
    await answer(world.alice, thread.last_message, digits)  # whatever the Digits are
    replay = await world.bob.slash(world.channel, "game", id=record.state.id[:8])
    text = message_text(public_message(replay))
    assert digits not in text and "shown when the day ends" in text
    shared = await world.bob.slash(world.channel, "history", user=world.alice, share=True)
    history = message_text(public_message(shared))
    assert digits not in history
    await world.env.advance_time(24 * 3600)
    after = message_text(
        public_message(await world.bob.slash(world.channel, "game", id=record.state.id[:8]))
    )
    assert f"**{digits}**" in after


# ------------------------------------------------- nothing held only in process memory


async def test_a_modal_opened_before_a_restart_is_answered_after_it(world, make_bot) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    round_message = thread.last_message
    shown = await world.alice.click(round_message, custom_id=answer_id(round_message))
    assert shown.modal is not None
    await world.env.restart_bot(make_bot())
    submitted = await world.alice.submit_modal(shown, {"formula": "34+89"})
    assert "123" in reply_text(submitted)
    assert "Score **424**" in message_text(thread.history()[-2])


async def test_a_round_ended_after_a_restart_loses_its_button(world, make_bot) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    first = thread.last_message
    await world.env.restart_bot(make_bot())
    await answer(world.alice, first, "34+89")
    ended = next(m for m in thread.history() if m.id == first.id)
    assert not ended.components and "123" in message_text(ended)


async def test_a_challenge_expired_while_down_closes_in_its_language(world, make_bot) -> None:
    speak(world.env, world.alice, "uk")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    await world.bot.service.close()
    await world.env.advance_time(400)
    await world.env.restart_bot(make_bot())
    closed = next(m for m in world.channel.history() if m.id == offer.id)
    assert "скасовано" in closed.content and "expired" not in closed.content


async def test_a_duel_is_rematched_once_even_across_a_restart(world, make_bot) -> None:
    world.digits.extend("7001")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    await answer(world.bob, thread.last_message, "7001")
    summary = thread.last_message
    rematch_id = button_id(summary, "fd:rematch:")
    first = await world.alice.click(summary, custom_id=rematch_id)
    assert "Rematch challenge posted" in reply_text(first)
    await world.env.restart_bot(make_bot())
    with pytest.raises(GameError) as refused:
        await world.bot.service.rematch(rematch_id.split(":")[-1], world.bob.id)
    assert refused.value.code == "rematch_sent"


async def test_an_old_rounds_button_says_that_round_is_over(world) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    first = thread.last_message
    modal = await world.alice.click(first, custom_id=answer_id(first))
    await answer(world.alice, first, "34+89")  # answered in time, by /answer or a 2nd modal
    late = await world.alice.submit_modal(modal, {"formula": "3+4+89"})
    assert "That round is over" in reply_text(late) and "Too late" not in reply_text(late)


async def test_the_challenger_can_cancel_and_is_free_again(world) -> None:
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    stranger = await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:cancel:"))
    assert "Only" in reply_text(stranger)
    await world.alice.click(offer, custom_id=button_id(offer, "fd:duel:cancel:"))
    closed = next(m for m in world.channel.history() if m.id == offer.id)
    assert "cancelled" in closed.content and not closed.components
    stored = await world.store.challenges.load_challenge(
        button_id(offer, "fd:duel:cancel:").split(":")[-1]
    )
    assert stored.status is ChallengeStatus.CANCELLED
    started = await world.alice.slash(world.channel, "training")
    assert "Your game is in" in reply_text(started)


async def test_starting_and_resigning_in_a_loop_is_slowed(world) -> None:
    """One quick resign in the window is no start (a change of mind): the sixth game
    starts, the seventh waits."""
    for _ in range(6):
        started = await world.alice.slash(world.channel, "training")
        assert "Your game is in" in reply_text(started)
        await world.alice.slash(world.channel, "resign")
    refused = await world.alice.slash(world.channel, "training")
    assert "next one can start <t:" in reply_text(refused)
    assert len(world.channel.threads) == 6
    await world.env.advance_time(600)
    assert "Your game is in" in reply_text(await world.alice.slash(world.channel, "training"))


async def test_a_save_that_lands_but_reports_an_error_does_not_leave_the_game_stuck(
    world, monkeypatch
) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    real = world.store.games.save_game
    lied = []  # type: ignore[var-annotated]

    async def lands_then_fails(record, *, now=None):
        await real(record, now=now)
        if not lied and record.state.rounds and record.state.rounds[0].resolved:
            lied.append(True)
            raise OSError("connection reset after COMMIT (injected)")

    monkeypatch.setattr(world.store.games, "save_game", lands_then_fails)
    await answer(world.alice, thread.last_message, "34+89")
    assert lied
    await world.env.advance_time(3)  # the retry goes on from what the store holds
    assert "round 2 of 7" in thread.last_message.embeds[0].title
    second = await answer(world.alice, thread.last_message, "2*47+6")
    assert "100" in reply_text(second)


async def test_a_database_down_past_the_deadline_retries_is_swept_up(world, monkeypatch) -> None:
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    real = world.store.games.save_game
    down = [True]

    async def unavailable(record, *, now=None):
        if down[0]:
            raise OSError("could not connect to server (injected)")
        return await real(record, now=now)

    monkeypatch.setattr(world.store.games, "save_game", unavailable)
    await world.env.advance_time(121 + 300)  # the deadline and all its retries fail
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert record is not None and record.state.outcome is None
    down[0] = False
    await world.env.advance_time(600)  # the database is back: the next sweep resolves it
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    assert "Time ran out in round 1" in message_text(thread.last_message)
    stored = (await world.store.games.history(world.guild.id, world.alice.id))[0]
    assert stored.state.outcome.termination is rules.Termination.TIMEOUT


async def test_a_day_stays_sealed_while_its_last_games_are_played(world) -> None:
    """Everyone's Qualification of a day has the same Digits: at midnight a game still being
    played must not be able to read the rounds ahead in someone else's replay."""
    await world.alice.slash(world.channel, "qualification")
    record = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    await world.alice.slash(world.thread(), "resign")
    await world.env.advance_time(24 * 3600 - 60)  # 23:59
    await world.bob.slash(world.channel, "qualification")  # the same Digits as alice's
    await world.env.advance_time(70)  # 00:00:10, the new day
    bobs = world.thread()
    await answer(world.bob, bobs.last_message, record.state.rounds[0].digits)  # round 2 is on
    replay = await world.carol.slash(world.channel, "game", id=record.state.id[:8])
    assert f"**{record.state.rounds[0].digits}**" not in message_text(public_message(replay))
    await world.bob.slash(bobs, "resign")
    after = await world.carol.slash(world.channel, "game", id=record.state.id[:8])
    assert f"**{record.state.rounds[0].digits}**" in message_text(public_message(after))
