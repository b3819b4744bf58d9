"""Formula Darts on Discord: the bot, its storage, i18n, CLI and the terminal game.

`create_bot` is loaded lazily so `formula-darts` subcommands that never touch
Discord (eval, sets, play) start without importing discord.py.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "create_bot":
        from bot.app import create_bot

        return create_bot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
