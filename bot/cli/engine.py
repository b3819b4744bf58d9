"""The one game engine of a process: `game_service` builds the `GameService` that `main()`
hands to each face (Discord, the terminal, the web).

Discord-free, so the terminal and the web build it without loading the bot; whoever
opens the store and the evaluator passes them in and closes them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import rules
from bot.play import Clock, DigitsSource, Evaluating, Faces, GameService, Revealer
from bot.settings import BotSettings, SoloGames
from bot.storage import Store


def game_service(
    settings: BotSettings,
    store: Store,
    evaluator: Evaluating,
    *,
    clock: Clock = time.time,
    revealer: Revealer | None = None,
    digits_source: DigitsSource | None = None,
    owns: Callable[[int], bool] | None = None,
    faces: Faces | None = None,
) -> GameService:
    """The service over the settings' Sets, on this process's shards (`owns`: the
    settings' shards unless told). Each face attaches itself to `service.faces`."""
    return GameService(
        store,
        evaluator,
        rules.load_sets(settings.sets_file),
        revealer=revealer,
        owns=settings.shards.owns if owns is None else owns,
        clock=clock,
        digits_source=digits_source,
        private_solo=settings.solo_games is SoloGames.PRIVATE,
        faces=faces,
    )
