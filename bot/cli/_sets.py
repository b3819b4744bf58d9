"""`formula-darts sets check [FILE]`: validate a Sets file, every error at once."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rules import SetsError, load_sets


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser("sets", help="work with Sets files")
    actions = parser.add_subparsers(dest="sets_command", required=True)
    check = actions.add_parser("check", help="validate a Sets file (exit 1 on errors)")
    check.add_argument("file", nargs="?", default=None, help="default: the shipped sets.yaml")
    check.set_defaults(func=_check)


def _check(args: argparse.Namespace) -> int:
    try:
        sets = load_sets(args.file)
    except SetsError as exc:
        print(f"{len(exc.problems)} problem(s):", file=sys.stderr)
        for problem in exc.problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    for game_set in sets.values():
        print(
            f"{game_set.name}: start {game_set.start_score}, goal {game_set.goal}, bonus "
            f"{game_set.bonus}, {game_set.max_rounds} rounds of {game_set.time_limit} s, "
            f"min {game_set.min_rounds}, functions {', '.join(game_set.functions)}"
        )
    print(f"OK: {len(sets)} Set(s)")
    return 0
