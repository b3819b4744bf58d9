"""A server's Cups on the web: the hall of fame with its Cups (`/s/<key>/cups`) and a
Cup's bracket (`/s/<key>/cup/<id>`), round by round, each match linking to its legs'
replays. Plain HTML lists (no table wider than a phone, no script); a Cup's results are
public as each match ends (RULES.md "Cup": matches are not sealed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.storage import CupPhase, CupRecord, LegRecord
from bot.web._keys import STORE
from bot.web._page import base_of, names_of, reader_language, render, server_of
from bot.web._reach import not_found
from bot.web._routes import KEY
from rules.cup import Match

CACHE_S = 10
HALL_MAX = 50


@dataclass(frozen=True)
class Side:
    name: str
    seed: int | None
    wins: int
    winner: bool


@dataclass(frozen=True)
class MatchView:
    sides: tuple[Side, Side]
    decision: str | None
    legs: list[tuple[int, str, str | None]]
    """(leg number, replay address, result) of each leg played."""


def add_routes(app: web.Application) -> None:
    """Before `bot.web._routes.add_routes`: its last route takes every other address."""
    app.router.add_get(f"/s/{KEY}/cups", _hall)
    app.router.add_get(f"/s/{KEY}/cup/{{cup:[0-9]{{1,20}}}}", _bracket)


def ctr(lang: str) -> Any:
    return lambda key, **params: t(f"cup.{key}", lang, **params)


def _cached(response: web.Response) -> web.Response:
    response.headers["Cache-Control"] = f"public, max-age={CACHE_S}"
    return response


async def _hall(request: web.Request) -> web.Response:
    server = await server_of(request)
    lang = reader_language(request)
    cups = await request.app[STORE].cups.of_server(server.guild_id, open_only=False)
    cups = sorted(cups, key=lambda c: -c.starts_at)[:HALL_MAX]
    champions = [int(c.champion) for c in cups if c.champion is not None]
    names = await names_of(request, server.guild_id, champions, lang)
    rows = [{"cup": c, "link": f"{base_of(request)}cup/{c.id}",
             "champion": None if c.champion is None else names[int(c.champion)]}
            for c in cups]  # fmt: skip
    title = t("cup.web.hall", lang)
    return _cached(
        render(
            request,
            "cups.html",
            lang,
            base=base_of(request),
            rows=rows,
            ctr=ctr(lang),
            title=title,
            description=title,
        )
    )


def _match_view(
    cup: CupRecord, match: Match, names: dict[int, str], legs: list[LegRecord], base: str
) -> MatchView:
    assert cup.bracket is not None
    sides = tuple(
        Side(
            name="" if seed is None else names[int(cup.bracket.player(seed) or 0)],
            seed=seed,
            wins=match.wins[i],
            winner=match.winner == i,
        )
        for i, seed in enumerate(match.seeds)
    )
    played = [(leg.leg, f"{base}g/{leg.game_id}", leg.result) for leg in legs
              if (leg.round, leg.slot) == (match.round, match.slot)]  # fmt: skip
    decision = None if match.decision is None else match.decision.value
    return MatchView((sides[0], sides[1]), decision, played)


async def _bracket(request: web.Request) -> web.Response:
    server = await server_of(request)
    lang = reader_language(request)
    store = request.app[STORE]
    cup = await store.cups.find(server.guild_id, int(request.match_info["cup"]))
    if cup is None:
        raise not_found(request)
    rounds: list[tuple[str, list[MatchView]]] = []
    if cup.bracket is not None:
        bracket = cup.bracket
        ids = [int(p) for p in bracket.entrants]
        names = await names_of(request, server.guild_id, ids, lang)
        legs = await store.cups.legs(cup.id)
        for number in range(1, bracket.rounds + 1):
            matches = [_match_view(cup, m, names, legs, base_of(request))
                       for m in bracket.matches if m.round == number]  # fmt: skip
            rounds.append((_round_name(number, bracket.rounds, lang), matches))
    champion = None
    if cup.champion is not None:
        champion = (await names_of(request, server.guild_id, [int(cup.champion)], lang))[
            int(cup.champion)
        ]
    return _cached(
        render(
            request,
            "cup.html",
            lang,
            base=base_of(request),
            cup=cup,
            rounds=rounds,
            champion=champion,
            ctr=ctr(lang),
            drawn=cup.phase is not CupPhase.SCHEDULED,
            title=cup.name,
            description=t("cup.web.bracket", lang, name=cup.name),
        )
    )


def _round_name(number: int, rounds: int, lang: str) -> str:
    if number == rounds:
        return t("cup.round.final", lang)
    if number == rounds - 1:
        return t("cup.round.semi", lang)
    return t("cup.round.number", lang, number=number)
