"""A room's replay on the web (`/s/<key>/r/<room>`): its places, then every round that
has ended with each player's formula, Result, Points and Score.

A room's formulas are secret only while its round runs (RULES.md "Room"), so a round
still being played shows none. Registered by `_app` before the pages' catch-all."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.common import fmt, set_label
from bot.i18n import t
from bot.web._keys import STORE
from bot.web._page import base_of, names_of, reader_language, render, server_of
from bot.web._reach import not_found
from bot.web._routes import KEY
from rules.room_state import RoomState

ROOM = f"/s/{KEY}/r/{{room:[A-Za-z0-9_-]{{4,64}}}}"


@dataclass(frozen=True)
class Cell:
    formula: str
    result: str
    points: str
    score: str
    auto: bool


@dataclass(frozen=True)
class RoomRound:
    number: int
    digits: str
    resolved: bool
    cells: list[Cell | None]


def add_routes(app: web.Application) -> None:
    app.router.add_get(ROOM, _room)


def rounds_of(state: RoomState) -> list[RoomRound]:
    """Every round, its answers only once it ended."""
    numbers = state.game_set.language
    rounds = []
    for rnd in state.rounds:
        cells: list[Cell | None] = []
        for answer in rnd.answers:
            if answer is None or not rnd.resolved:
                cells.append(None)
                continue
            cells.append(Cell(answer.formula, fmt(answer.result, numbers),
                              fmt(answer.points, numbers), fmt(answer.score, numbers),
                              answer.auto))  # fmt: skip
        rounds.append(RoomRound(rnd.number, rnd.digits, rnd.resolved, cells))
    return rounds


async def _room(request: web.Request) -> web.Response:
    server = await server_of(request)
    lang = reader_language(request)
    record = await request.app[STORE].rooms.load(request.match_info["room"])
    if record is None or record.guild_id != server.guild_id:
        raise not_found(request, base_of(request))
    state = record.state
    seated = [int(p) if p.isdigit() else 0 for p in state.players]
    known = await names_of(request, server.guild_id, seated, lang)
    names = [known[p] for p in seated]
    place = {s.player: s.place for s in state.standings}
    order = sorted(range(len(names)), key=lambda i: (place.get(i, len(names) + 1), i))
    table = [
        (place.get(i), names[i], fmt(state.scores[i], state.game_set.language) if state.scores
         else "")
        for i in order
    ]  # fmt: skip
    title = t("web.room.title", lang, set=set_label(state.game_set.name,
              state.game_set.language), id=state.id[:8])  # fmt: skip
    return render(
        request, "room.html", lang, base=base_of(request), title=title, table=table,
        names=names, rounds=rounds_of(state), description=title,
    )  # fmt: skip
