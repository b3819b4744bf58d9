"""A Training game in the terminal, played on the real `GameService` (issue 30).

The same rules, storage and reveals as in Discord: the game is started with the
terminal's face (`Face.TERMINAL`), each line the player types is submitted to the
service as a Discord answer is, and the terminal prints what the service announces
(`TerminalFace`). It is stored under the player's Discord id and server when given
(`--player`, `--guild`), so it shows in that player's `/history` there.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime
from typing import TextIO

from bot.common import UserError
from bot.i18n import DEFAULT_LOCALE, t
from bot.play import Face, Faces, GameError, GameService
from bot.storage import GameRecord
from bot.terminal._face import TerminalFace
from bot.terminal._read import RESIGN, ReadLine
from bot.terminal._text import describe_error
from evaluator.language import language
from rules import GameSet, Mode

LOCAL_GUILD = 0
LOCAL_PLAYER = 0
"""Where a terminal game is stored when no Discord server and player are named: no
Discord id is 0, so it is in nobody's Discord history."""
RESIGN_WORDS = {RESIGN, "quit", "resign", "exit"}


def terminal_faces(face: TerminalFace) -> Faces:
    """A router with the terminal alone: this process announces no other face's games."""
    faces = Faces()
    faces.attach(Face.TERMINAL, face, face)
    return faces


def _intro(game_set: GameSet, locale: str) -> str:
    return t(
        "terminal.intro", locale, set=game_set.name, score=game_set.start_score,
        goal=game_set.goal, bonus=game_set.bonus, rounds=game_set.max_rounds,
        time=game_set.time_limit, functions=", ".join(game_set.functions),
        language=language(game_set.language).label,
    )  # fmt: skip


def refusal(error: UserError, locale: str = DEFAULT_LOCALE) -> str:
    """A refusal of the service's, as the bot words it, its moments as this machine's
    clock reads them (Discord writes them as its own timestamps and mentions)."""
    params = error.display_params(locale)
    for key in error.moments:
        if key in params:
            moment = datetime.fromtimestamp(float(params[key])).strftime("%H:%M:%S")
            params[key] = t("terminal.moment", locale, time=moment)
    for key in error.players:
        if key in params:
            params[key] = t("terminal.player", locale, id=params[key])
    return "  ✗ " + t(error.key, locale, **params)


async def _leftover(
    service: GameService, guild_id: int, player: int, out: TextIO, locale: str
) -> None:
    """A terminal game of this player's left running (the terminal was closed) is
    resigned: nobody else will ever play it, and it would keep the player from starting."""
    left = await service.game_of(guild_id, player)
    if left is not None and left.face is Face.TERMINAL:
        await service.resign(guild_id, player)
        print(t("terminal.leftover", locale), file=out)


async def play(
    service: GameService,
    face: TerminalFace,
    read_line: ReadLine,
    out: TextIO,
    *,
    set_name: str | None = None,
    guild_id: int = LOCAL_GUILD,
    player: int = LOCAL_PLAYER,
) -> GameRecord:
    """Play one Training game on `service`, whose router has `face` (`terminal_faces`),
    in the face's language; the I/O is injected so tests can drive it. Returns the game
    as stored."""
    locale = face.locale
    game_set = await service.set_named(guild_id, set_name)
    print(_intro(game_set, locale), file=out)
    await _leftover(service, guild_id, player, out, locale)
    record = await service.start_single(
        Mode.TRAINING, guild_id, player, set_name, locale, _no_channel, face=Face.TERMINAL
    )
    game_id = record.state.id
    try:
        while (live := await service.load(game_id)) is not None and live.active:
            await _turn(service, live, read_line, out, player, locale)
    finally:  # the terminal closed mid-game (Ctrl-C): the game ends with it
        live = await service.load(game_id)
        if live is not None and live.active:
            with contextlib.suppress(GameError):
                await service.resign(guild_id, player)
    stored = await service.load(game_id)
    assert stored is not None
    return stored


async def _no_channel(game_set: GameSet) -> int:
    del game_set
    return 0  # printed here: no channel


async def _turn(
    service: GameService, live: GameRecord, read_line: ReadLine, out: TextIO, player: int,
    locale: str,
) -> None:  # fmt: skip
    """One line of the player's for the open round, or its deadline."""
    rnd = live.state.current_round
    if rnd is None:  # between rounds: the service is posting the next one
        await asyncio.sleep(0.01)
        return
    left = rnd.answer_deadline - service.clock()
    line = await read_line(left) if left > 0 else None
    if line is None:
        await service.expire(live.state.id, rnd.number)
        return
    formula = line.strip()
    if formula.lower() in RESIGN_WORDS:
        with contextlib.suppress(GameError):  # the deadline ended it a moment before
            await service.resign(live.guild_id, player)
        return
    if not formula:
        return
    try:
        result = await service.submit(live.state.id, player, formula, rnd.number)
    except GameError as error:
        print(refusal(error, locale), file=out)
        return
    if result.error is not None:
        lang = live.state.game_set.language
        print(describe_error(result.error, formula, lang, locale), file=out)
        seconds = max(0, round(rnd.deadline - service.clock()))
        print(f"  {t('terminal.try_again', locale, seconds=seconds)}", file=out)
