"""Hand-made finished games, played through the rules engine, saved straight to the store."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.storage import GameRecord, Store

DARTS = rules.CLASSIC
"""The global darts Set as sets.yaml has it (the same version): a board ranks one version."""
TODAY = "2026-01-01"  # simcord's virtual clock starts on this UTC day
CHECKOUT_4 = [100, 100, 100, 51]
CHECKOUT_5 = [100, 100, 100, 100, 99]
NO_CHECKOUT = [1] * 7


async def qualification(
    store: Store,
    guild: int,
    game_id: str,
    player: int,
    results: Sequence[rules.Number],
    *,
    period: str = TODAY,
    seconds: float = 10.0,
    game_set: rules.GameSet = DARTS,
    created_at: float = 1_767_225_600.0,
) -> GameRecord:
    state = rules.new_game(game_id, rules.Mode.QUALIFICATION, game_set, [str(player)])
    for number, result in enumerate(results):
        state = rules.apply(state, rules.StartRound("1234", 1000.0 * number))
        state = rules.apply(
            state, rules.Submit(str(player), "12*3+4", result, 1000.0 * number + seconds)
        )
    record = GameRecord(
        state=state,
        guild_id=guild,
        channel_id=1,
        period=period,
        seed="s",
        created_at=created_at,
    )
    await store.games.save_game(record)
    return record


async def duel(
    store: Store,
    guild: int,
    game_id: str,
    players: tuple[int, int],
    rounds: Sequence[tuple[rules.Number, rules.Number]],
    *,
    open_round: tuple[rules.Number | None, rules.Number | None] | None = None,
) -> GameRecord:
    state = rules.new_game(game_id, rules.Mode.DUEL, DARTS, [str(p) for p in players])
    plays = [*rounds, open_round] if open_round is not None else list(rounds)
    for number, pair in enumerate(plays):
        state = rules.apply(state, rules.StartRound("4589", 1000.0 * number))
        for player, result in zip(players, pair, strict=True):
            if result is not None:
                state = rules.apply(
                    state, rules.Submit(str(player), "4*5+89", result, 1000.0 * number + 5)
                )
    record = GameRecord(
        state=state, guild_id=guild, channel_id=1, created_at=1_767_225_600.0 + len(game_id)
    )
    await store.games.save_game(record)
    if state.outcome is not None:
        await store.boards.record_duel_result(record)
    return record
