"""A server's Qualification board page: a period's or one day's, a page of it, a player's
own place on it (`?me=`, "my place" from Discord's `/leaderboard`) and a search by name
(`?q=`); kept a few seconds (`BoardCache`), since a busy server's board is asked far more
often than it changes."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date

from aiohttp import web
from markupsafe import Markup, escape

from bot.common import set_label
from bot.i18n import date_text, day_of, decimal_text, t
from bot.storage import LeaderRow, ServerSettings
from bot.views import PAGE_SIZE, BoardPeriod, board, board_rows, ranking_result, version_label
from bot.web._cache import BoardKey
from bot.web._keys import BOARDS, CACHE_S, STORE
from bot.web._page import base_of, names_of, page_number, reader_language, render, server_of
from bot.web._page import summary as page_summary
from bot.web._paging import page_numbers
from bot.web._reading import exact_on_hover, rounded
from rules import FormulaLanguage

SEARCH_MAX = 64
"""The longest search by name read (characters)."""
SEARCH_ROWS = 50
"""The most players a search lists."""
USER_ID_MAX = 20


def _user_id(text: str) -> int | None:
    """`?me=` as a Discord user id, else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= USER_ID_MAX else None


def _day(text: str | None) -> str | None:
    """`?day=` as a Qualification day (`2026-01-01`), else None (the period's board)."""
    if text is None or len(text) != len("2026-01-01"):
        return None
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        return None


@dataclass(frozen=True)
class BoardAsked:
    """What a board's query string asks for, read once: the cache's key and the page's."""

    set_name: str
    period: BoardPeriod
    version: str | None
    page: int
    me: int | None
    """`?me=`: the page with this player on it ("my place" from Discord's board)."""
    words: str
    """`?q=`: a search by name."""
    day: str | None = None
    """`?day=`: that one day's board (a replay links its day's)."""

    @classmethod
    def of(cls, request: web.Request) -> BoardAsked:
        query = request.query
        version = query.get("version")
        return cls(
            query.get("set", "darts")[:64],
            BoardPeriod.parse(query.get("period")) or BoardPeriod.TODAY,
            None if version is None else version[:64],
            page_number(request),
            _user_id(query.get("me", "")),
            query.get("q", "").strip()[:SEARCH_MAX],
            _day(query.get("day")),
        )

    def key(self, web_key: str, lang: str) -> BoardKey:
        return (
            web_key, lang, self.set_name, self.period.value, self.version, self.page,
            self.me, self.words, self.day,
        )  # fmt: skip


async def board_page(request: web.Request) -> web.Response:
    """A board kept a few seconds is served from memory, and so is whether its server's
    pages are still on (`PageKeys`): a cached board asks the database nothing, and
    `/config web off` still takes effect at once in this process (within `PAGE_KEYS_S`
    when another process sharing the database made it)."""
    lang = reader_language(request)
    asked = BoardAsked.of(request)
    cache = request.app[BOARDS]
    cache_key = asked.key(request.match_info["key"], lang)
    now = time.monotonic()
    server = await server_of(request)
    html = cache.get(cache_key, now)
    if html is None:
        html = (await _render_board(request, server, lang, asked)).text or ""
        cache.put(cache_key, now, html)
    response = web.Response(text=html, content_type="text/html", charset="utf-8")
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = f"public, max-age={CACHE_S}"
    return response


async def _render_board(
    request: web.Request, server: ServerSettings, lang: str, asked: BoardAsked
) -> web.Response:
    """The uncached path: the query layer's Board, rendered."""
    store = request.app[STORE]
    set_name, period, page, day = asked.set_name, asked.period, asked.page, asked.day
    sets = await store.boards.qualification_sets(server.guild_id)
    versions = await store.boards.set_versions(server.guild_id, set_name)
    numbers = await store.boards.set_version_numbers(server.guild_id, set_name)
    version = asked.version
    version = version if version in versions else (versions[0] if versions else None)
    me, words = asked.me, asked.words
    ranked = (
        await board_rows(store, server.guild_id, set_name, period, version, day=day)
        if me is not None or words
        else []
    )
    note = None
    if me is not None:
        ids = [row.user_id for row in ranked]
        if me in ids:
            page = ids.index(me) // PAGE_SIZE
        else:
            note = t("details.find.not_on_board", lang)
    found = await board(store, server.guild_id, set_name, period, version, page, day=day)
    shown = found.rows
    if words:
        known = await names_of(request, server.guild_id, (row.user_id for row in ranked), lang)
        shown = tuple(r for r in ranked if words.casefold() in known[r.user_id].casefold())
        shown = shown[:SEARCH_ROWS]
        note = None if shown else t("details.find.nobody", lang)
    names = await names_of(request, server.guild_id, (row.user_id for row in shown), lang)
    base = base_of(request)
    rows = [
        {
            "mine": row.user_id == me,
            "rank": row.rank,
            "name": names[row.user_id],
            "player": f"{base}p/{row.user_id}",
            "result": _ranking(row, lang, found.language),
            "time": t("details.seconds", lang, value=decimal_text(row.answer_time, lang)),
            "streak": s.current if (s := found.streaks.get(row.user_id)) else 0,
            "game": f"{base}g/{row.game_id}",
            "game_id": row.game_id[:8],
        }
        for row in shown
    ]
    span = (
        date_text(day_of(day), lang)
        if day is not None
        else t(f"leaderboards.period.{period.value}", lang)
    )
    described = (
        f"{row.rank}. {names[row.user_id]} — {_ranking(row, lang, found.language).striptags()}"
        for row in shown
    )
    empty = "" if found.past_end else t("web.board.empty", lang)
    return render(
        request, "board.html", lang, base=base, board=found, rows=rows, server=server,
        title=t("web.board.title", lang, set=set_label(set_name, found.language), period=span),
        description=page_summary(described, empty),
        periods=[(p.value, t(f"leaderboards.period.{p.value}", lang)) for p in BoardPeriod],
        versions=[(v, version_label(v, False, lang, numbers)) for v in versions],
        version=version, set_name=set_name, period=None if day else period.value, day=day,
        sets=sets, numbers=[] if words else page_numbers(found.page, found.pages),
        query=words, note=note,
    )  # fmt: skip


def _ranking(row: LeaderRow, lang: str, numbers: FormulaLanguage) -> Markup:
    """A board row's result; a Score left is rounded for reading, exact on hover."""
    left = row.rank_class == 1
    shown = rounded(row.score, numbers) if left else row.score
    text = ranking_result(
        row.rank_class, row.rounds, shown, row.perfect, lang, row.termination, lang=numbers
    )
    return exact_on_hover(text, row.score, numbers) if left else escape(text)
