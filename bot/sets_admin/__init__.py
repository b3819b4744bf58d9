"""Server admins manage their own Sets: `/sets add, edit, remove, show, list, import, export`.

`_manager` does the work without Discord (validation by rules, storage by the
Store), `_cog` turns interactions into one manager call each, `_render` draws
Sets and problem lists, `_validation` turns options and uploads into fields.
"""

from __future__ import annotations

from typing import Any

from bot.sets_admin._manager import (
    MAX_SERVER_SETS,
    ImportResult,
    ListedSet,
    SetsAdminError,
    SetsManager,
)

__all__ = ["MAX_SERVER_SETS", "ImportResult", "ListedSet", "SetsAdminError", "SetsManager"]


async def setup(bot: Any) -> None:
    """Extension entry point: the Sets of a server live in the bot's store, beside the
    global Sets the game service was given (see bot.app)."""
    from bot.sets_admin._cog import SetsAdminCog

    await bot.add_cog(SetsAdminCog(bot, SetsManager(bot.store, bot.service.global_sets)))
