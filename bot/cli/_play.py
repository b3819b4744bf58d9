"""`formula-darts play`: a Training game in the terminal, on the bot's own game engine and
database (so a game played with `--guild` and `--player` shows in that player's
`/history` in Discord)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "play", help="play a Training game in the terminal (real PHP, real timer)"
    )
    parser.add_argument("--set", dest="set_name", default=None, help="Set name (default: darts)")
    parser.add_argument("--sets-file", default=None, help="a Sets YAML file (default: shipped)")
    parser.add_argument("--url", default=None, help="database URL (default: DATABASE_URL)")
    parser.add_argument(
        "--guild", type=int, default=0, help="the Discord server's id to store the game under"
    )
    parser.add_argument(
        "--player", type=int, default=0, help="your Discord user id: the game is in your /history"
    )
    parser.add_argument(
        "--lang", default=None, choices=("en", "uk"),
        help="the language it speaks (default: from LC_ALL / LC_MESSAGES / LANG, else en)",
    )  # fmt: skip
    parser.set_defaults(func=_play)


def _play(args: argparse.Namespace) -> int:
    from bot.terminal import run_terminal

    return run_terminal(
        args.set_name,
        args.sets_file,
        database_url=args.url,
        guild_id=args.guild,
        player=args.player,
        lang=args.lang,
    )
