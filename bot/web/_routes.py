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
from markupsafe import Markup

from bot.charts import StatsChartInput
from bot.common import fmt, set_label
from bot.i18n import decimal_text, t
from bot.storage import ServerSettings
from bot.views import (
    BoardPeriod,
    board,
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
from bot.web._svg import stats_svg_bytes
from bot.web._text import LANGUAGES, language, rules_html

KEY = r"{key:[A-Za-z0-9_-]{16,40}}"
PAGE_MAX = 100_000
"""The last page a list is asked for (a million rows); a larger `?page=` asks this one."""
FINISHED_S = 86_400
"""How long a client may keep a finished replay (with its best answers) without asking."""


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", _home)
    app.router.add_get("/rules", _rules)
    app.router.add_get(f"/s/{KEY}/", _board)
    app.router.add_get(f"/s/{KEY}/duel", _duel)
    app.router.add_get(f"/s/{KEY}/p/{{user:[0-9]{{1,20}}}}", _player)
    app.router.add_get(f"/s/{KEY}/g/{{game:[A-Za-z0-9_-]{{4,40}}}}", _game)


def _lang(request: web.Request) -> str:
    return language(request.query.get("lang"), request.headers.get("Accept-Language"))


def _page(request: web.Request, template: str, lang: str, **values: Any) -> web.Response:
    here = request.rel_url
    switch = {code: str(here.update_query(lang=code)) for code in LANGUAGES}
    html = (
        request.app[JINJA]
        .get_template(template)
        .render(lang=lang, tr=lambda key, **p: t(f"web.{key}", lang, **p), switch=switch, **values)
    )
    response = web.Response(text=html, content_type="text/html", charset="utf-8")
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    return response


async def _server(request: web.Request) -> ServerSettings:
    found = await request.app[STORE].servers.by_web_key(request.match_info["key"])
    if found is None:
        raise _not_found(request)
    return found


def _not_found(request: web.Request) -> web.HTTPNotFound:
    lang = _lang(request)
    html = (
        request.app[JINJA]
        .get_template("not_found.html")
        .render(lang=lang, tr=lambda key, **p: t(f"web.{key}", lang, **p), switch={}, base=None)
    )
    return web.HTTPNotFound(text=html, content_type="text/html")


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
    lang = _lang(request)
    return _page(request, "rules.html", lang, base=None, sections=rules_html(lang))


@dataclass(frozen=True)
class BoardAsked:
    """What a board's query string asks for, read once: the cache's key and the page's."""

    set_name: str
    period: BoardPeriod
    version: str | None
    page: int

    @classmethod
    def of(cls, request: web.Request) -> BoardAsked:
        query = request.query
        version = query.get("version")
        return cls(
            query.get("set", "darts")[:64],
            BoardPeriod.parse(query.get("period")) or BoardPeriod.TODAY,
            None if version is None else version[:64],
            _page_number(request),
        )

    def key(self, web_key: str, lang: str) -> BoardKey:
        return (web_key, lang, self.set_name, self.period.value, self.version, self.page)


async def _board(request: web.Request) -> web.Response:
    """A board kept a few seconds is served from memory, without asking the database
    (not even for its server: the page key is in the cache's key)."""
    lang = _lang(request)
    asked = BoardAsked.of(request)
    cache = request.app[BOARDS]
    cache_key = asked.key(request.match_info["key"], lang)
    now = time.monotonic()
    html = cache.get(cache_key, now)
    if html is None:
        server = await _server(request)
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
    version = asked.version
    version = version if version in versions else (versions[0] if versions else None)
    found = await board(store, server.guild_id, set_name, period, version, page)
    names = await _names(request, server.guild_id, (row.user_id for row in found.rows), lang)
    rows = [
        {
            "rank": row.rank,
            "name": names[row.user_id],
            "player": f"{_base(request)}p/{row.user_id}",
            "result": ranking_result(
                row.rank_class,
                row.rounds,
                row.score,
                row.perfect,
                lang,
                row.termination,
                found.language,
            ),
            "time": decimal_text(row.answer_time, lang),
            "streak": s.current if (s := found.streaks.get(row.user_id)) else 0,
            "game": f"{_base(request)}g/{row.game_id}",
            "game_id": row.game_id[:8],
        }
        for row in found.rows
    ]
    period_name = t(f"leaderboards.period.{period.value}", lang)
    return _page(
        request, "board.html", lang, base=_base(request), board=found, rows=rows,
        title=t("web.board.title", lang, set=set_label(set_name, found.language),
                period=period_name),
        periods=[(p.value, t(f"leaderboards.period.{p.value}", lang)) for p in BoardPeriod],
        versions=[(v, version_label(v, False, lang)) for v in versions],
        version=version, set_name=set_name, period=period.value, sets=sets,
    )  # fmt: skip


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
    return _page(request, "duel.html", lang, base=_base(request), rows=rows, board=found)


async def _player(request: web.Request) -> web.Response:
    server = await _server(request)
    lang = _lang(request)
    user_id = int(request.match_info["user"])
    found = await player(request.app[STORE], server.guild_id, user_id)
    name = (await _names(request, server.guild_id, [user_id], lang))[user_id]
    games = [
        {
            "when": datetime.fromtimestamp(r.created_at, UTC).strftime("%Y-%m-%d %H:%M"),
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
        games=games, chart=chart, streaks=streaks,
    )  # fmt: skip


async def _chart(request: web.Request, data: StatsChartInput, lang: str) -> Markup | None:
    """The player's chart as SVG, drawn by the chart worker once for the same games."""
    label = t("web.player.chart", lang)
    charts = request.app[CHARTS]
    return await request.app[DRAWN].svg(
        (data, lang), lambda: charts.render(stats_svg_bytes, data, lang, label)
    )


async def _game(request: web.Request) -> web.Response:
    server = await _server(request)
    lang = _lang(request)
    found = await replay(request.app[STORE], server.guild_id, request.match_info["game"])
    if found is None:
        raise _not_found(request)
    record, state = found.record, found.record.state
    seats = range(len(state.players))
    seated = [int(p) if p.isdigit() else 0 for p in state.players]
    known = await _names(request, server.guild_id, seated, lang)
    names = [known[p] for p in seated]
    numbers = state.game_set.language
    rounds = []
    for rnd in state.rounds:
        best = {b.seat: b for b in record.meta.best_of(rnd.number)}
        cells = []
        for seat in seats:
            answer = rnd.answers[seat] if seat < len(rnd.answers) else None
            reveal = best.get(seat)
            cells.append({
                "answer": answer if rnd.resolved else None,
                "result": fmt(answer.result, numbers) if answer else "",
                "points": fmt(answer.points, numbers) if answer else "",
                "score": fmt(answer.score, numbers) if answer else "",
                "best": reveal.formula if reveal else None,
                "best_score": fmt(reveal.score, numbers) if reveal else "",
                "found": bool(reveal and answer and float(answer.score) <= float(reveal.score)),
            })  # fmt: skip
        rounds.append({"number": rnd.number, "digits": rnd.digits, "resolved": rnd.resolved,
                       "cells": cells})  # fmt: skip
    accuracy = [
        None if a is None else decimal_text(round(a * 100, 1), lang) + " %" for a in found.accuracy
    ]
    sealed_until = (
        None if found.sealed is None else found.sealed.ends.strftime("%Y-%m-%d %H:%M UTC")
    )
    page = _page(
        request, "game.html", lang, base=_base(request), record=record, names=names,
        players=[f"{_base(request)}p/{p}" for p in state.players],
        scores=[fmt(s, numbers) for s in state.scores], rounds=rounds, accuracy=accuracy,
        sealed=found.sealed, sealed_until=sealed_until, hide_scores=found.sealed is not None
        and record.active, void=void_text(record, lang) if found.voided else None,
        outcome=game_result(record, state.players[0], lang) if not state.mode.is_duel
        else None,
        title=t("web.game.title", lang, mode=t(f"games.mode.{state.mode.value}", lang),
                set=set_label(state.game_set.name, numbers), id=state.id[:8]),
    )  # fmt: skip
    if state.outcome is not None and found.sealed is None and record.meta.best:
        page.headers["Cache-Control"] = f"public, max-age={FINISHED_S}"  # it never changes
    return page
