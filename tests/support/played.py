"""Finished games made by hand through the real rules (`rules.apply`), for pure renderers.

A round is its Digits and each player's answer: a (formula, Result) pair as PHP
would give it, or None for no answer (a single game's timeout, a duel's auto-move).
"""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.storage import GameRecord

Answer = tuple[str, rules.Number] | None
PLAYERS = ("111", "222")
START = 1_764_460_800.0
"""2025-11-30 00:00 UTC."""


def play(
    rounds: Sequence[tuple[str, Sequence[Answer]]],
    *,
    mode: rules.Mode = rules.Mode.TRAINING,
    game_set: rules.GameSet = rules.CLASSIC,
    resign_after: int | None = None,
    period: str | None = None,
    until_over: bool = False,
) -> GameRecord:
    """The game after these rounds; `resign_after` rounds, player 0 resigns instead.

    Rounds after the game is over are an error, or skipped with `until_over`.
    """
    players = list(PLAYERS[: mode.players])
    state = rules.new_game("g-" + "0" * 30, mode, game_set, players)
    now = START
    for number, (digits, answers) in enumerate(rounds, start=1):
        if state.outcome is not None:
            if until_over:
                break
            raise ValueError(f"the game ended before round {number}")
        state = rules.apply(state, rules.StartRound(digits, now))
        if resign_after is not None and number > resign_after:
            break
        for player, answer in zip(players, answers, strict=True):
            if answer is not None:
                formula, result = answer
                state = rules.apply(state, rules.Submit(player, formula, result, now + 7))
        if state.current_round is not None:
            state = rules.apply(state, rules.Expire(now + game_set.time_limit))
        now += 200
    if resign_after is not None and state.outcome is None:
        state = rules.apply(state, rules.Resign(players[0]))
    return GameRecord(state, 1, 2, period, None, {}, START)  # type: ignore[arg-type]


PERFECT = [
    ("3489", [("34+89", 123)]),  # 77 -> 424
    ("2476", [("2*47+6", 100)]),  # 100 + 50 -> 274
    ("9010", [("90+10", 100)]),  # 150 -> 124
    ("3240", [("324+0", 324)]),  # |100 - 224| = 124 -> 0: checkout in 4, Perfect
]
BOUNCING = [
    ("3489", [("34+89", 123)]),  # 77 -> 424
    ("1234", [("1234", 1234)]),  # 1034 -> 610: up, still on the chart
    ("9999", [("pow(9,9)*99", 38354628411)]),  # 38354628211 -> 38354627601: off the chart
    ("9999", [("pow(9,9)*99", 38354628411)]),  # and back: 610
    ("2476", [("2*47+6", 100)]),  # 150 -> 460
    ("7531", [("7*5+31", 66)]),  # 66 -> 394
    ("5019", [("50*1+9", 59)]),  # 59 -> 335
]
