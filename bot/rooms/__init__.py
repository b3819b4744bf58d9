"""Rooms' Discord face: `/room`, its lobby, thread, rounds and final table, for the room's
flow in `bot.play.rooms` (which imports nothing of discord, nor of this package).

`_cog` turns interactions into flow calls (what players do rides their own tokens),
`_face` is the flow's `RoomFace` (the bot-token calls), `_render` the texts, `_views` the
persistent buttons and the modal, `_progress` the throttled "who has answered" edits,
`_chart` the Score chart and `_share` the share card.

The names load their module when first asked for: the chart worker unpickles
`_chart.room_chart`, which imports this package, and must not load the cog, discord.py's
machinery and the games with it (it did: seconds per worker start under load).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.rooms._cog import RoomsCog
    from bot.rooms._render import HISTORY_ROOMS, history_field, replay_embed, replay_pages

_HOMES = {
    "RoomsCog": "bot.rooms._cog",
    "HISTORY_ROOMS": "bot.rooms._render",
    "history_field": "bot.rooms._render",
    "replay_embed": "bot.rooms._render",
    "replay_pages": "bot.rooms._render",
}

__all__ = ["HISTORY_ROOMS", "RoomsCog", "history_field", "replay_embed", "replay_pages"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
