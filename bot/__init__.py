"""Formula Darts on Discord: the bot, its storage, i18n, CLI and the terminal game.

Nothing is imported here, so `formula-darts` subcommands that never touch Discord
(eval, solve, sets, play) start without importing discord.py.
"""
