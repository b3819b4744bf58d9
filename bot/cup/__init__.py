"""The Cup (RULES.md "Cup", issue 31): a server's tournament of one Set, seeded by its
Qualification (or open entry by Elo), drawn once at its start.

`_spec` checks an admin's settings (every problem at once), `_seeding` reads who plays,
`_service` is what admins and players ask and the results, `_schedule` announces and
draws each Cup once; none of them loads discord. `_cog`, `_views`, `_discord` and
`_render` are its Discord face. `CupEvents` is the seam other features hear a champion
crowned through.
"""

from collections.abc import Callable
from typing import Any

from bot.common import SetsDirectory
from bot.cup._cog import CupCog
from bot.cup._discord import DiscordCupFace
from bot.cup._events import CupEvents, CupFace, NoCupEvents
from bot.cup._schedule import CupSchedule
from bot.cup._service import CupService
from bot.games import RestBudget
from bot.play import GameService
from bot.storage import Store

__all__ = [
    "CupCog",
    "CupEvents",
    "CupFace",
    "CupSchedule",
    "CupService",
    "DiscordCupFace",
    "NoCupEvents",
    "cup_cog",
]


def cup_cog(bot: Any, games: GameService, store: Store, sets: SetsDirectory,
            budget: RestBudget | None, clock: Callable[[], float],
            owns: Callable[[int], bool], events: CupEvents | None = None) -> CupCog:  # fmt: skip
    """The `/cup` cog with its service, schedule and Discord face, as `bot.app` adds it:
    its legs are duels of `games`, through their public API; `events` hears of each
    champion (the bot's achievements and roles)."""
    face = DiscordCupFace(bot, games, budget)
    cups = CupService(store, sets, face, clock, events)
    schedule = CupSchedule(cups, owns)
    cups.on_change = schedule.poke
    return CupCog(bot, cups, schedule)
