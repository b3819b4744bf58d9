"""An /answer from outside a thread game's thread (issue 28, "What players saw"): it
was accepted, and the next round went to the thread without a word, its clock running
where the player was not looking. The reply now says where that round is. A private
game's next round rides the answer instead (`test_limits_seen.py`). Failed first: the
reply was the verdict alone."""

from __future__ import annotations

import pytest

from tests.bot.games.test_games_duel import start_duel
from tests.support.sim import answer, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_an_answer_from_the_parent_channel_says_where_the_next_round_is(world) -> None:
    world.digits.extend("3489", "6002")
    thread = await start_duel(world)
    await answer(world.alice, thread.last_message, "34+89")
    done = await world.bob.slash(world.channel, "answer", formula="3+4+89")
    text = reply_text(done)
    assert "✅ Round 1" in text and "Round 2" in text and f"<#{thread.id}>" in text, text
    assert "round 2 of 7" in (thread.last_message.embeds[0].title or "")


async def test_an_answer_in_the_thread_says_nothing_more(world) -> None:
    world.digits.extend("3489", "6002")
    thread = await start_duel(world)
    await answer(world.alice, thread.last_message, "34+89")
    done = await world.bob.slash(thread, "answer", formula="3+4+89")
    assert f"<#{thread.id}>" not in reply_text(done), reply_text(done)
