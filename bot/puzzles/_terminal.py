"""Puzzles in the terminal (`formula-darts puzzle`): a Storm or a Streak on the same
`PuzzleRuns` the bot uses, from the same stored pool, with the same texts made plain.

Reading a line never waits on a clock: the run keeps the time (an answer after a Storm's
end, or after a Streak's puzzle's deadline, is not counted), so a plain blocking read is
right. An empty line skips (a Storm), `:q` stops; end of input stops too.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from bot.i18n import DEFAULT_LOCALE, t
from bot.puzzles._runs import Graded, Invalid, PuzzleError, PuzzleRuns, Shown
from bot.puzzles._texts import graded_text, invalid_text, puzzle_text, summary_text
from bot.storage import PuzzleKind, PuzzleRun

ReadLine = Callable[[], Awaitable[str | None]]
TERMINAL_GUILD = 0
"""The terminal's runs are kept as a server of their own (no Discord server has id 0)."""
STOP = ":q"
_STAMP = re.compile(r"<t:(\d+):R>")


def plain(text: str, now: float, locale: str = DEFAULT_LOCALE) -> str:
    """A Discord text for a terminal: no bold, a timestamp as the seconds left."""
    text = text.replace("**", "")

    def left(stamp: re.Match[str]) -> str:
        return t("terminal.in_seconds", locale, seconds=max(0, round(int(stamp[1]) - now)))

    return _STAMP.sub(left, text)


async def play_puzzles(
    runs: PuzzleRuns, kind: PuzzleKind, set_name: str | None, read_line: ReadLine,
    out: TextIO, *, user_id: int = 0, locale: str = DEFAULT_LOCALE,
) -> PuzzleRun:  # fmt: skip
    """Play one Storm or Streak to its end; the run as it ended."""
    shown: Shown | None = await runs.start(TERMINAL_GUILD, user_id, kind, set_name, locale)
    assert shown is not None
    print(plain(puzzle_text(shown, locale, first=True), runs.clock(), locale), file=out)
    run_id = shown.run.id
    while shown is not None:
        line = await read_line()
        if line is None or line.strip() == STOP:
            await runs.stop(run_id, user_id)
            break
        formula = line.strip()
        try:
            outcome: Graded | Invalid
            if not formula and kind is PuzzleKind.STORM:
                outcome = await runs.skip(run_id, user_id, shown.seq)
            else:
                outcome = await runs.submit(run_id, user_id, shown.seq, formula)
        except PuzzleError:
            break
        if isinstance(outcome, Invalid):
            from bot.i18n import describe_eval_error

            error = describe_eval_error(
                outcome.error, locale, formula, lang=shown.run.game_set.language
            )
            text = invalid_text(outcome, formula, error, locale)
            print(plain(text, runs.clock(), locale), file=out)
            continue
        print(plain(graded_text(outcome, locale, sealed=False), runs.clock(), locale), file=out)
        shown = outcome.next
    run, answers = await runs.summary(run_id)
    earned = await runs.earned_lines(run_id, locale)
    text = summary_text(run, answers, locale, sealed=False, earned=earned)
    print("\n" + plain(text, runs.clock(), locale), file=out)
    return run


def stdin_lines() -> ReadLine:
    """Lines of standard input, read off the event loop; None at its end."""

    async def read() -> str | None:
        line = await asyncio.to_thread(sys.stdin.readline)
        return line or None

    return read
