"""What a game's summary needs to know of Discord's side without a REST call: the
players' names for the chart's legend (`SeenNames`), and whether the chart may be
attached in the game's place (`may_attach`). Apart from `Announcer`, which posts."""

from __future__ import annotations

import logging
from collections import OrderedDict

import discord

from bot.i18n import t
from bot.storage import GameRecord

log = logging.getLogger(__name__)

SEEN_NAMES_MAX = 10_000
"""Names kept for chart legends (about 1 MiB)."""


class SeenNames:
    """The names of users who interacted lately: the bot has no member cache (guilds
    intent only), and a picture's legend is not worth a REST call."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._seen: OrderedDict[int, str] = OrderedDict()

    def saw(self, user: discord.abc.User) -> None:
        """Remember the name of a user who just interacted; the oldest are forgotten."""
        self._seen.pop(user.id, None)
        self._seen[user.id] = user.display_name
        while len(self._seen) > SEEN_NAMES_MAX:
            self._seen.popitem(last=False)

    def seen_name(self, user_id: int) -> str | None:
        """The name of a user who interacted lately (no REST call), if still remembered."""
        return self._seen.get(user_id)

    def of(self, record: GameRecord, locale: str) -> dict[str, str]:
        """The players' names the client knows or saw interact lately (no REST call for a
        picture); "Player N" for the others (a restart forgets), never a raw id."""
        guild = self.client.get_guild(record.guild_id)
        names = {}
        for index, player in enumerate(record.state.players):
            known: str | None = None
            if player.isdigit():
                user_id = int(player)
                member = (guild.get_member(user_id) if guild else None) or self.client.get_user(
                    user_id
                )
                known = member.display_name if member else self._seen.get(user_id)
            names[player] = known or t("charts.player", locale, number=index + 1)
        return names


def may_attach(client: discord.Client, record: GameRecord) -> bool:
    """Whether the bot has Attach Files in the game's thread, as the gateway's cache
    knows (unknown: try, and a 403 on the upload still sends it without): an upload
    that 403s on every game counts toward Discord's invalid-request ban."""
    guild = client.get_guild(record.guild_id)
    me = guild.me if guild is not None else None
    place = guild.get_channel_or_thread(record.channel_id) if guild is not None else None
    if me is None or place is None:
        return True
    if place.permissions_for(me).attach_files:
        return True
    log.info("game %s: no Attach Files in its thread; the summary goes without its chart",
             record.state.id)  # fmt: skip
    return False
