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
from bot.i18n import t
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
LOCALE = "en"


def terminal_faces(face: TerminalFace) -> Faces:
    """A router with the terminal alone: this process announces no other face's games."""
    faces = Faces()
    faces.attach(Face.TERMINAL, face, face)
    return faces


def _intro(game_set: GameSet) -> str:
    lang = language(game_set.language)
    return (
        f"Formula Darts — {game_set.name}: Score {game_set.start_score}, Goal {game_set.goal}, "
        f"Bonus {game_set.bonus}, {game_set.max_rounds} rounds, {game_set.time_limit} s each.\n"
        f"Functions: {', '.join(game_set.functions)}. Type a {lang.label} formula using the "
        "digits in order; ':q' resigns."
    )


def refusal(error: UserError) -> str:
    """A refusal of the service's, as the bot words it, its moments as this machine's
    clock reads them (Discord writes them as its own timestamps and mentions)."""
    params = error.display_params(LOCALE)
    for key in error.moments:
        if key in params:
            params[key] = "at " + datetime.fromtimestamp(float(params[key])).strftime("%H:%M:%S")
    for key in error.players:
        if key in params:
            params[key] = f"player {params[key]}"
    return "  ✗ " + t(error.key, LOCALE, **params)


async def _leftover(service: GameService, guild_id: int, player: int, out: TextIO) -> None:
    """A terminal game of this player's left running (the terminal was closed) is
    resigned: nobody else will ever play it, and it would keep the player from starting."""
    left = await service.game_of(guild_id, player)
    if left is not None and left.face is Face.TERMINAL:
        await service.resign(guild_id, player)
        print("(an unfinished terminal game of yours was resigned)", file=out)


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
    """Play one Training game on `service`, whose router has `face` (`terminal_faces`);
    the I/O is injected so tests can drive it. Returns the game as stored."""
    game_set = await service.set_named(guild_id, set_name)
    print(_intro(game_set), file=out)
    await _leftover(service, guild_id, player, out)
    record = await service.start_single(
        Mode.TRAINING, guild_id, player, set_name, LOCALE, _no_channel, face=Face.TERMINAL
    )
    game_id = record.state.id
    try:
        while (live := await service.load(game_id)) is not None and live.active:
            await _turn(service, live, read_line, out, player)
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
    service: GameService, live: GameRecord, read_line: ReadLine, out: TextIO, player: int
) -> None:
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
        print(refusal(error), file=out)
        return
    if result.error is not None:
        print(describe_error(result.error, formula, live.state.game_set.language), file=out)
        seconds = max(0, round(rnd.deadline - service.clock()))
        print(f"  try again ({seconds} s left)", file=out)
