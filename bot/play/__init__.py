"""The game flow: Training, Qualification and Online Duel run here, without Discord.

`GameService` runs the games with its collaborators (`_active`, `_in_flight`,
`_seats`, `_challenges`, `_flow`, `_showing`, `_timers`, `_reveals`, `_practice`,
`_sweeper`); `_best` reads a finished round's best answer and accuracy, `_backfill`
finds and keeps those a finished game lacks (once, in the background), and `_budget`
keeps the bot token's REST calls under Discord's limits (plain asyncio), a 429's hold
of one bucket apart in `_holds`, a Cloudflare ban's in `_ban`.

Why a package of its own, beside `bot.games` rather than inside it: the flow is what a
second front end (the web, the terminal) drives, so it must load without discord.py;
`bot.games` is its Discord face and imports it, never the other way. What the flow
needs shown or posted is a Protocol here (`GameEvents`, `Via`, `Revealer`), implemented
by the face and passed in where the bot is assembled (`bot.app`).
`tests/test_layering.py` proves no module here imports discord, even indirectly.
"""

from __future__ import annotations

from bot.play._backfill import BestBackfill, backfilling, seal_of
from bot.play._best import accuracy, best_field, matched, summary_best
from bot.play._budget import (
    GLOBAL_LIMIT_PER_S,
    INVALID_LIMIT,
    SHARE_OF_GLOBAL,
    BudgetStats,
    Lane,
    PauseKind,
    RestBudget,
    StartRefused,
)
from bot.play._faces import Faces
from bot.play._holds import Bucket, BucketBusy, RestBusy
from bot.play._practice import DEFAULT_LEVEL
from bot.play._refusals import PlayingElsewhere, Refusal
from bot.play._service import GameService
from bot.play._timers import Timers, game_time
from bot.play._types import (
    CHALLENGE_TTL,
    UNPOSTED,
    ChannelLost,
    Clock,
    DigitsSource,
    Evaluating,
    GameError,
    GameEvents,
    NoEvents,
    OpenChannel,
    Paused,
    Posted,
    Revealer,
    SubmitResult,
    Unreachable,
    Via,
)
from bot.play._waiting import UNSEEN
from bot.storage import Face

__all__ = [
    "CHALLENGE_TTL",
    "DEFAULT_LEVEL",
    "GLOBAL_LIMIT_PER_S",
    "INVALID_LIMIT",
    "SHARE_OF_GLOBAL",
    "UNPOSTED",
    "UNSEEN",
    "BestBackfill",
    "Bucket",
    "BucketBusy",
    "BudgetStats",
    "ChannelLost",
    "Clock",
    "DigitsSource",
    "Evaluating",
    "Face",
    "Faces",
    "GameError",
    "GameEvents",
    "GameService",
    "Lane",
    "NoEvents",
    "OpenChannel",
    "PauseKind",
    "Paused",
    "PlayingElsewhere",
    "Posted",
    "Refusal",
    "RestBudget",
    "RestBusy",
    "Revealer",
    "StartRefused",
    "SubmitResult",
    "Timers",
    "Unreachable",
    "Via",
    "accuracy",
    "backfilling",
    "best_field",
    "game_time",
    "matched",
    "seal_of",
    "summary_best",
]
