"""The games feature: Training, Qualification and Online Duel in threads.

`_service` runs the games (no Discord) with its collaborators (`_active`,
`_in_flight`, `_seats`, `_challenges`, `_flow`, `_timers`); `_cog` and `_views`
translate Discord interactions into service calls; `_announce`, `_render` and
`_summary` show the results. See docs/ARCHITECTURE.md for the flow of one answer.
"""

from __future__ import annotations

from bot.games._announce import Announcer
from bot.games._best import accuracy, summary_best
from bot.games._closing import ThreadCloser
from bot.games._cog import GamesCog
from bot.games._controls import GameControlsCog
from bot.games._discord import Lane, RestBudget, RestBusy, with_retry
from bot.games._places import INVITE
from bot.games._render import outcome_text
from bot.games._reveals import reveal_played
from bot.games._service import GameService
from bot.games._summary import FIELD_MAX, round_line
from bot.games._types import (
    CHALLENGE_TTL,
    DigitsSource,
    Evaluating,
    GameError,
    GameEvents,
    NoEvents,
    Revealer,
    SubmitResult,
)
from bot.games._views import DYNAMIC_ITEMS, QualificationButton

__all__ = [
    "CHALLENGE_TTL",
    "DYNAMIC_ITEMS",
    "FIELD_MAX",
    "INVITE",
    "Announcer",
    "DigitsSource",
    "Evaluating",
    "GameControlsCog",
    "GameError",
    "GameEvents",
    "GameService",
    "GamesCog",
    "Lane",
    "NoEvents",
    "QualificationButton",
    "RestBudget",
    "RestBusy",
    "Revealer",
    "SubmitResult",
    "ThreadCloser",
    "accuracy",
    "outcome_text",
    "reveal_played",
    "round_line",
    "summary_best",
    "with_retry",
]
