"""`formula-darts play`: a Training game in the terminal."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "play", help="play a Training game in the terminal (real PHP, real timer)"
    )
    parser.add_argument("--set", dest="set_name", default=None, help="Set name (default: darts)")
    parser.add_argument("--sets-file", default=None, help="a Sets YAML file (default: shipped)")
    parser.set_defaults(func=_play)


def _play(args: argparse.Namespace) -> int:
    from bot.terminal import run_terminal

    return run_terminal(args.set_name, args.sets_file)
