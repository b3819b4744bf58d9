"""`formula-darts run`: start the Discord bot, or the terminal game without a token.

A fresh clone has no token; rather than fail, it says where to get one and
plays a real Training game in the terminal, so the README's command always works.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
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
  4. Invite the bot to a server with this URL (your application's id from
     "General Information" in place of APPLICATION_ID):
     {invite}
     It asks for what the bot does in a channel ({permissions}), as the
     permission integer {value}; nothing else, no Administrator.

Meanwhile, here is a Training game in the terminal (same rules, real PHP):
"""


INVITE_URL = (
    "https://discord.com/oauth2/authorize?client_id=APPLICATION_ID"
    "&scope=bot+applications.commands&permissions={value}&integration_type=0"
)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""`docker stop` (and a deploy) sends SIGTERM to PID 1, a terminal SIGINT: both shut the
bot down cleanly, within compose's stop_grace_period (docker-compose.yml)."""
LOGIN_REFUSED = "formula-darts: the token was refused: check DISCORD_TOKEN."
UNREACHABLE = "formula-darts: cannot reach Discord ({error}); check the network and try again."


def setup_help() -> str:
    """The steps to a running bot; the permissions are `bot.games.INVITE`'s, named and as
    the integer an invite URL carries (importing discord.py only to read them)."""
    from bot.games import INVITE

    names = [name.replace("_", " ").title() for name, granted in INVITE if granted]
    value = INVITE.value
    return SETUP_HELP.format(
        invite=INVITE_URL.format(value=value), permissions=", ".join(names), value=value
    )


def run_bot(main: Callable[[], Coroutine[Any, Any, None]]) -> int:
    """Run the bot until it stops; a refused token, no network or a taken METRICS_PORT is
    one line and exit 1."""
    import discord

    from bot.observability import MetricsPortUnavailable

    try:
        asyncio.run(until_stopped(main))
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


async def until_stopped(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """`main()` until it ends, or until SIGTERM or SIGINT: either cancels it, so every
    `async with` of `run_discord` closes in order, as at any clean shutdown (the bot
    notes which rounds are up, logs out, closes the pools and the store). Without it,
    SIGTERM killed the process (PID 1 in the image) with nothing written, and
    `docker stop` waited its grace period for nothing (issue 28)."""
    loop = asyncio.get_running_loop()
    running = asyncio.current_task()
    assert running is not None
    stopping: list[int] = []

    def stop(signum: int) -> None:
        if not stopping:
            logging.getLogger(__name__).warning(
                "%s: shutting down cleanly", signal.Signals(signum).name
            )
            running.cancel()
        stopping.append(signum)

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, signum)
    try:
        await main()
    except asyncio.CancelledError:
        if not stopping:
            raise
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser: argparse.ArgumentParser = sub.add_parser(
        "run", help="start the Discord bot (a terminal game when no token is set)"
    )
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """The terminal game without a token; with one, the bot, unless its shards cannot run
    on its database (`BotSettings.shard_problem`): then one line and exit 2, before
    anything is opened."""
    from bot.settings import BotSettings

    settings = BotSettings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value():
        print(setup_help(), file=sys.stderr)
        from bot.terminal import play_terminal

        sets_file = str(settings.sets_file) if settings.sets_file else None
        return asyncio.run(play_terminal(set_name=None, sets_file=sets_file))

    problem = settings.shard_problem()
    if problem is not None:
        print(f"formula-darts: {problem}", file=sys.stderr)
        return 2

    from bot.observability import configure_logging
    from bot.process import run_discord

    level = logging.getLevelNamesMapping().get(str(args.log_level).upper(), logging.INFO)
    configure_logging(settings, level)
    token = settings.discord_token.get_secret_value()
    return run_bot(lambda: run_discord(settings, token))
