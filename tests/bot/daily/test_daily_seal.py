"""The seal on simcord (issue 21): a Qualification day stays secret while a long game of
it still runs, however long past midnight; `/game` of someone's live Qualification shows
its outcome only, not its running Score."""

from __future__ import annotations

import pytest

import rules
from tests.support.sim import answer, message_text, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")

LONG = rules.GameSet(
    name="long", start_score=501, goal=100, bonus=50, max_rounds=50, time_limit=600, min_rounds=4
)
"""A server's Set of 50 rounds of 600 s: a game started at 23:50 may run until past 08:00."""


def posts_of(channel, set_name: str) -> list:
    titles = [(m, m.embeds[0].title or "") for m in channel.history() if m.embeds]
    return [m for m, title in titles if f"· {set_name} ·" in title and "final board" in title]


async def _answer_round(world, actor) -> str:
    """Answer the open round of `actor`'s Qualification with its Digits as they stand."""
    record = await world.store.games.active_game_of(world.guild.id, actor.id)
    digits = record.state.current_round.digits
    thread = next(t for t in reversed(world.channel.threads) if str(record.channel_id) == str(t.id))
    await answer(actor, thread.last_message, digits)
    return digits


async def test_a_day_stays_sealed_while_a_long_game_of_it_runs(world, board) -> None:
    await world.store.sets.save_server_set(world.guild.id, LONG)
    await world.env.advance_time(12 * 3600)  # noon: Bob plays the long Set and resigns
    await world.bob.slash(world.channel, "qualification", set="long")
    bobs = await world.store.games.active_game_of(world.guild.id, world.bob.id)
    first = await _answer_round(world, world.bob)
    await world.bob.slash(world.channel, "resign")
    await world.env.advance_time(11 * 3600 + 50 * 60 - 30)  # 23:50: Alice starts hers
    await world.alice.slash(world.channel, "qualification", set="long")
    for _ in range(9):  # she answers a round every eight minutes until 01:02
        await _answer_round(world, world.alice)
        await world.env.advance_time(8 * 60)
    await world.env.advance_time(60)
    assert world.env.now().strftime("%H:%M") == "01:02"
    sealed = message_text(shown(await world.carol.slash(world.channel, "game", id=bobs.state.id)))
    assert "a game of it is still being played" in sealed
    assert f"**{first}**" not in sealed  # Bob's Digits are the rounds Alice has to come
    assert posts_of(board, "long") == []  # the daily post waits too
    await world.alice.slash(world.channel, "resign")
    await world.env.advance_time(90)
    [post] = posts_of(board, "long")
    assert first in message_text(post)
    public = message_text(shown(await world.carol.slash(world.channel, "game", id=bobs.state.id)))
    assert f"**{first}**" in public


async def test_a_live_qualification_shows_others_its_outcome_only(world) -> None:
    await world.alice.slash(world.channel, "qualification")
    await _answer_round(world, world.alice)
    alices = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    score = rules.php_text(alices.state.scores[0], zero_fraction=False)
    live = shown(await world.carol.slash(world.channel, "game", id=alices.state.id))
    players = {f.name: f.value for f in live.embeds[0].fields}["Players"]
    assert players == f"<@{world.alice.id}>"  # not her running Score
    assert f"**{score}**" not in message_text(live) and "The game goes on." in message_text(live)
    assert "Being played: its Score is shown when the game ends." in message_text(live)
    await world.alice.slash(world.channel, "resign")
    ended = shown(await world.carol.slash(world.channel, "game", id=alices.state.id))
    players = {f.name: f.value for f in ended.embeds[0].fields}["Players"]
    assert players == f"<@{world.alice.id}> **{score}**"  # the outcome: the Score it ended on
