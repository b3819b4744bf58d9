"""Keeping a server's boards clean: `/admin void|unvoid|bar|unbar|log|fairplay`
for its managers.

`_service` does the work without Discord (a running game is ended as void through
the games, a finished one voided in the store), `_cog` turns commands into calls;
`_fairplay` computes `/admin fairplay`'s signals from stored games (`_fairplay_text`
words them), never acting on them.
"""

from bot.moderation._cog import AdminCog
from bot.moderation._fairplay import PLAYER_GAMES, SERVER_GAMES, FairPlayReport, report, signals
from bot.moderation._service import Moderation

__all__ = [
    "PLAYER_GAMES",
    "SERVER_GAMES",
    "AdminCog",
    "FairPlayReport",
    "Moderation",
    "report",
    "signals",
]
