"""`formula-darts` command line: one subcommand per module, each registering itself."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.cli import _db, _eval, _play, _run, _sandbox, _sets, _solve, _web

_MODULES = (_run, _play, _eval, _solve, _sets, _sandbox, _db, _web)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="formula-darts", description="Formula Darts: a math game judged by real PHP."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for module in _MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(_eval.dash_formula(words))
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return int(code or 0)


if __name__ == "__main__":
    raise SystemExit(main())
