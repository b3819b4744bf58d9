"""Hand-made games for the storage tests, played through the real rules engine."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import rules
from bot.storage import GameRecord
from rules import GameState, Mode

GUILD = 7001
DAY = "2026-11-29"
START = 1_000_000.0

DARTS = dataclasses.replace(rules.CLASSIC, attempts=100)
"""The classic Set with room for many Qualification attempts per day, as the tables need."""

CHECKOUT_4 = [100, 100, 100, 51]  # 501 -> 351 -> 201 -> 51 -> 0: a Perfect
CHECKOUT_5 = [100, 100, 100, 100, 99]  # ... 51 -> 99 -> 0
NO_CHECKOUT = [1, 1, 1, 1, 1, 1, 1]  # seven rounds, 494 left


def single(
    game_id: str,
    player: int | str,
    results: Sequence[rules.Number],
    *,
    mode: Mode = Mode.QUALIFICATION,
    game_set: rules.GameSet = DARTS,
    seconds: float = 10.0,
    timeout: bool = False,
    digits: str = "1234",
) -> GameState:
    """A single-player game answering `results` in order, `seconds` per answer."""
    state = rules.new_game(game_id, mode, game_set, [str(player)])
    now = START
    for result in results:
        state = rules.apply(state, rules.StartRound(digits, now))
        state = rules.apply(state, rules.Submit(str(player), "1234", result, now + seconds))
        now += 200.0
    if timeout:
        state = rules.apply(state, rules.StartRound(digits, now))
        state = rules.apply(state, rules.Expire(now + game_set.time_limit + 1))
    return state


def duel(
    game_id: str,
    players: tuple[int, int],
    rounds: Sequence[tuple[rules.Number | None, rules.Number | None]],
    *,
    resign: int | None = None,
) -> GameState:
    """A duel; None for a player's result means the deadline's auto-move."""
    a, b = str(players[0]), str(players[1])
    state = rules.new_game(game_id, Mode.DUEL, rules.CLASSIC, [a, b])
    now = START
    for first, second in rounds:
        state = rules.apply(state, rules.StartRound("1234", now))
        for player, result in ((a, first), (b, second)):
            if result is not None:
                state = rules.apply(state, rules.Submit(player, "1234", result, now + 5))
        if state.current_round is not None:
            state = rules.apply(state, rules.Expire(now + 1000))
        now += 200.0
    if resign is not None:
        state = rules.apply(state, rules.Resign(str(players[resign])))
    return state


def record(state: GameState, *, guild: int = GUILD, period: str | None = DAY) -> GameRecord:
    qualification = state.mode is Mode.QUALIFICATION
    return GameRecord(
        state=state,
        guild_id=guild,
        channel_id=42,
        period=period if qualification else None,
        seed="seed" if qualification else None,
    )
