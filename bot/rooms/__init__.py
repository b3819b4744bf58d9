"""Rooms' Discord face: `/room`, its lobby, thread, rounds and final table, for the room's
flow in `bot.play.rooms` (which imports nothing of discord, nor of this package).

`_cog` turns interactions into flow calls (what players do rides their own tokens),
`_face` is the flow's `RoomFace` (the bot-token calls), `_render` the texts, `_views` the
persistent buttons and the modal, `_progress` the throttled "who has answered" edits,
`_chart` the Score chart and `_share` the share card.
"""

from __future__ import annotations

from bot.rooms._cog import RoomsCog
from bot.rooms._render import HISTORY_ROOMS, history_field, replay_embed, replay_pages

__all__ = ["HISTORY_ROOMS", "RoomsCog", "history_field", "replay_embed", "replay_pages"]
