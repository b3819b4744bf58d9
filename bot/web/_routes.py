"""The pages: a server's board (`_board`), duel ratings, a player, a replay; the rules.

Each handler finds the server by its page key (only while its admins have the web on),
asks the leaderboards' query layer for a view model, and renders it. A name, a Set or a
formula reaches HTML only through Jinja2's autoescape.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC
from urllib.parse import urlencode

from aiohttp import web
from markupsafe import Markup

from bot.achievements import web_rows
from bot.charts import EloChartInput, StatsChartInput
from bot.common import fmt, set_label
from bot.i18n import date_text, day_of, decimal_text, t
from bot.views import duel_board, game_result, player, replay, void_text
from bot.web._board import board_page
from bot.web._calendar import streak_calendar
from bot.web._keys import CHARTS, DRAWN, REPLAYS, STORE
from bot.web._page import (
    base_of,
    moment,
    names_of,
    page_number,
    reader_language,
    render,
    server_of,
    summary,
)
from bot.web._paging import page_numbers
from bot.web._reach import not_found, robots, unknown
from bot.web._reading import number
from bot.web._replay import Neighbours, elo_lines, rounds_of, story
from bot.web._svg import elo_svg_bytes, stats_svg_bytes
from bot.web._text import rules_html
from rules import GameState, Mode

KEY = r"{key:[A-Za-z0-9_-]{16,40}}"
NEIGHBOURS_MAX = 200
"""How far back in a player's games a replay looks for the ones before and after it."""
FINISHED_S = 86_400
"""How long a client may keep a finished replay (with its best answers) without asking."""


@dataclass(frozen=True)
class Link:
    href: str
    text: str


def add_routes(app: web.Application) -> None:
    """The pages' routes; the last one takes every other address (the styled 404), so a
    route added after this call is never reached: add routes before it."""
    app.router.add_get("/", _home)
    app.router.add_get("/rules", _rules)
    app.router.add_get("/robots.txt", robots)
    app.router.add_get(f"/s/{KEY}/rules", _rules)
    app.router.add_get(f"/s/{KEY}/", board_page)
    app.router.add_get(f"/s/{KEY}/duel", _duel)
    app.router.add_get(f"/s/{KEY}/p/{{user:[0-9]{{1,20}}}}", _player)
    app.router.add_get(f"/s/{KEY}/g/{{game:[A-Za-z0-9_-]{{4,40}}}}", _game)
    app.router.add_get("/{tail:.*}", unknown)


async def _home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/rules")


async def _rules(request: web.Request) -> web.Response:
    """The rules; under a server's address (`/s/<key>/rules`) inside its menu."""
    base = server = None
    if "key" in request.match_info:
        server = await server_of(request)
        base = base_of(request)
    lang = reader_language(request)
    return render(
        request, "rules.html", lang, base=base, sections=rules_html(lang), server=server,
        title=t("web.rules.title", lang), description=t("details.rules_description", lang),
    )  # fmt: skip


async def _duel(request: web.Request) -> web.Response:
    server = await server_of(request)
    lang = reader_language(request)
    found = await duel_board(request.app[STORE], server.guild_id, page_number(request))
    names = await names_of(request, server.guild_id, (row.user_id for row in found.rows), lang)
    rows = [
        {"row": row, "name": names[row.user_id],
         "player": f"{base_of(request)}p/{row.user_id}"}
        for row in found.rows
    ]  # fmt: skip
    described = (f"{r.rank}. {names[r.user_id]} — Elo {r.rating}" for r in found.rows)
    return render(
        request, "duel.html", lang, base=base_of(request), rows=rows, board=found, server=server,
        numbers=page_numbers(found.page, found.pages),
        title=t("web.duel.title", lang),
        description=summary(described, "" if found.past_end else t("web.duel.empty", lang)),
    )  # fmt: skip


async def _player(request: web.Request) -> web.Response:
    server = await server_of(request)
    lang = reader_language(request)
    user_id = int(request.match_info["user"])
    found = await player(request.app[STORE], server.guild_id, user_id)
    if not found.games and found.stats.games == 0:
        raise not_found(request, base_of(request))
    name = (await names_of(request, server.guild_id, [user_id], lang))[user_id]
    games = [
        {
            "when": date_text(moment(r.created_at), lang),
            "mode": t(f"games.mode.{r.state.mode.value}", lang),
            "set": set_label(r.state.game_set.name, r.state.game_set.language),
            "result": game_result(r, str(user_id), lang),
            "game": f"{base_of(request)}g/{r.state.id}",
            "game_id": r.state.id[:8],
        }
        for r in found.games
    ]
    chart = None if found.chart is None else await _chart(request, found.chart, lang)
    elo = None if found.elo is None else await _elo_chart(request, found.elo, lang)
    calendar = streak_calendar(found.today, found.days, lang) if found.today else None
    streaks = sorted(found.streaks.items(), key=lambda i: (-i[1].current, -i[1].longest))
    held = await request.app[STORE].achievements.held(server.guild_id, user_id)
    return render(
        request, "player.html", lang, base=base_of(request), name=name, record=found, server=server,
        games=games, chart=chart, streaks=streaks, title=name, elo=elo, calendar=calendar,
        achievements=web_rows(held, lang), achievements_title=t("achievements.stats.title", lang),
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


async def _elo_chart(request: web.Request, data: EloChartInput, lang: str) -> Markup | None:
    """The player's Elo over their rated duels as SVG, drawn by the chart worker once."""
    label = t("details.chart.elo", lang)
    charts = request.app[CHARTS]
    return await request.app[DRAWN].svg(
        (data, lang), lambda: charts.render(elo_svg_bytes, data, lang, label)
    )


async def _neighbours(request: web.Request, guild_id: int, state: GameState) -> Neighbours:
    """The first player's games just before and after this one, among their last ones."""
    player_id = state.players[0]
    if not player_id.isdigit():
        return Neighbours()
    games = await request.app[STORE].games.history(guild_id, int(player_id), limit=NEIGHBOURS_MAX)
    ids = [r.state.id for r in games]
    if state.id not in ids:
        return Neighbours()
    at = ids.index(state.id)
    return Neighbours(
        before=ids[at + 1] if at + 1 < len(ids) else None, after=ids[at - 1] if at else None
    )


def _day_board(base: str, period: str | None, state: GameState, lang: str) -> Link | None:
    """A Qualification's link to its day's board (that Set version, the player's row
    marked); None for a game of no Qualification day."""
    if period is None or state.mode is not Mode.QUALIFICATION:
        return None
    query = {"set": state.game_set.name, "day": period, "version": state.game_set.version}
    if state.players[0].isdigit():
        query["me"] = state.players[0]
    query["lang"] = lang
    text = t("details.replay.day_board", lang, date=date_text(day_of(period), lang))
    return Link(f"{base}?{urlencode(query)}", text)


def _kept_replay(html: str, lang: str) -> web.Response:
    """A finished replay's page from memory (`ReplayCache`), as it was first answered."""
    page = web.Response(text=html, content_type="text/html", charset="utf-8")
    page.headers["Content-Language"] = lang
    page.headers["Vary"] = "Accept-Language"
    page.headers["Cache-Control"] = f"public, max-age={FINISHED_S}"
    return page


async def _game(request: web.Request) -> web.Response:
    server = await server_of(request)  # pages turned off: 404, kept or not
    lang = reader_language(request)
    kept_as, now = (request.match_info["key"], request.match_info["game"], lang), time.monotonic()
    kept = request.app[REPLAYS].get(kept_as, now)
    if kept is not None:
        return _kept_replay(kept, lang)
    found = await replay(request.app[STORE], server.guild_id, request.match_info["game"])
    if found is None:
        raise not_found(request, base_of(request))
    record, state = found.record, found.record.state
    seated = [int(p) if p.isdigit() else 0 for p in state.players]
    known = await names_of(request, server.guild_id, seated, lang)
    names = [known[p] for p in seated]
    numbers = state.game_set.language
    rounds = rounds_of(record, names, lang)
    changes = await request.app[STORE].boards.rating_changes(state.id) if state.mode.is_duel else []
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
    day_board = _day_board(base_of(request), record.period, state, lang)
    page = render(
        request, "game.html", lang, base=base_of(request), record=record, names=names,
        server=server, players=[f"{base_of(request)}p/{p}" for p in state.players],
        scores=[number(s, numbers) for s in state.scores], rounds=rounds, accuracy=accuracy,
        sealed=found.sealed, sealed_until=sealed_until, hide_scores=hide_scores,
        void=void_text(record, lang) if found.voided else None, outcome=outcome, title=title,
        story=story(state, names, lang), elo=elo_lines(state, changes, names),
        played=t("details.replay.played", lang, date=moment(record.created_at)),
        around=around, has_best=any(r["has_best"] for r in rounds), day_board=day_board,
        description=f"{summary(seats_text, '')} · {outcome or title}",
    )  # fmt: skip
    if state.outcome is not None and found.sealed is None and record.meta.best:
        page.headers["Cache-Control"] = f"public, max-age={FINISHED_S}"  # it never changes
        request.app[REPLAYS].put(kept_as, now, page.text or "")
    return page
