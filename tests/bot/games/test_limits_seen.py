"""What players saw of issue 28's limits, each tried as a player would on simcord with
the default settings (private solo games). Each test here failed on the code before it."""

from __future__ import annotations

import pytest

from bot.games._closing import END_BUTTONS_S
from bot.games._places import AUTO_ARCHIVE_MINUTES
from bot.play._types import UNPOSTED
from rules import CLASSIC
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.bot.games.test_private_games import latest, mine, settings  # noqa: F401 (fixture)
from tests.support.sim import answer, button_id, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_restart_archives_no_ordinary_channel(world, make_bot) -> None:
    """A private game's place is the server's text channel: after a restart nothing
    may PATCH it `archived` (ThreadCloser.recover scheduled every finished game)."""
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    await game_id_of(world, world.alice)
    await answer(world.alice, latest(world, world.alice), "700+1")  # a checkout: over
    await world.env.advance_time(60)
    since = len(world.env.http_requests)
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(END_BUTTONS_S + AUTO_ARCHIVE_MINUTES * 60)
    patches = [
        r for r in world.env.http_requests[since:]
        if r.method == "PATCH" and r.path.endswith(f"/channels/{world.channel.id}")
    ]  # fmt: skip
    assert patches == []


@pytest.mark.parametrize(
    ("command", "shown"),
    [("qualification", "/qualification"), ("training", "/training"), ("practice", "/practice")],
)
async def test_a_refusal_from_another_channel_names_the_running_games_command(
    world, command, shown
) -> None:
    """It said "run /training there" whatever the game was."""
    await world.alice.slash(world.channel, command)
    other = world.guild.create_text_channel("elsewhere")
    refused = await world.alice.slash(other, "training")
    text = reply_text(refused)
    assert f"<#{world.channel.id}>" in text and shown in text, text
    wrong = {"/qualification", "/training", "/practice"} - {shown}
    assert not any(name in text for name in wrong), text


async def test_an_answer_from_another_channel_brings_the_next_round_there(world) -> None:
    """/answer elsewhere was taken, but round 2 went to the game's channel, unseen, its
    clock running there; it rides the answer's interaction now: shown where alice is."""
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    other = world.guild.create_text_channel("elsewhere")
    taken = await world.alice.slash(other, "answer", formula="34+89")
    assert "123" in reply_text(taken)
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is not None
    seen_there = [message_text(m) for m in other.history(viewer=world.alice)]
    assert any("2476" in text for text in seen_there), seen_there
    assert not other.history(viewer=world.bob)  # still alice's alone


async def voided_by_a_crash(world, make_bot, command: str) -> str:
    """Alice's private game of `command`, round 1 answered, then a crash before round 2's
    note was saved: no token can show round 2, so the game is void after its re-post
    bound (`UNPOSTED`). Its id."""
    await world.alice.slash(world.channel, command)
    game_id = await game_id_of(world, world.alice)
    rnd = live_round(world.env, game_id)
    await answer(world.alice, latest(world, world.alice), rnd.digits)
    world.bot.service.flow.shows.unsaved.clear()  # the crash: round 2's note never saved
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(20 * 60)
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.meta.void_reason == UNPOSTED
    return game_id


async def test_a_qualification_voided_after_a_crash_is_told_at_the_next_press(
    world, make_bot
) -> None:
    """A crash leaves round 2 unshowable (no token can post an ephemeral message): the
    game is void after its re-post bound and its attempt given back, and the player was
    told nothing; their next /qualification now says so, then starts the new attempt."""
    await voided_by_a_crash(world, make_bot, "qualification")
    before = {m.id for m in world.channel.history(viewer=world.alice)}
    await world.alice.slash(world.channel, "qualification")
    new = [m for m in world.channel.history(viewer=world.alice) if m.id not in before]
    texts = [message_text(m) for m in new]
    assert any("no attempt was used" in text for text in texts), texts
    assert "round 1 of 7" in (new[-1].embeds[0].title or ""), texts  # the attempt, anew
    assert await world.store.untold.all() == []


async def test_a_private_round_timed_out_after_a_clean_restart_is_told_at_the_next_press(
    world, make_bot
) -> None:
    """After a clean restart no interaction of alice's is kept: round 2 times out untold,
    its message keeping a live-looking Answer button. Her press on it says the game is
    over and takes the button away; her next /training tells her how it ended first."""
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    await answer(world.alice, latest(world, world.alice), "34+89")
    round_two = latest(world, world.alice)
    assert "round 2 of 7" in (round_two.embeds[0].title or "")
    await world.bot.service.close()  # a clean shutdown: round 2's note is saved
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(CLASSIC.time_limit + 1)
    pressed = await world.alice.click(round_two, custom_id=button_id(round_two, "fd:ans:"))
    assert "over" in reply_text(pressed).lower() or "ended" in reply_text(pressed).lower()
    shown = next(m for m in mine(world, world.alice) if m.id == round_two.id)
    assert not shown.components
    before = {m.id for m in mine(world, world.alice)}
    await world.alice.slash(world.channel, "training")
    texts = [message_text(m) for m in mine(world, world.alice) if m.id not in before]
    assert any("Time ran out in round 2" in text for text in texts), texts
