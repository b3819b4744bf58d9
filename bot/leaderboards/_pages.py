"""Pages of a list and the buttons that turn them.

A page is fully described by a small request (what, for whom, which page) that
lives in the buttons' custom_id, as discord.py's DynamicItem allows: paging
keeps working after a restart, and nothing is kept in memory per message. The
request is typed (`PageRequest` of a `Listing`: a board, the ratings, a history, a
game); only `custom_id` writes the string Discord carries and `parse_custom_id` reads
it back, refusing anything this bot never wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, Protocol, assert_never, runtime_checkable

import discord

from bot import rooms, views
from bot.common import UserError
from bot.common.interactions import loaded_cog, refuse, report_unexpected
from bot.i18n import t
from bot.leaderboards import _render, _render_player, _render_replay
from bot.storage import Store
from bot.views import BoardPeriod
from rules.sets import name_problem

COG_NAME = "Leaderboards"
PAGE_SIZE = views.PAGE_SIZE
PAGE_MAX = 1_000_000
"""No list is this long; a button saying more was not made by this bot."""
SNOWFLAKE_MAX = 2**64 - 1
_PREFIX = "fd:pg:"
_TEMPLATE = r"(?s)fd:pg:.*"
"""Every custom_id of a page button reaches `parse_custom_id`, so a damaged or forged
one is refused with a message instead of a click Discord reports as failed."""
_LAYOUT = re.compile(
    r"fd:pg:(?P<kind>[a-z]):(?P<owner>[0-9]{1,20}):(?P<page>[0-9]{1,7}):(?P<arg>.*)"
)
_VERSION = re.compile(r"[0-9a-f]{0,64}")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
_USER_ID = re.compile(r"[0-9]{1,20}")


class PageKind(StrEnum):
    """What a page lists; the value is its one letter in a button's custom_id."""

    QUALIFICATION = "q"
    DUEL = "d"
    HISTORY = "h"
    GAME = "g"


@dataclass(frozen=True)
class QualificationPages:
    """A Qualification board: one Set over `period`, one version of it.

    `version`: "" ranks the games from before Set versions; None, every version (what a
    button posted before versions existed carries, and keeps showing)."""

    period: BoardPeriod
    set_name: str
    version: str | None = None
    kind: ClassVar[PageKind] = PageKind.QUALIFICATION

    @property
    def arg(self) -> str:
        head = f"{self.period.value}:{self.set_name}"
        return head if self.version is None else f"{head}:{self.version}"


@dataclass(frozen=True)
class DuelPages:
    """The server's duel ratings (Elo)."""

    kind: ClassVar[PageKind] = PageKind.DUEL

    @property
    def arg(self) -> str:
        return ""


@dataclass(frozen=True)
class HistoryPages:
    """A player's recent games here."""

    user_id: int
    kind: ClassVar[PageKind] = PageKind.HISTORY

    @property
    def arg(self) -> str:
        return str(self.user_id)


@dataclass(frozen=True)
class GamePages:
    """A game's rounds, ten a page; `game_id` may be a prefix of the id ("" asks nothing)."""

    game_id: str
    kind: ClassVar[PageKind] = PageKind.GAME

    @property
    def arg(self) -> str:
        return self.game_id


Listing = QualificationPages | DuelPages | HistoryPages | GamePages


@dataclass(frozen=True)
class PageRequest:
    """Which list, for whom (only the asker turns a message's pages), which page: all a
    page button's custom_id carries, `fd:pg:<kind>:<owner>:<page>:<arg>`."""

    listing: Listing
    owner: int
    page: int = 0

    @property
    def custom_id(self) -> str:
        listing = self.listing
        return f"{_PREFIX}{listing.kind.value}:{self.owner}:{self.page}:{listing.arg}"


def parse_custom_id(custom_id: str) -> PageRequest | None:
    """The request a page button's custom_id carries (`PageRequest.custom_id` read back,
    and the buttons of every earlier layout), or None for one this bot never made: an
    unknown kind or period, a Set name no Set may have, a page or id out of range."""
    found = _LAYOUT.fullmatch(custom_id)
    if found is None:
        return None
    owner, page = int(found["owner"]), int(found["page"])
    if owner > SNOWFLAKE_MAX or page > PAGE_MAX:
        return None
    try:
        kind = PageKind(found["kind"])
    except ValueError:
        return None
    listing = _listing(kind, found["arg"])
    return None if listing is None else PageRequest(listing, owner, page)


def _listing(kind: PageKind, arg: str) -> Listing | None:
    match kind:
        case PageKind.QUALIFICATION:
            head, _, rest = arg.partition(":")
            set_name, has_version, version = rest.partition(":")
            period = BoardPeriod.parse(head)
            if period is None or name_problem(set_name) is not None:
                return None
            if has_version and _VERSION.fullmatch(version) is None:
                return None
            return QualificationPages(period, set_name, version if has_version else None)
        case PageKind.DUEL:
            return DuelPages() if arg == "" else None
        case PageKind.HISTORY:
            if _USER_ID.fullmatch(arg) is None or int(arg) > SNOWFLAKE_MAX:
                return None
            return HistoryPages(int(arg))
        case PageKind.GAME:
            return GamePages(arg) if _GAME_ID.fullmatch(arg) else None
        case _:
            assert_never(kind)


@runtime_checkable
class PageTurner(Protocol):
    """What a page button needs from the leaderboards cog."""

    async def turn_page(
        self, interaction: discord.Interaction[Any], request: PageRequest
    ) -> None: ...


@dataclass
class Page:
    """`pages` is the list's length in pages; a `private` page is an error only the asker sees."""

    embed: discord.Embed
    has_next: bool
    request: PageRequest
    pages: int = 1
    private: bool = False


def page_count(total: int) -> int:
    return views.page_count(total, PAGE_SIZE)


async def build(
    store: Store,
    guild_id: int,
    request: PageRequest,
    locale: str,
    name: str,
) -> Page:
    """Fetch one page and the list's size (a count on the same index), for "Page 1 of N"."""
    offset = request.page * PAGE_SIZE
    match request.listing:
        case QualificationPages() as listing:
            return await _qualification_page(store, guild_id, request, listing, locale)
        case DuelPages():
            ratings = await store.boards.duel_leaderboard(guild_id, limit=PAGE_SIZE, offset=offset)
            pages = page_count(await store.boards.duel_count(guild_id))
            embed = _render.duel_embed(ratings, request.page, locale, pages)
            return Page(embed, request.page + 1 < pages, request, pages)
        case HistoryPages(user_id=user_id):
            records = await store.games.history(guild_id, user_id, limit=PAGE_SIZE, offset=offset)
            pages = page_count(await store.games.history_count(guild_id, user_id))
            embed = _render_player.history_embed(
                records, user_id, name, request.page, locale, pages
            )
            played = []  # the newest rooms, under the first page
            if request.page == 0:
                played = await store.rooms.history(guild_id, str(user_id), rooms.HISTORY_ROOMS)
            if played:
                field, lines = rooms.history_field(played, str(user_id), locale)
                embed.add_field(name=field, value=lines, inline=False)
            return Page(embed, request.page + 1 < pages, request, pages)
        case GamePages(game_id=game_id):
            return await _game_page(store, guild_id, request, game_id, locale)
        case _:
            assert_never(request.listing)


async def _qualification_page(
    store: Store, guild_id: int, request: PageRequest, board: QualificationPages, locale: str
) -> Page:
    """A board of one Set version over the server's days, with each player's streak."""
    found = await views.board(
        store, guild_id, board.set_name, board.period, board.version, request.page,
        discord.utils.utcnow(),
    )  # fmt: skip
    embed = _render.qualification_embed(
        list(found.rows), board.set_name, board.period, request.page, locale, found.pages,
        board.version, found.streaks, lang=found.language,
        numbers=await store.boards.set_version_numbers(guild_id, board.set_name),
    )  # fmt: skip
    return Page(embed, request.page + 1 < found.pages, request, found.pages)


async def _game_page(
    store: Store, guild_id: int, request: PageRequest, game_id: str, locale: str
) -> Page:
    """A round-by-round replay; a Qualification's stays sealed until its day is over."""
    if not game_id:
        embed = discord.Embed(description=t("leaderboards_extra.game.empty_id", locale))
        return Page(embed, False, request, private=True)
    found = await views.replay(store, guild_id, game_id, discord.utils.utcnow())
    room = None if found is not None else await store.rooms.find(guild_id, game_id)
    if room is not None:  # a room's table, then its rounds
        pages = rooms.replay_pages(room)
        page = min(request.page, pages - 1)
        embed = rooms.replay_embed(room, page, locale)
        return Page(embed, page + 1 < pages, replace(request, page=page), pages)
    if found is None:
        embed = discord.Embed(description=t("leaderboards.game.not_found", locale, id=game_id))
        return Page(embed, False, request, private=True)
    record = found.record
    if found.sealed is not None:
        return Page(_render_replay.game_embed(record, 0, locale, found.sealed), False, request)
    if record.meta.private and record.active and str(request.owner) not in record.state.players:
        # someone else's game in private messages: only that it goes on, until it ends
        hidden = replace(record, state=replace(record.state, rounds=[]), meta=replace(
            record.meta, best=()))  # fmt: skip
        embed = _render_replay.game_embed(hidden, 0, locale)
        embed.description = t("details.game.private_live", locale)
        return Page(embed, False, request)
    pages = _render_replay.round_pages(record)
    page = min(request.page, pages - 1)
    return Page(
        _render_replay.game_embed(record, page, locale),
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


class ForeignPage(UserError):
    """A page button whose custom_id this bot never made (`parse_custom_id`)."""

    prefix = "leaderboards_extra."

    def __init__(self) -> None:
        super().__init__("foreign_page")


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TEMPLATE):
    """Shows the page its custom_id names: in place for the asker, privately for others.
    `request` None: the custom_id is not one of this bot's pages, and a click says so."""

    def __init__(
        self, request: PageRequest | None, label: str = "", disabled: bool = False,
        *, custom_id: str = "",
    ) -> None:  # fmt: skip
        super().__init__(
            discord.ui.Button(
                label=label or "…",
                custom_id=request.custom_id if request is not None else custom_id,
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
        return cls(parse_custom_id(match[0]), custom_id=match[0])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.request is None:
            await refuse(interaction, ForeignPage())
            return
        cog = loaded_cog(interaction, COG_NAME)
        if not isinstance(cog, PageTurner):
            raise TypeError(f"the {COG_NAME} cog does not turn pages")
        try:
            await cog.turn_page(interaction, self.request)
        except Exception as error:
            await report_unexpected(interaction, error)
