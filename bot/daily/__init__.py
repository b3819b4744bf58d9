"""The daily post: each server's Qualification day, closed at its midnight (issue 12).

`_service` decides what is due and claims it exactly once (no Discord); `_render` draws
the embed and the Play button; `_discord` sends it.
"""

from bot.daily._discord import DiscordChannel
from bot.daily._service import Closest, DailyContent, DailyPosts, PostChannel

__all__ = ["Closest", "DailyContent", "DailyPosts", "DiscordChannel", "PostChannel"]
