"""The pages: a server's board, duel ratings, a player, a replay; the rules.

Each handler finds the server by its page key (only while its admins have the web on),
asks the leaderboards' query layer for a view model, and renders it; a board page is
kept a few seconds (`BoardCache`), since a busy server's board is asked far more often
than it changes. A name, a Set or a formula reaches HTML only through Jinja2's autoescape.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from markupsafe import Markup, escape

from bot.charts import StatsChartInput
from bot.common import fmt, set_label
from bot.i18n import date_text, decimal_text, t
from bot.storage import LeaderRow, ServerSettings
from bot.views import (
    PAGE_SIZE,
    BoardPeriod,
    board,
    board_rows,
    duel_board,
    game_result,
    player,
    ranking_result,
    replay,
    version_label,
    void_text,
)
from bot.web._cache import BoardKey
from bot.web._keys import BOARDS, CACHE_S, CHARTS, DRAWN, JINJA, NAMES, STORE
from bot.web._paging import page_numbers
from bot.web._reach import not_found, robots, unknown
from bot.web._reading import exact_on_hover, number, rounded
from bot.web._replay import Neighbours, elo_lines, rounds_of, story
from bot.web._svg import stats_svg_bytes
from bot.web._text import LANGUAGES, language, rules_html
from rules import FormulaLanguage, GameState

KEY = r"{key:[A-Za-z0-9_-]{16,40}}"
NEIGHBOURS_MAX = 200
"""How far back in a player's games a replay looks for the ones before and after it."""
SEARCH_MAX = 64
"""The longest search by name read (characters)."""
SEARCH_ROWS = 50
"""The most players a search lists."""
USER_ID_MAX = 20
DESCRIBED = 3
"""The rows of a list its page's description names."""
PAGE_MAX = 100_000
"""The last page a list is asked for (a million rows); a larger `?page=` asks this one."""
FINISHED_S = 86_400
"""How long a client may keep a finished replay (with its best answers) without asking."""


def add_routes(app: web.Application) -> None:
    """The pages' routes; the last one takes every other address (the styled 404), so a
    route added after this call is never reached: add routes before it."""
    app.router.add_get("/", _home)
    app.router.add_get("/rules", _rules)
    app.router.add_get("/robots.txt", robots)
    app.router.add_get(f"/s/{KEY}/rules", _rules)
    app.router.add_get(f"/s/{KEY}/", _board)
    app.router.add_get(f"/s/{KEY}/duel", _duel)
    app.router.add_get(f"/s/{KEY}/p/{{user:[0-9]{{1,20}}}}", _player)
    app.router.add_get(f"/s/{KEY}/g/{{game:[A-Za-z0-9_-]{{4,40}}}}", _game)
    app.router.add_get("/{tail:.*}", unknown)


def _lang(request: web.Request) -> str:
    return language(request.query.get("lang"), request.headers.get("Accept-Language"))


def _page(request: web.Request, template: str, lang: str, **values: Any) -> web.Response:
    here = request.rel_url
    switch = {code: str(here.update_query(lang=code)) for code in LANGUAGES}
    html = (
        request.app[JINJA]
        .get_template(template)
        .render(
            lang=lang,
            tr=lambda key, **p: t(f"web.{key}", lang, **p),
            dtr=lambda key, **p: t(f"details.{key}", lang, **p),
            switch=switch,
            **values,
        )
    )
    response = web.Response(text=html, content_type="text/html", charset="utf-8")
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    return response


async def _server(request: web.Request) -> ServerSettings:
    found = await request.app[STORE].servers.by_web_key(request.match_info["key"])
    if found is None:
        raise not_found(request)
    return found


async def _names(
    request: web.Request, guild_id: int, user_ids: Iterable[int], lang: str
) -> dict[int, str]:
    """Each player's name, asked for a page's players at once; an unknown one is a short
    label (the end of their id)."""
    wanted = list(dict.fromkeys(user_ids))
    known = await request.app[NAMES].names(guild_id, wanted)
    return {u: known.get(u) or t("web.player.unknown", lang, tail=str(u)[-4:]) for u in wanted}


def _page_number(request: web.Request) -> int:
    """`?page=` as a list's page (0 first); anything else is the first page."""
    text = request.query.get("page", "0")
    if not (text.isascii() and text.isdigit()):
        return 0
    return PAGE_MAX if len(text) > len(str(PAGE_MAX)) else min(int(text), PAGE_MAX)


def _base(request: web.Request) -> str:
    return f"/s/{request.match_info['key']}/"


async def _home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/rules")


async def _rules(request: web.Request) -> web.Response:
    """The rules; under a server's address (`/s/<key>/rules`) inside its menu."""
    base = None
    if "key" in request.match_info:
        await _server(request)
        base = _base(request)
    lang = _lang(request)
    return _page(
        request, "rules.html", lang, base=base, sections=rules_html(lang),
        title=t("web.rules.title", lang), description=t("details.rules_description", lang),
    )  # fmt: skip


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

    @classmethod
    def of(cls, request: web.Request) -> BoardAsked:
        query = request.query
        version = query.get("version")
        return cls(
            query.get("set", "darts")[:64],
            BoardPeriod.parse(query.get("period")) or BoardPeriod.TODAY,
            None if version is None else version[:64],
            _page_number(request),
            _user_id(query.get("me", "")),
            query.get("q", "").strip()[:SEARCH_MAX],
        )

    def key(self, web_key: str, lang: str) -> BoardKey:
        return (
            web_key, lang, self.set_name, self.period.value, self.version, self.page,
            self.me, self.words,
        )  # fmt: skip


async def _board(request: web.Request) -> web.Response:
    """A board kept a few seconds is served from memory, asking the database only whether
    its server's pages are still on (one indexed read: `/config web off` takes effect at
    once, cached or not)."""
    lang = _lang(request)
    asked = BoardAsked.of(request)
    cache = request.app[BOARDS]
    cache_key = asked.key(request.match_info["key"], lang)
    now = time.monotonic()
    server = await _server(request)
    html = cache.get(cache_key, now)
    if html is None:
        html = (await _board_page(request, server, lang, asked)).text or ""
        cache.put(cache_key, now, html)
    response = web.Response(text=html, content_type="text/html", charset="utf-8")
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = f"public, max-age={CACHE_S}"
    return response


async def _board_page(
    request: web.Request, server: ServerSettings, lang: str, asked: BoardAsked
) -> web.Response:
    """The uncached path: the query layer's Board, rendered."""
    store = request.app[STORE]
    set_name, period, page = asked.set_name, asked.period, asked.page
    sets = await store.qualification_sets(server.guild_id)
    versions = await store.set_versions(server.guild_id, set_name)
    numbers = await store.set_version_numbers(server.guild_id, set_name)
    version = asked.version
    version = version if version in versions else (versions[0] if versions else None)
    me, words = asked.me, asked.words
    ranked = (
        await board_rows(store, server.guild_id, set_name, period, version)
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
    found = await board(store, server.guild_id, set_name, period, version, page)
    shown = found.rows
    if words:
        known = await _names(request, server.guild_id, (row.user_id for row in ranked), lang)
        shown = tuple(r for r in ranked if words.casefold() in known[r.user_id].casefold())
        shown = shown[:SEARCH_ROWS]
        note = None if shown else t("details.find.nobody", lang)
    names = await _names(request, server.guild_id, (row.user_id for row in shown), lang)
    rows = [
        {
            "mine": row.user_id == me,
            "rank": row.rank,
            "name": names[row.user_id],
            "player": f"{_base(request)}p/{row.user_id}",
            "result": _ranking(row, lang, found.language),
            "time": t("details.seconds", lang, value=decimal_text(row.answer_time, lang)),
            "streak": s.current if (s := found.streaks.get(row.user_id)) else 0,
            "game": f"{_base(request)}g/{row.game_id}",
            "game_id": row.game_id[:8],
        }
        for row in shown
    ]
    period_name = t(f"leaderboards.period.{period.value}", lang)
    described = (
        f"{row.rank}. {names[row.user_id]} — {_ranking(row, lang, found.language).striptags()}"
        for row in shown
    )
    return _page(
        request, "board.html", lang, base=_base(request), board=found, rows=rows,
        title=t("web.board.title", lang, set=set_label(set_name, found.language),
                period=period_name),
        description=_summary(described, "" if found.past_end else t("web.board.empty", lang)),
        periods=[(p.value, t(f"leaderboards.period.{p.value}", lang)) for p in BoardPeriod],
        versions=[(v, version_label(v, False, lang, numbers)) for v in versions],
        version=version, set_name=set_name, period=period.value, sets=sets,
        numbers=[] if words else page_numbers(found.page, found.pages), query=words, note=note,
    )  # fmt: skip


def _user_id(text: str) -> int | None:
    """`?me=` as a Discord user id, else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= USER_ID_MAX else None


def _ranking(row: LeaderRow, lang: str, numbers: FormulaLanguage) -> Markup:
    """A board row's result; a Score left is rounded for reading, exact on hover."""
    left = row.rank_class == 1
    shown = rounded(row.score, numbers) if left else row.score
    text = ranking_result(
        row.rank_class, row.rounds, shown, row.perfect, lang, row.termination, numbers
    )
    return exact_on_hover(text, row.score, numbers) if left else escape(text)


def _moment(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def _summary(lines: Iterable[str], empty: str) -> str:
    """A page's description (what an unfurled link shows): its first few lines."""
    shown = list(lines)[:DESCRIBED]
    return "; ".join(shown) if shown else empty


async def _duel(request: web.Request) -> web.Response:
    server = await _server(request)
    lang = _lang(request)
    found = await duel_board(request.app[STORE], server.guild_id, _page_number(request))
    names = await _names(request, server.guild_id, (row.user_id for row in found.rows), lang)
    rows = [
        {"row": row, "name": names[row.user_id],
         "player": f"{_base(request)}p/{row.user_id}"}
        for row in found.rows
    ]  # fmt: skip
    described = (f"{r.rank}. {names[r.user_id]} — Elo {r.rating}" for r in found.rows)
    return _page(
        request, "duel.html", lang, base=_base(request), rows=rows, board=found,
        numbers=page_numbers(found.page, found.pages),
        title=t("web.duel.title", lang),
        description=_summary(described, "" if found.past_end else t("web.duel.empty", lang)),
    )  # fmt: skip


async def _player(request: web.Request) -> web.Response:
    server = await _server(request)
    lang = _lang(request)
    user_id = int(request.match_info["user"])
    found = await player(request.app[STORE], server.guild_id, user_id)
    if not found.games and found.stats.games == 0:
        raise not_found(request, _base(request))
    name = (await _names(request, server.guild_id, [user_id], lang))[user_id]
    games = [
        {
            "when": date_text(_moment(r.created_at), lang),
            "mode": t(f"games.mode.{r.state.mode.value}", lang),
            "set": set_label(r.state.game_set.name, r.state.game_set.language),
            "result": game_result(r, str(user_id), lang),
            "game": f"{_base(request)}g/{r.state.id}",
            "game_id": r.state.id[:8],
        }
        for r in found.games
    ]
    chart = None if found.chart is None else await _chart(request, found.chart, lang)
    streaks = sorted(found.streaks.items(), key=lambda i: (-i[1].current, -i[1].longest))
    return _page(
        request, "player.html", lang, base=_base(request), name=name, record=found,
        games=games, chart=chart, streaks=streaks, title=name,
        description=t("details.player_description", lang, games=found.stats.games,
                      wins=found.stats.wins, checkouts=found.stats.checkouts),
    )  # fmt: skip


async def _chart(request: web.Request, data: StatsChartInput, lang: str) -> Markup | None:
    """The player's chart as SVG, drawn by the chart worker once for the same games."""
    label = t("web.player.chart", lang)
    charts = request.app[CHARTS]
    return await request.app[DRAWN].svg(
        (data, lang), lambda: charts.render(stats_svg_bytes, data, lang, label)
    )


async def _neighbours(request: web.Request, guild_id: int, state: GameState) -> Neighbours:
    """The first player's games just before and after this one, among their last ones."""
    player_id = state.players[0]
    if not player_id.isdigit():
        return Neighbours()
    games = await request.app[STORE].history(guild_id, int(player_id), limit=NEIGHBOURS_MAX)
    ids = [r.state.id for r in games]
    if state.id not in ids:
        return Neighbours()
    at = ids.index(state.id)
    return Neighbours(
        before=ids[at + 1] if at + 1 < len(ids) else None, after=ids[at - 1] if at else None
    )


async def _game(request: web.Request) -> web.Response:
    server = await _server(request)
    lang = _lang(request)
    found = await replay(request.app[STORE], server.guild_id, request.match_info["game"])
    if found is None:
        raise not_found(request, _base(request))
    record, state = found.record, found.record.state
    seated = [int(p) if p.isdigit() else 0 for p in state.players]
    known = await _names(request, server.guild_id, seated, lang)
    names = [known[p] for p in seated]
    numbers = state.game_set.language
    rounds = rounds_of(record, names, lang)
    changes = await request.app[STORE].rating_changes(state.id) if state.mode.is_duel else []
    around = await _neighbours(request, server.guild_id, state)
    accuracy = [
        None if a is None else decimal_text(round(a * 100, 1), lang) + " %" for a in found.accuracy
    ]
    sealed_until = (
        None if found.sealed is None else date_text(found.sealed.ends.astimezone(UTC), lang)
    )
    hide_scores = found.sealed is not None and record.active
    outcome = None if state.mode.is_duel else game_result(record, state.players[0], lang)
    title = t("web.game.title", lang, mode=t(f"games.mode.{state.mode.value}", lang),
              set=set_label(state.game_set.name, numbers), id=state.id[:8])  # fmt: skip
    seats_text = (
        name if hide_scores else f"{name}: {fmt(score, numbers)}"
        for name, score in zip(names, state.scores, strict=True)
    )
    page = _page(
        request, "game.html", lang, base=_base(request), record=record, names=names,
        players=[f"{_base(request)}p/{p}" for p in state.players],
        scores=[number(s, numbers) for s in state.scores], rounds=rounds, accuracy=accuracy,
        sealed=found.sealed, sealed_until=sealed_until, hide_scores=hide_scores,
        void=void_text(record, lang) if found.voided else None, outcome=outcome, title=title,
        story=story(state, names, lang), elo=elo_lines(state, changes, names),
        played=t("details.replay.played", lang, date=_moment(record.created_at)),
        around=around, has_best=any(r["has_best"] for r in rounds),
        description=f"{_summary(seats_text, '')} · {outcome or title}",
    )  # fmt: skip
    if state.outcome is not None and found.sealed is None and record.meta.best:
        page.headers["Cache-Control"] = f"public, max-age={FINISHED_S}"  # it never changes
    return page
