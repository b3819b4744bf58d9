"""`formula-darts play` at a real terminal (a pty): typed lines can be edited (issue 21).

The old reader took the terminal's raw line, so Left arrow went in as `ESC [ D`
and the formula was refused. Driven like a player: the digits are read off the
screen, the formula is typed with a correction made by moving the cursor back,
Up recalls it, Ctrl-D resigns. Every wait is bounded; nothing is timed.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from tests.support.paths import ROOT

BOUND = 90.0
LEFT, UP, CTRL_D, ENTER = b"\x1b[D", b"\x1b[A", b"\x04", b"\r"


class Screen:
    """What the game wrote to its terminal, read as it comes."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""

    def wait_for(self, pattern: str, since: int = 0) -> re.Match[str]:
        """The first match of `pattern` at or after `since`, waiting (bounded) for it."""
        deadline = time.monotonic() + BOUND
        while (found := re.compile(pattern).search(self.text, since)) is None:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {pattern!r} in:\n{self.text[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the game exited and closed its end
                    chunk = b""
                assert chunk, f"the game ended before {pattern!r}:\n{self.text[-2000:]}"
                self.text += chunk.decode("utf-8", "replace")
        return found


def test_a_formula_can_be_edited_with_the_arrows_and_recalled(tmp_path: Path) -> None:
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm", "EVALUATOR": "local", "POOL_SIZE": "1"}
    env["PROMPT_TOOLKIT_NO_CPR"] = "1"  # a pty does not answer cursor position requests
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path}/play.sqlite3"  # the game is stored
    game = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--set", "darts"],
        stdin=child, stdout=child, stderr=child, cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    os.close(child)
    screen = Screen(main)
    try:
        digits = screen.wait_for(r"Round 1/7 · Score 501 · Digits (\d{4})").group(1)
        screen.wait_for("formula>")
        # single digits: a number like `07` would be PHP's octal whatever the Digits
        typed = f"{digits[0]}+{digits[1]}+{digits[3]}".encode()
        os.write(main, typed + LEFT + f"{digits[2]}+".encode() + ENTER)
        formula = "+".join(digits)
        screen.wait_for(rf"✓ {re.escape(formula)} = \d+ \(int\)")
        second = screen.wait_for(r"Round 2/7 · .*\n").end()
        screen.wait_for("formula>", second)
        os.write(main, UP + ENTER)  # the same formula again, on other Digits
        after = screen.wait_for(rf"the digits read are .*, but|✓ {re.escape(formula)} =", second)
        screen.wait_for("formula>", after.end())
        os.write(main, CTRL_D)
        screen.wait_for("You resigned")
        assert game.wait(timeout=BOUND) == 0
    finally:
        if game.poll() is None:
            game.kill()
            game.wait(timeout=BOUND)
        os.close(main)
