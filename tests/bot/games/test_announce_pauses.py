"""A 429's pause never holds a game's announcements hostage (issue 29): a step whose
bot-token call meets the pause lets the game's voice go and waits outside it, so a
player's answer behind it is answered at once; the step goes on after the pause and
posts what is still unposted, not what a later step already moved past.

The chaos run's seed 3 stopped here: a round's expiry held the voice while its next
round's post slept through a Cloudflare 429's pause, and an `/answer` queued behind it."""

from __future__ import annotations

import pytest

from bot.play import PauseKind
from tests.support.sim import answer, button_id, public_message, reply_text, round_messages

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAUSE_S = 10.0
"""A global 429's Retry-After. simcord's 429s carry no headers (the bot takes them for a
Cloudflare ban), so the test pauses the budget as the response trace does on a global one."""


async def start_duel(world):
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    await world.bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    return world.thread()


def titles(thread) -> list[str]:
    return [m.embeds[0].title or "" for m in thread.history() if m.embeds]


async def test_an_answer_behind_a_round_expiry_waiting_out_a_429_is_answered_at_once(
    world,
) -> None:
    """Nobody answers round 1, so its expiry shows the result and round 2 by the bot
    token (no interaction of the game's to ride), during a global 429's pause. Before:
    the expiry held the game's voice through the pause, bob's `/answer` waited for the
    voice, and simcord's settle timed out (`bot did not settle`), as in seed 3."""
    world.digits.extend("3489", "6002", "7001")
    thread = await start_duel(world)
    first = thread.last_message
    await world.env.advance_time(118)
    world.bot.budget.pause(PAUSE_S, PauseKind.GLOBAL)
    await world.env.advance_time(3)  # round 1 ends inside the pause
    assert "round 2 of 7" not in " ".join(titles(thread))

    bobs = await world.bob.slash(thread, "answer", formula="6+0+0+2")
    assert "Your answer for round 2 is in" in reply_text(bobs)

    await world.env.advance_time(PAUSE_S)  # the pause is over: the expiry goes on
    assert not next(m for m in thread.history() if m.id == first.id).components
    twos = [m for m in round_messages(thread) if "round 2 of 7" in (m.embeds[0].title or "")]
    assert len(twos) == 1  # posted once, after the result
    (two,) = twos
    assert "has answered" in " ".join(str(e.to_dict()) for e in two.embeds)
    await answer(world.alice, two, "600+2")  # the game goes on as ever
    assert titles(thread)[-1].endswith("round 3 of 7")
