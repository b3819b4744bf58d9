"""A server's settings, checked: a timezone zoneinfo knows, a language the catalog has,
a channel the bot can actually post the daily board in. No Discord here but the
permission names."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

import discord

import rules
from bot.common import UserError
from bot.i18n import day_of, t
from bot.settings import SoloGames
from bot.storage import ServerSettings, Store

LANGUAGES = ("en", "uk")
SOLO_PLACES = tuple(place.value for place in SoloGames)
"""`/config games`: the values of the bot's own `SOLO_GAMES`, stored as text."""

NEEDED: tuple[str, ...] = (
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
)
"""What the daily post needs in its channel, in the order a missing one is named (the
history: a post whose done mark was lost is looked for there before it is made again)."""

COMMON_ZONES = (
    "UTC",
    "Europe/Kyiv",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Warsaw",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Asia/Tokyo",
    "Australia/Sydney",
)


class ConfigError(UserError):
    """A refused `/config`; a missing permission is named as Discord's settings name it."""

    prefix = "config.errors."

    def display_params(self, locale: str) -> dict[str, Any]:
        shown = dict(self.params)
        if "permission" in shown:
            name = t(f"permissions.{shown['permission']}", locale)
            shown["permission"] = t("permissions.quoted", locale, name=name)
        return shown


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) | {"UTC"}


@functools.cache
def _spelled() -> dict[str, str]:
    """Each zone name by its lowercase form: `utc` and `europe/kyiv` are typed too, and no
    two IANA names differ only in case."""
    return {zone.lower(): zone for zone in _zones()}


def zone_choices(typed: str, limit: int = 25) -> list[str]:
    """Timezone names for autocomplete: the common ones first, then any that match."""
    needle = typed.strip().lower().replace(" ", "_")
    common = [z for z in COMMON_ZONES if needle in z.lower()]
    rest = sorted(z for z in _zones() if needle in z.lower() and z not in common)
    return (common + rest)[:limit]


def missing_permissions(granted: discord.Permissions) -> list[str]:
    return [name for name in NEEDED if not getattr(granted, name)]


class ServerConfig:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        """`on_change`: told after a change (the daily posts look at their times again)."""
        self.store = store
        self.clock = clock
        self.on_change = on_change

    async def _update(self, guild_id: int, **changes: Any) -> ServerSettings:
        settings = await self.store.servers.update(guild_id, self.clock(), **changes)
        self.on_change()
        return settings

    async def show(self, guild_id: int) -> ServerSettings:
        return await self.store.servers.settings(guild_id)

    async def set_channel(
        self, guild_id: int, channel_id: int | None, granted: discord.Permissions | None
    ) -> ServerSettings:
        """`granted`: the bot's permissions in that channel; refused if one is missing."""
        if channel_id is not None and granted is not None:
            missing = missing_permissions(granted)
            if missing:
                raise ConfigError("missing_permission", permission=missing[0])
        return await self._update(guild_id, channel_id=channel_id)

    async def set_web(self, guild_id: int, on: bool) -> ServerSettings:
        """Turn the server's web pages on or off (its page key is made once and kept)."""
        return await self.store.servers.set_web(guild_id, on, self.clock())

    async def set_language(self, guild_id: int, language: str | None) -> ServerSettings:
        if language is not None and language not in LANGUAGES:
            raise ConfigError("unknown_language", language=language)
        return await self._update(guild_id, language=language)

    async def set_solo_games(self, guild_id: int, place: str | None) -> ServerSettings:
        """Where one player's games are played here (None: the bot's own `SOLO_GAMES`)."""
        if place is not None and place not in SOLO_PLACES:
            raise ConfigError("unknown_place", place=place[:16])
        return await self._update(guild_id, solo_games=place)

    async def set_timezone(self, guild_id: int, name: str) -> ServerSettings:
        typed = name.strip()
        chosen = _spelled().get(typed.lower())
        if chosen is None:
            raise ConfigError("unknown_timezone", timezone=typed[:64])
        settings = await self.store.servers.settings(guild_id)
        refuse_going_back(settings.zone, zoneinfo.ZoneInfo(chosen), chosen, self.clock())
        return await self._update(guild_id, timezone=chosen)


def refuse_going_back(current: tzinfo, chosen: tzinfo, name: str, now: float) -> None:
    """Refuse a zone whose date is still behind the server's: the day that ended there
    (posted, its seeded Digits public) would be played again. A zone ahead or level
    only shortens or lengthens the running day, so it is taken at once; a zone behind
    is taken from its midnight into the server's current date."""
    moment = datetime.fromtimestamp(now, UTC)
    today = rules.period_of(moment, current)
    there = rules.period_of(moment, chosen)
    if there >= today:
        return
    eve = (datetime.strptime(today, "%Y-%m-%d") - timedelta(days=1)).strftime("%Y-%m-%d")
    at = int(rules.period_end(eve, chosen).timestamp())
    raise ConfigError(
        "timezone_behind", timezone=name, there=day_of(there), today=day_of(today), at=at
    )
