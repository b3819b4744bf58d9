"""One save per answer (issue 20): an answer is one `save_game` transaction, whatever the
mode. The note that the next round's message is up rides the next answer's save (its
clock runs from the post either way); a clean shutdown writes it, and a crash loses
only that note -- the round is posted again with its whole time, the answers stay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.app import create_bot
from bot.solving import ConfirmedSolver
from tests.support.fixtures import simulated, solver  # noqa: F401 (fixture)
from tests.support.sim import answer, button_id, public_message, reply_text, round_messages

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Saves:
    """Counts `save_game` calls on the store the bot uses."""

    def __init__(self, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = store.games.save_game

        async def counted(*args: Any, **kwargs: Any) -> None:
            self.count += 1
            await real(*args, **kwargs)

        monkeypatch.setattr(store.games, "save_game", counted)


def live(env, game_id: str):
    record = env.bot.service.active.get(game_id)
    return None if record is None else record.state.current_round


async def game_of(world, member) -> str:
    record = await world.store.games.active_game_of(world.guild.id, member.id)
    assert record is not None
    return record.state.id


@pytest.mark.parametrize("command", ["training", "qualification"])
async def test_a_single_players_answer_is_one_save(world, monkeypatch, command) -> None:
    world.digits.extend("3489", "2476", "1234", "5678")
    await world.alice.slash(world.channel, command)
    thread = world.thread()
    game_id = await game_of(world, world.alice)
    saves = Saves(world.store, monkeypatch)
    for _ in range(3):
        rnd = live(world.env, game_id)
        await answer(world.alice, thread.last_message, rnd.digits)
    assert saves.count == 3


async def test_a_duel_answer_is_one_save(world, monkeypatch) -> None:
    world.digits.extend("3489", "2476", "1234")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    game_id = await game_of(world, world.alice)
    saves = Saves(world.store, monkeypatch)
    for _ in range(2):
        rnd = live(world.env, game_id)
        await answer(world.alice, round_messages(thread)[-1], rnd.digits)
        await answer(world.bob, round_messages(thread)[-1], rnd.digits)
    assert saves.count == 4


@pytest_asyncio.fixture(loop_scope="session")
async def practising(settings, store, evaluator, solver) -> AsyncIterator[Any]:
    bot = create_bot(settings, store=store, evaluator=evaluator,
                     revealer=ConfirmedSolver(solver, evaluator))  # fmt: skip
    bot.service.flow.digits = lambda state, number: ["3489", "2476", "5183", "6702"][number - 1]
    async with simulated(bot) as env:
        guild = env.create_guild("Practice Club")
        yield env, guild, guild.create_text_channel("games")


async def test_a_practice_answer_is_one_save_the_bots_too(practising, monkeypatch) -> None:
    """The person answers first, so the bot answers at once on the person's interaction:
    two answers, two saves a round."""
    env, guild, channel = practising
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "practice", level="skilled")
    thread = channel.threads[-1]
    game = await env.bot.store.games.active_game_of(guild.id, alice.id)
    saves = Saves(env.bot.store, monkeypatch)
    for _ in range(2):
        rnd = live(env, game.state.id)
        if rnd is None:
            break
        await answer(alice, thread.last_message, rnd.digits)
    stored = await env.bot.store.games.load_game(game.state.id)  # the bot's answers, the person's
    answers = sum(a is not None for r in stored.state.rounds for a in r.answers)
    assert answers >= 2 and saves.count == answers


async def test_after_a_crash_every_answer_is_kept_and_the_round_is_posted_again(
    world, make_bot
) -> None:
    """The bot dies right after an answer's response (no clean shutdown): the answer is
    in the store, and the next round (which may be posted again: that it was up rode
    the next save) is answered after the restart with its whole time."""
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    game_id = await game_of(world, world.alice)
    done = await answer(world.alice, thread.last_message, "34+89")
    assert "✅" in reply_text(done)
    world.bot.service.flow.timers.close()  # a crash: nothing more of the old process runs
    await world.env.restart_bot(make_bot())
    stored = await world.store.games.load_game(game_id)
    assert stored.state.rounds[0].answers[0].formula == "34+89"
    up = round_messages(thread)[-1]
    assert "round 2 of 7" in (up.embeds[0].title or "")
    await world.env.advance_time(100)
    ok = await answer(world.alice, up, "2*47+6")
    assert "✅" in reply_text(ok)
    assert (await world.store.games.load_game(game_id)).state.rounds[1].answers[0] is not None


async def test_a_clean_shutdown_writes_that_the_round_is_up(world, make_bot) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    game_id = await game_of(world, world.alice)
    await answer(world.alice, thread.last_message, "34+89")
    posted = thread.last_message
    await world.bot.service.close()
    stored = await world.store.games.load_game(game_id)
    assert stored.meta.round_message_id == posted.id and stored.meta.round_message_of == 2
    assert stored.state.current_round.shown_at == pytest.approx(posted.created_at.timestamp())
    await world.env.restart_bot(make_bot())
    assert thread.last_message.id == posted.id  # nothing posted twice


async def test_after_a_crash_an_answer_from_the_rounds_first_post_ends_both(
    world, make_bot
) -> None:
    """The crash lost the note that round 2 was up, so it was posted again; an answer
    pressed on its first post ends that post too (by the answer's own response), so no
    Answer button is left on a round that is over."""
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "34+89")
    first = thread.last_message
    world.bot.service.flow.timers.close()
    await world.env.restart_bot(make_bot())
    assert thread.last_message.id != first.id  # round 2, posted again
    ok = await answer(world.alice, first, "2*47+6")
    assert "✅" in reply_text(ok)
    (up,) = round_messages(thread)  # only round 3 has an Answer button
    assert "round 3 of 7" in (up.embeds[0].title or "")
