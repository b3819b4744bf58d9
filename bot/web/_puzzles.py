"""A server's puzzles' boards on the web (`/s/<key>/puzzles`), as `/puzzles` shows them
in Discord: Storm's and Streak's of today, this week or all time (`?window=`), and the
daily puzzle's of the last day whose seal is off; today's daily puzzle stays sealed like
a Qualification's day (RULES.md "Puzzles"): only how many played it. Registered by
`_app` before the pages' catch-all."""

from __future__ import annotations

import time
from dataclasses import dataclass

from aiohttp import web

from bot.i18n import date_text, day_of, t
from bot.puzzles import WINDOWS, day_board, grade_text, previous_day, server_day, window_board
from bot.storage import BoardLine, PuzzleKind
from bot.web._keys import CACHE_S, STORE
from bot.web._page import base_of, names_of, reader_language, render, server_of
from bot.web._page import summary as page_summary
from bot.web._routes import KEY

PUZZLES = f"/s/{KEY}/puzzles"


@dataclass(frozen=True)
class Row:
    place: int
    name: str
    total: str
    solved: int
    seconds: str


@dataclass(frozen=True)
class Board:
    kind: str
    title: str
    rows: list[Row]


def add_routes(app: web.Application) -> None:
    app.router.add_get(PUZZLES, _puzzles)


async def _puzzles(request: web.Request) -> web.Response:
    server = await server_of(request)
    lang = reader_language(request)
    window = request.query.get("window", "day")
    window = window if window in WINDOWS else "day"
    store, guild_id, zone, now = request.app[STORE], server.guild_id, server.zone, time.time()
    today = server_day(now, zone)
    storm = await window_board(store, guild_id, PuzzleKind.STORM, window, now, zone)
    streak = await window_board(store, guild_id, PuzzleKind.STREAK, window, now, zone)
    playing, today_seal = await day_board(store, guild_id, today, now, zone)
    shown_day, daily = today, playing
    if today_seal is not None:  # today's is sealed: the day before, once its seal is off
        shown_day = previous_day(today)
        daily, seal = await day_board(store, guild_id, shown_day, now, zone)
        daily = [] if seal is not None else daily
    everyone = [line.user_id for line in storm + streak + daily]
    names = await names_of(request, guild_id, everyone, lang)
    base = base_of(request)

    def rows(lines: list[BoardLine]) -> list[Row]:
        return [
            Row(place, names[line.user_id],
                grade_text(line.total, lang), line.solved, f"{line.seconds:.0f}")
            for place, line in enumerate(lines, start=1)
        ]  # fmt: skip

    span = t(f"puzzles.window.{window}", lang)
    boards = [
        Board("storm", t("web.puzzles.storm", lang, window=span), rows(storm)),
        Board("streak", t("web.puzzles.streak", lang, window=span), rows(streak)),
        Board("daily", t("web.puzzles.daily", lang, day=date_text(day_of(shown_day), lang)),
              rows(daily)),
    ]  # fmt: skip
    sealed_note = (
        t("web.puzzles.sealed", lang, count=len(playing), until=date_text(today_seal.ends, lang))
        if today_seal is not None
        else None
    )
    described = (f"{b.title}: {b.rows[0].name} {b.rows[0].total}" for b in boards if b.rows)
    response = render(
        request, "puzzles.html", lang, base=base, server=server, boards=boards,
        window=window, windows=[(w, t(f"puzzles.window.{w}", lang)) for w in WINDOWS],
        sealed_note=sealed_note, title=t("web.puzzles.title", lang),
        description=page_summary(described, t("web.puzzles.empty", lang)),
    )  # fmt: skip
    response.headers["Cache-Control"] = f"public, max-age={CACHE_S}"
    return response
