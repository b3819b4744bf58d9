"""Lines typed by the player, each waited for until the round's deadline: a terminal
with line editing, a pipe, a socket or a file (`stdin_reader`)."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from bot.i18n import DEFAULT_LOCALE, t

ReadLine = Callable[[float], Awaitable[str | None]]
"""The next line within `seconds`; None when the time is up."""

RESIGN = ":q"
PROMPT = "formula> "
"""The prompt in English (`prompt` gives it in the reader's language)."""


def prompt(locale: str) -> str:
    return t("terminal.prompt", locale)


def _terminal_reader(out: TextIO, locale: str) -> ReadLine:
    """Lines typed at a terminal, with line editing: arrows, Home/End, history (Up).

    prompt_toolkit rather than the stdlib's readline: `input()` cannot be
    interrupted at a deadline, while a prompt_toolkit prompt is a coroutine the
    clock cancels, leaving the terminal as it found it. Ctrl-D resigns, as end
    of input does; Ctrl-C stops the command as before.
    """
    from prompt_toolkit import PromptSession

    session: PromptSession[str] = PromptSession()

    async def read(seconds: float) -> str | None:
        try:
            return await asyncio.wait_for(session.prompt_async(prompt(locale)), seconds)
        except TimeoutError:
            return None
        except EOFError:
            print(t("terminal.input_ended", locale), file=out)
            return RESIGN

    return read


async def stdin_reader(out: TextIO, locale: str = DEFAULT_LOCALE) -> ReadLine:
    """A deadline-aware line reader on stdin, its prompt in `locale`.

    A terminal gets line editing (`_terminal_reader`). Pipes and sockets are
    watched by the event loop, so a timeout leaves nothing blocked behind;
    anything else (a file, /dev/null) can't be watched, but never blocks
    either, so a thread reads it. End of input resigns the game instead of
    waiting for the clock.
    """
    if sys.stdin.isatty() and sys.stdout.isatty():
        return _terminal_reader(out, locale)
    interactive = sys.stdin.isatty()
    mode = os.fstat(sys.stdin.fileno()).st_mode
    next_line: Callable[[], Awaitable[str | None]]
    if interactive or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        reader = asyncio.StreamReader()
        loop = asyncio.get_running_loop()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

        async def next_line() -> str | None:
            raw = await reader.readline()
            return raw.decode("utf-8", "replace") if raw else None

    else:

        async def next_line() -> str | None:
            return await asyncio.to_thread(sys.stdin.readline) or None

    async def read(seconds: float) -> str | None:
        if interactive:
            out.write(prompt(locale))
            out.flush()
        try:
            line = await asyncio.wait_for(next_line(), seconds)
        except TimeoutError:
            if interactive:
                out.write("\n")
            return None
        if line is None:
            print(t("terminal.input_ended", locale), file=out)
            return RESIGN
        if not interactive:
            print(f"{prompt(locale)}{line.rstrip()}", file=out)
        return line

    return read
