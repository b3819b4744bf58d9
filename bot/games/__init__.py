"""The games' Discord face: slash commands, buttons, modals and messages for the game
flow in `bot.play`.

`_cog` and `_controls` translate Discord interactions into `GameService` calls; `_views`
are the buttons and modals; `_announce` (the flow's `GameEvents`), `_render` and
`_summary` show the results; `_places` and `_closing` open and archive the threads;
`_riding` answers through an interaction; `_discord` is
the bot-token REST layer over `bot.play`'s budget. The flow never imports this package
(tests/test_layering.py). See docs/ARCHITECTURE.md for the flow of one answer.
"""

from __future__ import annotations

from bot.games._announce import Announcer
from bot.games._closing import ThreadCloser
from bot.games._cog import GamesCog
from bot.games._controls import GameControlsCog
from bot.games._discord import INVALID_LIMIT, Lane, RestBudget, RestBusy, response_trace, with_retry
from bot.games._places import INVITE
from bot.games._render import outcome_text
from bot.games._summary import FIELD_MAX, round_line
from bot.games._views import DYNAMIC_ITEMS, QualificationButton

__all__ = [
    "DYNAMIC_ITEMS",
    "FIELD_MAX",
    "INVALID_LIMIT",
    "INVITE",
    "Announcer",
    "GameControlsCog",
    "GamesCog",
    "Lane",
    "QualificationButton",
    "RestBudget",
    "RestBusy",
    "ThreadCloser",
    "outcome_text",
    "response_trace",
    "round_line",
    "with_retry",
]
