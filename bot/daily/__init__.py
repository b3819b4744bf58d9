"""The daily post: each server's Qualification day, closed at its midnight (issue 12).

`_service` decides what is due and claims it exactly once (no Discord), `_content` is
what a post carries and the seams it goes through; `_ahead` solves
the day's closest formulas before its midnight; `_render` draws the embed and the Play
button; `_discord` sends it through the REST budget's daily lane.
"""

from bot.daily._ahead import Closest, DayAhead
from bot.daily._content import DailyContent, DayExtras, PostChannel
from bot.daily._discord import DiscordChannel
from bot.daily._render import daily_embed
from bot.daily._service import DailyPosts

__all__ = [
    "Closest",
    "DailyContent",
    "DailyPosts",
    "DayAhead",
    "DayExtras",
    "DiscordChannel",
    "PostChannel",
    "daily_embed",
]
