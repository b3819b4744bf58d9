"""The `/sets` command group: list and show for everyone, the rest for server managers.

Discord's `default_permissions` works only on a top-level command, so it would
hide `/sets list` and `/sets show` from players too. The group therefore stays
visible and every changing subcommand checks Manage Server itself, from the
permissions Discord resolved for this member in this channel. Each callback
reads the interaction, makes one SetsManager call and replies ephemerally.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.common import ListedSet, language_label
from bot.common.interactions import refuse, reply, set_choices
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from bot.sets_admin import _render as render
from bot.sets_admin._manager import ImportResult, SetsAdminError, SetsManager
from bot.sets_admin._validation import (
    check_upload_size,
    decode_upload,
    fields_from_options,
    ranged,
)
from rules import SetsError

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
T = TypeVar("T")

if TYPE_CHECKING:  # to a type checker they are ints; to Discord, ints within rules.LIMITS
    StartScore: TypeAlias = int
    Goal: TypeAlias = int
    Bonus: TypeAlias = int
    MaxRounds: TypeAlias = int
    TimeLimit: TypeAlias = int
    MinRounds: TypeAlias = int
    Attempts: TypeAlias = int
else:
    StartScore = ranged("start_score")
    Goal = ranged("goal")
    Bonus = ranged("bonus")
    MaxRounds = ranged("max_rounds")
    TimeLimit = ranged("time_limit")
    MinRounds = ranged("min_rounds")
    Attempts = ranged("attempts")

OPTION_NAMES = {
    "name": cmd("sets.option.name.name", "name"),
    "start_score": cmd("sets.option.start_score.name", "start_score"),
    "goal": cmd("sets.option.goal.name", "goal"),
    "bonus": cmd("sets.option.bonus.name", "bonus"),
    "max_rounds": cmd("sets.option.max_rounds.name", "max_rounds"),
    "time_limit": cmd("sets.option.time_limit.name", "time_limit"),
    "min_rounds": cmd("sets.option.min_rounds.name", "min_rounds"),
    "functions": cmd("sets.option.functions.name", "functions"),
    "attempts": cmd("sets.option.attempts.name", "attempts"),
    "description": cmd("sets.option.description.name", "description"),
    "language": cmd("sets.option.language.name", "language"),
}
OPTION_HELP = {
    "name": cmd("sets.option.name", "the Set's name: lowercase letters, digits, - and _"),
    "start_score": cmd("sets.option.start_score", "the Score a game starts from (1–100000)"),
    "goal": cmd("sets.option.goal", "the Goal a formula aims at (0 or more)"),
    "bonus": cmd("sets.option.bonus", "extra points for hitting the Goal exactly (0 or more)"),
    "max_rounds": cmd("sets.option.max_rounds", "the most rounds a game has (1–50)"),
    "time_limit": cmd("sets.option.time_limit", "seconds to answer one round (10–600)"),
    "min_rounds": cmd("sets.option.min_rounds", "rounds for a Perfect game; computed if left out"),
    "functions": cmd(
        "sets.option.functions",
        "from: pow sqrt hexdec octdec bindec abs intdiv floor ceil round fmod max min",
    ),
    "attempts": cmd("sets.option.attempts", "Qualification attempts a day (1–100; 1 if left out)"),
    "description": cmd("sets.option.description", "a short description players see"),
    "language": cmd(
        "sets.option.language", "the language formulas are written in (PHP if left out)"
    ),
}
LANGUAGE_CHOICES = [
    app_commands.Choice(name=cmd(f"sets.option.language.{key.value}", language_label(key)),
                        value=key.value)
    for key in rules.FormulaLanguage
]  # fmt: skip
"""Every registered formula language, its name in the reader's language (`/sets add`)."""


class SetsAdminCog(commands.Cog, name="Sets"):
    sets = app_commands.Group(
        name=cmd("sets.name", "sets"),
        description=cmd("sets.description", "The Sets (game variants) of this server"),
        guild_only=True,
    )

    def __init__(self, manager: SetsManager) -> None:
        self.manager = manager

    # ------------------------------------------------------------ for everyone

    @sets.command(
        name=cmd("sets.list.name", "list"),
        description=cmd("sets.list.description", "List the Sets you can play here"),
    )
    async def list_sets(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        listed = await self.manager.playable(interaction.guild_id or 0)
        for page in render.list_pages(listed, locale_of(interaction)):
            await reply(interaction, embeds=page)

    async def _any_set_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        listed = await self.manager.playable(interaction.guild_id or 0)
        return set_choices((item.game_set for item in listed), current, locale_of(interaction))

    async def _own_set_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        own = await self.manager.server_sets(interaction.guild_id or 0)
        return set_choices(own.values(), current, locale_of(interaction))

    @sets.command(
        name=cmd("sets.show.name", "show"),
        description=cmd("sets.show.description", "Show one Set field by field"),
    )
    @app_commands.rename(name=OPTION_NAMES["name"])
    @app_commands.describe(name=OPTION_HELP["name"])
    @app_commands.autocomplete(name=_any_set_choices)
    async def show(self, interaction: Interaction, name: str) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self._run(interaction, lambda: self.manager.get(_guild(interaction), name))
        if found is not None:
            await reply(interaction, embed=render.show_embed(found, locale))

    # ------------------------------------------------------------ for managers

    @sets.command(
        name=cmd("sets.add.name", "add"),
        description=cmd("sets.add.description", "Add a Set to this server (Manage Server)"),
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.describe(**OPTION_HELP)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def add(
        self,
        interaction: Interaction,
        name: str,
        start_score: StartScore,
        goal: Goal,
        bonus: Bonus,
        max_rounds: MaxRounds,
        time_limit: TimeLimit,
        min_rounds: MinRounds | None = None,
        functions: str | None = None,
        attempts: Attempts | None = None,
        description: str | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        if not await self._allowed(interaction):
            return
        fields = fields_from_options(
            start_score=start_score, goal=goal, bonus=bonus, max_rounds=max_rounds,
            time_limit=time_limit, min_rounds=min_rounds, functions=functions,
            attempts=attempts, description=description,
            language=None if language is None else language.value,
        )  # fmt: skip
        added = await self._run(
            interaction, lambda: self.manager.add(_guild(interaction), name, fields)
        )
        if added is not None:
            await reply(interaction, t("sets_admin.added", locale_of(interaction), name=added.name))

    @sets.command(
        name=cmd("sets.edit.name", "edit"),
        description=cmd("sets.edit.description", "Change fields of this server's Set"),
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.describe(**OPTION_HELP)
    @app_commands.autocomplete(name=_own_set_choices)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def edit(
        self,
        interaction: Interaction,
        name: str,
        start_score: StartScore | None = None,
        goal: Goal | None = None,
        bonus: Bonus | None = None,
        max_rounds: MaxRounds | None = None,
        time_limit: TimeLimit | None = None,
        min_rounds: MinRounds | None = None,
        functions: str | None = None,
        attempts: Attempts | None = None,
        description: str | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        if not await self._allowed(interaction):
            return
        changes = fields_from_options(
            start_score=start_score, goal=goal, bonus=bonus, max_rounds=max_rounds,
            time_limit=time_limit, min_rounds=min_rounds, functions=functions,
            attempts=attempts, description=description,
            language=None if language is None else language.value,
        )  # fmt: skip
        zone = (await self.manager.store.servers.settings(_guild(interaction))).zone
        day = rules.period_of(interaction.created_at, zone)  # the server's Qualification day
        result = await self._run(
            interaction, lambda: self.manager.edit_on(_guild(interaction), name, changes, day)
        )
        if result is not None:
            locale = locale_of(interaction)
            edited = result.game_set
            text = t("sets_admin.edited", locale, name=edited.name)
            if result.board_restarts:
                text += "\n" + t("sets_admin.board_restarts", locale, name=edited.name)
            await reply(
                interaction, text, embed=render.show_embed(ListedSet(edited, False), locale)
            )

    @sets.command(
        name=cmd("sets.remove.name", "remove"),
        description=cmd("sets.remove.description", "Remove this server's Set"),
    )
    @app_commands.rename(name=OPTION_NAMES["name"])
    @app_commands.describe(name=OPTION_HELP["name"])
    @app_commands.autocomplete(name=_own_set_choices)
    async def remove(self, interaction: Interaction, name: str) -> None:
        if not await self._allowed(interaction):
            return
        removed = await self._run(
            interaction, lambda: self.manager.remove(_guild(interaction), name)
        )
        if removed is not None:
            locale = locale_of(interaction)
            await reply(interaction, t("sets_admin.removed", locale, name=removed.name))

    @sets.command(
        name=cmd("sets.import.name", "import"),
        description=cmd("sets.import.description", "Add or replace Sets from a YAML file"),
    )
    @app_commands.rename(file=cmd("sets.option.file.name", "file"))
    @app_commands.describe(file=cmd("sets.option.file", "a YAML file like /sets export gives"))
    async def import_sets(self, interaction: Interaction, file: discord.Attachment) -> None:
        if not await self._allowed(interaction):
            return
        locale = locale_of(interaction)

        async def download_and_import() -> ImportResult:
            check_upload_size(file.size)
            try:
                data = await file.read()
            except discord.HTTPException as exc:
                log.warning("could not download an import file", exc_info=True)
                raise SetsAdminError("file_unreadable") from exc
            text = decode_upload(data)
            return await self.manager.import_text(_guild(interaction), text, file.filename)

        result = await self._run(
            interaction, download_and_import, problems_key="sets_admin.import_problems"
        )
        if result is not None:
            await reply(
                interaction,
                t(
                    "sets_admin.imported",
                    locale,
                    count=len(result.added) + len(result.updated),
                    added=render.names(result.added),
                    updated=render.names(result.updated),
                ),
            )

    @sets.command(
        name=cmd("sets.export.name", "export"),
        description=cmd("sets.export.description", "This server's Sets as a YAML file"),
    )
    async def export(self, interaction: Interaction) -> None:
        if not await self._allowed(interaction):
            return
        exported = await self._run(
            interaction, lambda: self.manager.export_text(_guild(interaction))
        )
        if exported is not None:
            count, text = exported
            upload = discord.File(io.BytesIO(text.encode("utf-8")), filename="sets.yaml")
            await reply(
                interaction,
                t("sets_admin.exported", locale_of(interaction), count=count),
                file=upload,
            )

    # --------------------------------------------------------------- helpers

    async def _allowed(self, interaction: Interaction) -> bool:
        """Manage Server (or Administrator) here, then acknowledged before any database
        work; a refusal otherwise."""
        permissions = interaction.permissions
        if permissions.manage_guild or permissions.administrator:
            await interaction.response.defer(ephemeral=True, thinking=True)
            return True
        await reply(interaction, t("sets_admin.not_allowed", locale_of(interaction)))
        return False

    async def _run(
        self,
        interaction: Interaction,
        action: Callable[[], Awaitable[T]],
        problems_key: str = "sets_admin.problems",
    ) -> T | None:
        """The manager's answer, or None after telling the user why not."""
        locale = locale_of(interaction)
        try:
            return await action()
        except SetsAdminError as error:
            await refuse(interaction, error)
        except SetsError as error:
            title = t(problems_key, locale, count=len(error.problems))
            await reply(interaction, embed=render.problems_embed(title, error.problems, locale))
        return None


def _guild(interaction: Interaction) -> int:
    return interaction.guild_id or 0
