"""A duel round where one player answered and the other did not (issue 28): at the
deadline the round's end and the next round ride the answering player's interaction
(kept with the game), so the round costs at most 1 bot-token call (the check whether
the absent player left the server). Counted by route on simcord; it cost 3 before
(the result's edit and the next round's post went by the bot token)."""

from __future__ import annotations

import pytest

from tests.bot.games.test_interaction_rounds import (
    bot_token_calls,
    game_id_of,
    live_round,
    message,
    start_duel,
)
from tests.support.sim import answer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_duel_round_one_player_missed_costs_at_most_one_call(world) -> None:
    world.digits.extend("3489", "2476", "1234")
    thread = await start_duel(world)
    game_id = await game_id_of(world, world.alice)
    first = thread.last_message
    since = len(world.env.http_requests)
    await answer(world.alice, first, "3*4+89")  # bob never answers round 1
    await world.env.advance_time(125)
    calls = bot_token_calls(world.env, since)
    assert len(calls) <= 1, calls  # 2 before: the result's edit and round 2's post
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is not None
    assert not message(thread, first.id).components
    assert "round 2 of 7" in thread.last_message.embeds[0].title
