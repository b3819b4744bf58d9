"""Pages of a list and the buttons that turn them.

A page is fully described by a small request (what, for whom, which page) that
lives in the buttons' custom_id, as discord.py's DynamicItem allows: paging
keeps working after a restart, and nothing is kept in memory per message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, tzinfo
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import discord

from bot.common.interactions import loaded_cog, report_unexpected
from bot.i18n import t
from bot.leaderboards import _render, _views
from bot.play import Revealer
from bot.storage import Store

COG_NAME = "Leaderboards"
PAGE_SIZE = _views.PAGE_SIZE
_TEMPLATE = r"fd:pg:(?P<kind>[qdhg]):(?P<owner>\d+):(?P<page>\d+):(?P<arg>[\w:-]*)"


class PageKind(StrEnum):
    """What a page lists; the value is its one letter in a button's custom_id."""

    QUALIFICATION = "q"
    DUEL = "d"
    HISTORY = "h"
    GAME = "g"


@dataclass(frozen=True)
class PageRequest:
    """`arg`: 'period:set:version' for qualification, a user id for history, a game id
    for a game."""

    kind: PageKind
    owner: int
    page: int = 0
    arg: str = ""

    @property
    def custom_id(self) -> str:
        return f"fd:pg:{self.kind.value}:{self.owner}:{self.page}:{self.arg}"


@runtime_checkable
class PageTurner(Protocol):
    """What a page button needs from the leaderboards cog."""

    async def turn_page(
        self, interaction: discord.Interaction[Any], request: PageRequest
    ) -> None: ...


def qualification_arg(arg: str) -> tuple[str, str, str | None]:
    """'period:set:version' (the version may be "", games from before versions); a
    button posted before versions says 'period:set' and shows every version, as then."""
    period, _, rest = arg.partition(":")
    set_name, has_version, version = rest.partition(":")
    return period, set_name, version if has_version else None


def since(period: str, now: datetime | None = None, tz: tzinfo = UTC) -> str | None:
    """The first Qualification period (a day in the server's timezone) a board includes."""
    return _views.since(period, now or discord.utils.utcnow(), tz)


@dataclass
class Page:
    """`pages` is the list's length in pages; a `private` page is an error only the asker sees."""

    embed: discord.Embed
    has_next: bool
    request: PageRequest
    pages: int = 1
    private: bool = False


def page_count(total: int) -> int:
    return _views.page_count(total, PAGE_SIZE)


async def build(
    store: Store,
    guild_id: int,
    request: PageRequest,
    locale: str,
    name: str,
    revealer: Revealer | None = None,
) -> Page:
    """Fetch one page and the list's size (a count on the same index), for "Page 1 of N".

    `revealer` finds a finished Qualification's best answers for `/game` once its period
    has ended (nothing is solved while it runs: everyone plays those Digits)."""
    offset = request.page * PAGE_SIZE
    if request.kind is PageKind.QUALIFICATION:
        return await _qualification_page(store, guild_id, request, locale)
    if request.kind is PageKind.DUEL:
        ratings = await store.duel_leaderboard(guild_id, limit=PAGE_SIZE, offset=offset)
        pages = page_count(await store.duel_count(guild_id))
        embed = _render.duel_embed(ratings, request.page, locale, pages)
        return Page(embed, request.page + 1 < pages, request, pages)
    if request.kind is PageKind.HISTORY:
        user_id = int(request.arg)
        records = await store.history(guild_id, user_id, limit=PAGE_SIZE, offset=offset)
        pages = page_count(await store.history_count(guild_id, user_id))
        embed = _render.history_embed(records, user_id, name, request.page, locale, pages)
        return Page(embed, request.page + 1 < pages, request, pages)
    return await _game_page(store, guild_id, request, locale, revealer)


async def _qualification_page(
    store: Store, guild_id: int, request: PageRequest, locale: str
) -> Page:
    """A board of one Set version over the server's days, with each player's streak."""
    period, set_name, version = qualification_arg(request.arg)
    found = await _views.board(
        store, guild_id, set_name, period, version, request.page, discord.utils.utcnow()
    )
    embed = _render.qualification_embed(
        list(found.rows), set_name, period, request.page, locale, found.pages, version,
        found.streaks, found.language,
    )  # fmt: skip
    return Page(embed, request.page + 1 < found.pages, request, found.pages)


async def _game_page(
    store: Store, guild_id: int, request: PageRequest, locale: str, revealer: Revealer | None
) -> Page:
    """A round-by-round replay; a Qualification's stays sealed until its day is over."""
    if not request.arg:
        embed = discord.Embed(description=t("leaderboards_extra.game.empty_id", locale))
        return Page(embed, False, request, private=True)
    found = await _views.replay(store, guild_id, request.arg, discord.utils.utcnow(), revealer)
    if found is None:
        embed = discord.Embed(description=t("leaderboards.game.not_found", locale, id=request.arg))
        return Page(embed, False, request, private=True)
    record = found.record
    if found.sealed is not None:
        return Page(_render.game_embed(record, 0, locale, found.sealed), False, request)
    pages = _render.round_pages(record)
    page = min(request.page, pages - 1)
    return Page(
        _render.game_embed(record, page, locale),
        page + 1 < pages,
        replace(request, page=page),
        pages,
    )


def view_for(page: Page, locale: str) -> discord.ui.View | None:
    """Previous/Next buttons, or nothing when everything fits on one page."""
    request = page.request
    if request.page == 0 and not page.has_next:
        return None
    view = discord.ui.View(timeout=None)
    back = replace(request, page=max(request.page - 1, 0))
    forward = replace(request, page=request.page + 1)
    view.add_item(PageButton(back, t("leaderboards.button.previous", locale), request.page == 0))
    view.add_item(PageButton(forward, t("leaderboards.button.next", locale), not page.has_next))
    return view


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TEMPLATE):
    """Shows the page its custom_id names: in place for the asker, privately for others."""

    def __init__(self, request: PageRequest, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "…",
                custom_id=request.custom_id,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.request = request

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PageButton:
        del interaction, item
        kind = PageKind(match["kind"])
        request = PageRequest(kind, int(match["owner"]), int(match["page"]), match["arg"])
        return cls(request)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = loaded_cog(interaction, COG_NAME)
        if not isinstance(cog, PageTurner):
            raise TypeError(f"the {COG_NAME} cog does not turn pages")
        try:
            await cog.turn_page(interaction, self.request)
        except Exception as error:
            await report_unexpected(interaction, error)
