"""Finished Qualification games made through the rules engine and saved to a store:
each player's formulas and Results chosen by the test, one per round."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.storage import GameRecord, Store

DARTS = rules.load_sets()["darts"]  # the Set the bot resolves: its version's board is posted
DAY = "2026-01-01"  # simcord's virtual clock starts at 00:00 UTC on this day


async def played(
    store: Store,
    guild: int,
    game_id: str,
    player: int,
    answers: Sequence[tuple[str, rules.Number]],
    *,
    digits: str = "1234",
    period: str = DAY,
    seconds: float = 10.0,
) -> GameRecord:
    """A Qualification of `answers` (formula, Result) on `digits`; it ends as the rules say
    (a checkout, or maxRound played), else it is resigned."""
    state = rules.new_game(game_id, rules.Mode.QUALIFICATION, DARTS, [str(player)])
    for number, (formula, result) in enumerate(answers):
        state = rules.apply(state, rules.StartRound(digits, 1000.0 * number))
        state = rules.apply(
            state, rules.Submit(str(player), formula, result, 1000.0 * number + seconds)
        )
    if state.outcome is None:
        state = rules.apply(state, rules.Resign(str(player)))
    record = GameRecord(
        state=state,
        guild_id=guild,
        channel_id=1,
        period=period,
        seed="s",
        created_at=1_767_225_600.0,
    )
    await store.games.save_game(record)
    return record


async def seed_day(world) -> None:
    alice, bob = world.alice.id, world.bob.id
    perfect = [("(1+2)*34-2", 100), ("1*2*34+32", 100), ("12*3+64", 100), ("1+2+3+45", 51)]
    await played(world.store, world.guild.id, "a" * 32, alice, perfect)
    five = [("12+34+54", 100), ("1*2*3*4", 100), ("1+2*34+31", 100), ("1+2+3+44", 50), ("1", 1)]
    await played(world.store, world.guild.id, "b" * 32, bob, five, seconds=5.0)
