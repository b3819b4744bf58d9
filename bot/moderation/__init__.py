"""Keeping a server's boards clean: `/admin void|unvoid|bar|unbar|log` for its managers.

`_service` does the work without Discord (a running game is ended as void through
the games, a finished one voided in the store), `_cog` turns commands into calls.
"""

from bot.moderation._cog import AdminCog
from bot.moderation._service import Moderation

__all__ = ["AdminCog", "Moderation"]
