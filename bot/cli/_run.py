"""`formula-darts run`: start the Discord bot, or the terminal game without a token.

A fresh clone has no token; rather than fail, it says where to get one and
plays a real Training game in the terminal, so the README's command always works.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any

SETUP_HELP = """\
No DISCORD_TOKEN is set, so the Discord bot cannot start.

To run it in Discord:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", press "Reset Token" and copy the token.
  3. Put it in the environment (export DISCORD_TOKEN=...) or in a .env file
     next to where you run this command: DISCORD_TOKEN=...
  4. Invite the bot: "OAuth2 → URL Generator", scopes bot + applications.commands,
     with the permissions it needs: {permissions}.

Meanwhile, here is a Training game in the terminal (same rules, real PHP):
"""


PERMISSIONS = (
    "Send Messages",
    "Send Messages in Threads",
    "Create Public Threads",
    "Embed Links",
    "Attach Files (for /sets export)",
    "Read Message History",
    "Use Application Commands",
)
"""Everything the bot does in a channel: games in threads, embeds, the Sets file."""

LOGIN_REFUSED = "formula-darts: the token was refused: check DISCORD_TOKEN."
UNREACHABLE = "formula-darts: cannot reach Discord ({error}); check the network and try again."


def setup_help() -> str:
    return SETUP_HELP.format(permissions=", ".join(PERMISSIONS))


def run_bot(main: Callable[[], Coroutine[Any, Any, None]]) -> int:
    """Run the bot until it stops; a refused token, no network or a taken METRICS_PORT is
    one line and exit 1."""
    import discord

    from bot.observability import MetricsPortUnavailable

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        print(LOGIN_REFUSED, file=sys.stderr)
        return 1
    except MetricsPortUnavailable as error:
        print(f"formula-darts: {error}", file=sys.stderr)
        return 1
    except (discord.GatewayNotFound, OSError) as error:  # aiohttp's connector errors too
        print(UNREACHABLE.format(error=error.__class__.__name__), file=sys.stderr)
        return 1
    return 0


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
        print(setup_help(), file=sys.stderr)
        from bot.terminal import play_terminal

        sets_file = str(settings.sets_file) if settings.sets_file else None
        return asyncio.run(play_terminal(set_name=None, sets_file=sets_file))

    from bot.app import run_discord
    from bot.observability import configure_logging

    level = logging.getLevelNamesMapping().get(str(args.log_level).upper(), logging.INFO)
    configure_logging(settings, level)
    token = settings.discord_token.get_secret_value()
    return run_bot(lambda: run_discord(settings, token))
