"""The one game engine, handed to the web face: `hand_service(app, service)` keeps it on
the app, where a page that plays (a room's live table, later) reads it with
`service_of(request.app)`. The pages of stored games need only the store."""

from __future__ import annotations

from aiohttp import web

from bot.play import GameService

GAME_SERVICE = web.AppKey("game_service", GameService)


def hand_service(app: web.Application, service: GameService) -> None:
    app[GAME_SERVICE] = service


def service_of(app: web.Application) -> GameService | None:
    """The engine the app was handed; None where the pages run alone (`formula-darts web`)."""
    return app.get(GAME_SERVICE)
