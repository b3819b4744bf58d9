"""The daily post of a day where everyone who played lost (issue 21): it says so, not
"Nobody played"; and a day nobody played still says that."""

from __future__ import annotations

import pytest

import rules
from bot.storage import GameRecord
from tests.bot.daily.seeds import DARTS, DAY, played
from tests.support.sim import message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY_S = 24 * 3600


def posts(channel) -> list:
    return [m for m in channel.history() if m.embeds and "final board" in m.embeds[0].title]


async def timed_out(world, game_id: str, player: int) -> None:
    """A Qualification whose first round's deadline passed: lost on time."""
    state = rules.new_game(game_id, rules.Mode.QUALIFICATION, DARTS, [str(player)])
    state = rules.apply(state, rules.StartRound("1234", 0.0))
    state = rules.apply(state, rules.Expire(10_000.0))
    assert state.outcome is not None and state.outcome.termination is rules.Termination.TIMEOUT
    record = GameRecord(
        state=state,
        guild_id=world.guild.id,
        channel_id=1,
        period=DAY,
        seed="s",
        created_at=1_767_225_600.0,
    )
    await world.store.games.save_game(record)


async def test_a_day_everyone_lost_on_time_is_not_nobody_played(world, board) -> None:
    await timed_out(world, "a" * 32, world.alice.id)
    await timed_out(world, "b" * 32, world.bob.id)
    await played(world.store, world.guild.id, "c" * 32, world.carol.id, [("1234", 1234)])
    await world.env.advance_time(DAY_S + 60)
    [post] = posts(board)
    text = message_text(post)
    assert "Nobody played" not in text
    assert "Nobody made the board: all 3 players who played lost." in text
    assert "0 players on the board" not in text and "Perfects: 0" not in text
