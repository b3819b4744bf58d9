"""Server admins manage their own Sets: `/sets add, edit, remove, show, list, import, export`.

`_manager` does the work without Discord (validation by rules, storage by the
Store), `_cog` turns interactions into one manager call each, `_render` draws
Sets and problem lists, `_validation` turns options and uploads into fields.
"""

from __future__ import annotations

from bot.sets_admin._cog import SetsAdminCog
from bot.sets_admin._manager import (
    MAX_SERVER_SETS,
    ImportResult,
    SetsAdminError,
    SetsManager,
)

__all__ = ["MAX_SERVER_SETS", "ImportResult", "SetsAdminCog", "SetsAdminError", "SetsManager"]
