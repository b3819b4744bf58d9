"""`formula-darts play` (and `run` without a token): open the store, the sandbox and the
solver, build the one `GameService` with the terminal's face, play one game, close."""

from __future__ import annotations

import asyncio
import os
import sys

import rules
from bot.i18n import t
from bot.terminal._face import TerminalFace
from bot.terminal._game import LOCAL_GUILD, LOCAL_PLAYER, play, refusal, terminal_faces
from bot.terminal._read import stdin_reader
from bot.terminal._text import reader_locale
from evaluator.language import language


async def play_terminal(
    set_name: str | None = None,
    sets_file: str | None = None,
    *,
    database_url: str | None = None,
    guild_id: int = LOCAL_GUILD,
    player: int = LOCAL_PLAYER,
    lang: str | None = None,
) -> int:
    """Play one game on the database the bot uses (DATABASE_URL unless told); an exit
    code. Anything the player or the machine got wrong is one line, never a traceback.
    Every text in `lang`, else the language the environment names (`reader_locale`)."""
    import time

    from bot.cli.engine import game_service
    from bot.common import UserError
    from bot.settings import BotSettings
    from bot.solving import ConfirmedSolver
    from bot.storage import open_store
    from evaluator import open_evaluator
    from solver.process import SolverProcess

    locale = reader_locale(lang, os.environ)
    settings = BotSettings()
    if sets_file is not None:
        settings = settings.model_copy(update={"sets_file": sets_file})
    try:
        sets = rules.load_sets(settings.sets_file)
    except rules.SetsError as exc:
        print(t("terminal.sets_problems", locale, problems=exc), file=sys.stderr)
        return 1
    name = set_name or "darts"
    if name not in sets:
        available = ", ".join(sets)
        print(t("terminal.no_set", locale, name=repr(name), available=available), file=sys.stderr)
        return 2
    try:
        evaluator = await open_evaluator(languages=[sets[name].language])
    except RuntimeError as exc:
        label = language(sets[name].language).label
        print(t("terminal.no_sandbox", locale, language=label, reason=exc), file=sys.stderr)
        return 1
    face = TerminalFace(sys.stdout, time.time, locale)
    try:
        async with (
            await open_store(database_url or settings.database_url) as store,
            SolverProcess() as solver,
        ):
            service = game_service(
                settings, store, evaluator, revealer=ConfirmedSolver(solver, evaluator),
                owns=lambda guild: True, faces=terminal_faces(face),
            )  # fmt: skip
            try:
                read_line = await stdin_reader(sys.stdout, locale)
                await play(
                    service, face, read_line, sys.stdout,
                    set_name=name, guild_id=guild_id, player=player,
                )  # fmt: skip
            except UserError as error:
                print(refusal(error, locale), file=sys.stderr)
                return 1
            finally:
                await service.close()
    finally:
        await evaluator.close()
    return 0


def run_terminal(
    set_name: str | None = None,
    sets_file: str | None = None,
    *,
    database_url: str | None = None,
    guild_id: int = LOCAL_GUILD,
    player: int = LOCAL_PLAYER,
    lang: str | None = None,
) -> int:
    game = play_terminal(
        set_name, sets_file, database_url=database_url, guild_id=guild_id, player=player,
        lang=lang,
    )  # fmt: skip
    return asyncio.run(game)
