"""The terminal face: a Training game played in a terminal on the real `GameService`.

It is what `formula-darts play` runs and what `formula-darts run` falls back to without
a token, so a fresh clone can play a real game with nothing set up. The game is the
service's (same rules, same storage, same reveals); this package reads lines
(`_read`), submits them (`_game`) and prints what the service announces (`_face`,
`_text`). It imports no discord (tests/test_layering.py).
"""

from __future__ import annotations

from bot.terminal._face import TerminalFace
from bot.terminal._game import LOCAL_GUILD, LOCAL_PLAYER, play, terminal_faces
from bot.terminal._main import play_terminal, run_terminal
from bot.terminal._read import PROMPT, RESIGN, ReadLine, stdin_reader
from bot.terminal._text import describe_error, reader_locale, summary

__all__ = [
    "LOCAL_GUILD",
    "LOCAL_PLAYER",
    "PROMPT",
    "RESIGN",
    "ReadLine",
    "TerminalFace",
    "describe_error",
    "play",
    "play_terminal",
    "reader_locale",
    "run_terminal",
    "stdin_reader",
    "summary",
    "terminal_faces",
]
