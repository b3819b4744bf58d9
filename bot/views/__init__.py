"""What stored games show, for every face: the query layer (`_query`: a board, the duel
ratings, a player's record, a replay, as frozen view models), how a void reads (`_void`)
and a result's words (`_texts`). It loads no discord, so the web (`formula-darts web`, a
process of its own) draws the same models as the Discord embeds (`bot.leaderboards`).
"""

from __future__ import annotations

from bot.play import seal_of
from bot.views._query import (
    PAGE_SIZE,
    PERIODS,
    Board,
    BoardPeriod,
    DuelBoard,
    PlayerRecord,
    Replay,
    board,
    board_rows,
    duel_board,
    page_count,
    player,
    replay,
    since,
)
from bot.views._texts import game_result, ranking_result, version_label
from bot.views._void import VOID_REASON_MAX, void_text, voided

__all__ = [
    "PAGE_SIZE",
    "PERIODS",
    "VOID_REASON_MAX",
    "Board",
    "BoardPeriod",
    "DuelBoard",
    "PlayerRecord",
    "Replay",
    "board",
    "board_rows",
    "duel_board",
    "game_result",
    "page_count",
    "player",
    "ranking_result",
    "replay",
    "seal_of",
    "since",
    "version_label",
    "void_text",
    "voided",
]
