"""`formula-darts` command line: the bot's subcommands (one module each) and the other
packages' own (`evaluator.cli`: eval, sandbox; `solver.cli`: solve), composed here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import evaluator.cli
import solver.cli
from bot.cli import _db, _play, _puzzle, _run, _sets, _web

_REGISTRARS: tuple[Callable[[Any], None], ...] = (
    _run.register,
    _play.register,
    evaluator.cli.register_eval,
    solver.cli.register,
    _sets.register,
    evaluator.cli.register_sandbox,
    _db.register,
    _web.register,
    _puzzle.register,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="formula-darts", description="Formula Darts: a math game judged by real PHP."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for register in _REGISTRARS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(evaluator.cli.dash_formula(words))
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return int(code or 0)


if __name__ == "__main__":
    raise SystemExit(main())
