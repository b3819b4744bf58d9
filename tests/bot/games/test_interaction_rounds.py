"""Answered rounds ride their answer's interaction: the result is the response's edit of
the round's message and the next round is the interaction's followup, so a round
answered with the Answer button costs no bot-token call (issue 20). Counted by route
on simcord's request log; a timed-out round, a start, a summary and an archive still
use the bot token and are counted too."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.app import create_bot
from bot.games._closing import END_BUTTONS_S
from bot.solving import ConfirmedSolver
from tests.support.fixtures import simulated, solver  # noqa: F401 (fixture)
from tests.support.sim import answer, button_id, message_text, public_message, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def bot_token_calls(env, since: int = 0) -> list[str]:
    """REST calls under the bot token's global limit, as "METHOD route" (interaction
    callbacks and webhook followups are not under it)."""
    calls = []
    for r in env.http_requests[since:]:
        if r.path.startswith(("/interactions/", "/webhooks/")):
            continue
        route = "/".join("{id}" if part.isdigit() else part for part in r.path.split("/"))
        calls.append(f"{r.method} {route}")
    return calls


def by_route(env, since: int = 0) -> Counter[str]:
    return Counter(bot_token_calls(env, since))


def message(channel, message_id: int):
    return next(m for m in channel.history() if m.id == message_id)


def live_round(env, game_id: str):
    record = env.bot.service.active.get(game_id)
    return None if record is None else record.state.current_round


async def game_id_of(world, member) -> str:
    record = await world.store.games.active_game_of(world.guild.id, member.id)
    assert record is not None
    return record.state.id


async def start_duel(world):
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    return world.thread()


# ------------------------------------------------------------- single-player modes


@pytest.mark.parametrize("command", ["training", "qualification"])
async def test_a_round_answered_with_the_button_costs_no_bot_token_call(world, command) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, command)
    thread = world.thread()
    game_id = await game_id_of(world, world.alice)
    for number in (1, 2):
        rnd = live_round(world.env, game_id)
        assert rnd is not None and rnd.number == number
        since = len(world.env.http_requests)
        verdict = await answer(world.alice, thread.last_message, rnd.digits)
        assert f"Round {number}: `{rnd.digits}`" in reply_text(verdict)
        assert by_route(world.env, since) == Counter(), bot_token_calls(world.env, since)
        result, posted = thread.history()[-2:]
        assert f"Round {number} · {rnd.digits}" in result.embeds[0].title
        assert not result.components  # the result has no Answer button
        assert f"round {number + 1} of 7" in posted.embeds[0].title
        assert button_id(posted, "fd:ans:").endswith(f":{number + 1}")
    live = world.bot.service.active.get(game_id)  # which message is the live round's
    assert live.meta.round_message_id == thread.last_message.id
    assert live.meta.round_message_of == 3 and live.state.current_round.shown_at is not None
    stored = await world.store.games.load_game(game_id)  # the note rides the next answer's save
    assert stored.meta.round_message_of == 2 and stored.state.rounds[1].shown_at is not None


async def test_a_whole_training_answered_by_the_button_costs_at_most_five_calls(world) -> None:
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    game_id = await game_id_of(world, world.alice)
    while (rnd := live_round(world.env, game_id)) is not None:
        await answer(world.alice, thread.last_message, rnd.digits)
    assert "Share" in str(thread.last_message.components)
    await world.env.advance_time(END_BUTTONS_S + 1)  # the archive
    calls = bot_token_calls(world.env, since)
    print("whole training:", by_route(world.env, since))
    assert len(calls) <= 5, calls
    assert any(c.startswith("PATCH /channels/{id}") for c in calls)  # archived
    results = [m for m in thread.history() if m.embeds and " · " in (m.embeds[0].title or "")]
    assert len(results) == 7 and not any(m.components for m in results)


async def test_a_whole_qualification_answered_by_the_button_costs_four_calls(world) -> None:
    """Its private thread, the player added to it, round 1, the archive: the summary
    rides the last answer's interaction (issue 20's capacity per token)."""
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "qualification")
    thread = world.thread()
    game_id = await game_id_of(world, world.alice)
    while (rnd := live_round(world.env, game_id)) is not None:
        await answer(world.alice, thread.last_message, rnd.digits)
    await world.env.advance_time(END_BUTTONS_S + 1)
    calls = bot_token_calls(world.env, since)
    assert by_route(world.env, since) == Counter(
        {"POST /channels/{id}/threads": 1, "PUT /channels/{id}/thread-members/{id}": 1,
         "POST /channels/{id}/messages": 1, "PATCH /channels/{id}": 1}
    ), calls  # fmt: skip


async def test_a_whole_duel_answered_by_the_button_costs_three_calls(world) -> None:
    """The thread, round 1 and the archive; the challenge is the /duel's followup and the
    accept its button's response, every round and the summary ride the answers."""
    since = len(world.env.http_requests)
    thread = await start_duel(world)
    game_id = await game_id_of(world, world.alice)
    while (rnd := live_round(world.env, game_id)) is not None:
        await answer(world.alice, thread.last_message, rnd.digits)
        await answer(world.bob, message(thread, thread.last_message.id), rnd.digits)
    assert "Rematch" in str(thread.last_message.components)
    await world.env.advance_time(END_BUTTONS_S + 1)
    calls = bot_token_calls(world.env, since)
    assert len(calls) == 3, calls
    assert [c for c in calls if c.startswith("PATCH")] == ["PATCH /channels/{id}"], calls


async def test_an_interaction_that_fails_falls_back_to_the_bot_token(world) -> None:
    """The response's edit of the round fails with a dead token (401, 50027): the result
    is edited with the bot token, and so is the next round posted: a dead token is not
    tried again (issue 28; tests/bot/games/test_dead_tokens.py)."""
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    first = thread.last_message
    world.env.inject_error("PATCH", "/webhooks/*", status=401, code=50027, times=1)
    since = len(world.env.http_requests)
    await answer(world.alice, first, "34+89")
    assert bot_token_calls(world.env, since) == [
        "PATCH /channels/{id}/messages/{id}",
        "POST /channels/{id}/messages",
    ]
    assert "Round 1 · 3489" in message(thread, first.id).embeds[0].title
    assert "round 2 of 7" in thread.last_message.embeds[0].title


# ---------------------------------------------------------------------------- duel


async def test_a_duel_round_answered_by_both_with_the_button_costs_no_call(world) -> None:
    world.digits.extend("3489", "2476")
    thread = await start_duel(world)
    first = thread.last_message
    since = len(world.env.http_requests)
    await answer(world.alice, first, "3*4+89")
    assert by_route(world.env, since) == Counter(), bot_token_calls(world.env, since)
    shown = message(thread, first.id)
    assert "has answered" in message_text(shown) and shown.components  # 1 of 2, still open
    await answer(world.bob, shown, "34+89")
    assert by_route(world.env, since) == Counter(), bot_token_calls(world.env, since)
    result = message(thread, first.id)
    assert "Round 1 · 3489" in result.embeds[0].title and not result.components
    assert "round 2 of 7" in thread.last_message.embeds[0].title


async def test_an_answer_by_slash_command_costs_at_most_one_call(world) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    first = thread.last_message
    since = len(world.env.http_requests)
    ok = await world.alice.slash(thread, "answer", formula="34+89")
    assert "123" in reply_text(ok)
    calls = bot_token_calls(world.env, since)
    assert len(calls) <= 1, calls
    old = message(thread, first.id)
    assert "Round 1 · 3489" in old.embeds[0].title and not old.components
    assert "round 2 of 7" in thread.last_message.embeds[0].title


# ------------------------------------------------------------------------ timeouts


async def test_a_timed_out_duel_round_costs_at_most_two_calls(world) -> None:
    world.digits.extend("3489", "2476")
    thread = await start_duel(world)
    first = thread.last_message
    since = len(world.env.http_requests)
    await world.env.advance_time(125)
    calls = bot_token_calls(world.env, since)
    assert len(calls) <= 2, calls
    assert not message(thread, first.id).components
    assert "round 2 of 7" in thread.last_message.embeds[0].title


async def test_a_timed_out_round_after_an_answered_one_rides_the_kept_interaction(world) -> None:
    """Round 2 was posted as bob's answer's followup: when nobody answers it, its result
    is that followup's edit and round 3 another followup of the same (fresh) token, so
    the timeout posts nothing by the bot token (it only asks whether the players left)."""
    world.digits.extend("3489", "2476", "1234")
    thread = await start_duel(world)
    await answer(world.alice, thread.last_message, "3*4+89")
    await answer(world.bob, message(thread, thread.last_message.id), "34+89")
    second = thread.last_message
    assert "round 2 of 7" in second.embeds[0].title
    since = len(world.env.http_requests)
    await world.env.advance_time(125)
    posted = [c for c in bot_token_calls(world.env, since) if not c.startswith("GET")]
    assert posted == [], bot_token_calls(world.env, since)
    assert not message(thread, second.id).components
    assert "round 3 of 7" in thread.last_message.embeds[0].title


async def test_a_round_lost_on_time_reads_as_ended(world) -> None:
    """Issue 21: the message of a round that ended on time no longer says "Press Answer"."""
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    first = thread.last_message
    since = len(world.env.http_requests)
    await world.env.advance_time(125)
    ended = message(thread, first.id)
    assert not ended.components
    assert "Press Answer" not in message_text(ended)
    assert "Time ran out" in message_text(ended)
    summary_calls = [c for c in bot_token_calls(world.env, since) if c.startswith("POST")]
    edits = [c for c in bot_token_calls(world.env, since) if c.startswith("PATCH")]
    assert len(edits) <= 1 and len(summary_calls) == 1, bot_token_calls(world.env, since)


# ------------------------------------------------------------------------ practice


@pytest_asyncio.fixture(loop_scope="session")
async def practising(settings, store, evaluator, solver) -> AsyncIterator[Any]:
    bot = create_bot(settings, store=store, evaluator=evaluator,
                     revealer=ConfirmedSolver(solver, evaluator))  # fmt: skip
    bot.service.flow.digits = lambda state, number: ["3489", "2476", "5183", "6702"][number - 1]
    async with simulated(bot) as env:
        guild = env.create_guild("Practice Club")
        yield env, guild, guild.create_text_channel("games")


@pytest.mark.parametrize("first", ["the bot", "the person"])
async def test_a_practice_round_costs_no_bot_token_call(practising, first) -> None:
    """The person's answer is the round's interaction: when the bot answered first its
    answer waits for it; when the person answers first the bot answers at once."""
    env, guild, channel = practising
    alice = guild.add_member(env.create_user(f"alice-{first.split()[1]}"))
    await alice.slash(channel, "practice", level="skilled")
    thread = channel.threads[-1]
    game = await env.bot.store.games.active_game_of(guild.id, alice.id)
    for number in (1, 2):
        since = len(env.http_requests)
        if first == "the bot":  # it thinks at most a fifth of the time limit, then solves
            for _ in range(60):
                await env.advance_time(1)
                if live_round(env, game.state.id).answers[1] is not None:
                    break
            assert live_round(env, game.state.id).answers[1] is not None
        rnd = live_round(env, game.state.id)
        assert rnd.number == number
        await answer(alice, thread.last_message, rnd.digits)
        assert by_route(env, since) == Counter(), bot_token_calls(env, since)
        result = next(m for m in thread.history() if f"Round {number} · " in embed_title(m))
        assert not result.components
        if live_round(env, game.state.id) is None:  # the bot checked out: the summary rode too
            assert "game over" in embed_title(thread.last_message)
            return
        posted = thread.last_message
        assert f"round {number + 1} of 7" in posted.embeds[0].title, message_text(posted)


def embed_title(message) -> str:
    return (message.embeds[0].title or "") if message.embeds else ""
