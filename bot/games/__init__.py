"""The games feature: Training, Qualification and Online Duel in threads.

`_service` runs the games (no Discord), `_cog` and `_views` translate Discord
interactions into service calls, `_announce` and `_render` show the results.
"""

from __future__ import annotations

from typing import Any

from bot.games._announce import Announcer
from bot.games._service import GameService
from bot.games._types import CHALLENGE_TTL, DigitsSource, GameError, GameEvents, SubmitResult
from bot.games._views import DYNAMIC_ITEMS

__all__ = [
    "CHALLENGE_TTL",
    "DYNAMIC_ITEMS",
    "Announcer",
    "DigitsSource",
    "GameError",
    "GameEvents",
    "GameService",
    "SubmitResult",
]


async def setup(bot: Any) -> None:
    """Extension entry point: the bot provides `service` and `announcer` (see bot.app)."""
    from bot.games._cog import GamesCog

    await bot.add_cog(GamesCog(bot, bot.service, bot.announcer))
