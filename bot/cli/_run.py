"""`formula-darts run`: start the Discord bot, or the terminal game without a token.

A fresh clone has no token; rather than fail, it says where to get one and
plays a real Training game in the terminal, so the README's command always works.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

SETUP_HELP = """\
No DISCORD_TOKEN is set, so the Discord bot cannot start.

To run it in Discord:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", press "Reset Token" and copy the token.
  3. Put it in the environment (export DISCORD_TOKEN=...) or in a .env file
     next to where you run this command: DISCORD_TOKEN=...
  4. Invite the bot: "OAuth2 → URL Generator", scopes bot + applications.commands,
     permissions Send Messages, Create Public Threads, Send Messages in Threads.

Meanwhile, here is a Training game in the terminal (same rules, real PHP):
"""


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser: argparse.ArgumentParser = sub.add_parser(
        "run", help="start the Discord bot (a terminal game when no token is set)"
    )
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from bot.settings import BotSettings

    settings = BotSettings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        print(SETUP_HELP, file=sys.stderr)
        from bot.terminal import play_terminal

        sets_file = str(settings.sets_file) if settings.sets_file else None
        return asyncio.run(play_terminal(set_name=None, sets_file=sets_file))

    import discord

    from bot.app import create_bot

    discord.utils.setup_logging(level=getattr(logging, str(args.log_level).upper(), logging.INFO))
    create_bot(settings).run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0
