"""Leaderboards, stats, history and game replays: the reasons players come back.

`_cog` has the commands, `_pages` the paging buttons (DynamicItems that survive
restarts), `_render` the embeds. Everything is read through `bot.store`.
"""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    """Extension entry point: needs `bot.store` (and `bot.service` for Set autocomplete)."""
    from bot.leaderboards._cog import LeaderboardsCog
    from bot.leaderboards._pages import PageButton

    bot.add_dynamic_items(PageButton)
    await bot.add_cog(LeaderboardsCog(bot))
