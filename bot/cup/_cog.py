"""`/cup`: admins set a server's Cups up (create, show, edit, cancel, list: Manage
Server), everyone reads its hall of fame (`history`); the Check in button lands here.

The group carries no `default_permissions`, since `/cup history` is for everyone: the
admin commands check Manage Server themselves (as `/config` checks it again). Each
command is acknowledged privately before any database work. The cog owns the Cups'
schedule: started once the gateway is ready, stopped when the cog is unloaded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError
from bot.common.interactions import refuse, reply
from bot.cup._matches import MatchRunner, Ready
from bot.cup._render import created_text, history_text, list_text, problems_text, show_text
from bot.cup._schedule import CupSchedule
from bot.cup._service import CheckIn, CupRefused, CupService
from bot.cup._spec import LEAD_MINUTES, CupInvalid, Repeat, Seeding
from bot.cup._views import COG_NAME, CheckInButton, ReadyButton
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from rules.cup import LEG_COUNTS

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

REPEATS = [app_commands.Choice(name=cmd(f"cup.repeat.{r.value}", r.value), value=r.value)
           for r in Repeat]  # fmt: skip
SEEDINGS = [app_commands.Choice(name=cmd(f"cup.seeding.{s.value}", s.value), value=s.value)
            for s in Seeding]  # fmt: skip
LEGS = [app_commands.Choice(name=str(n), value=n) for n in LEG_COUNTS]
CUP_OPTION = cmd("cup.option.cup.name", "cup")
CUP_HELP = cmd("cup.option.cup", "the Cup (its name or id)")
LEAD_OPTION = cmd("cup_more.option.lead.name", "lead")
LEAD_HELP = cmd(
    "cup_more.option.lead", "minutes before the start it is announced, 10 to 1440 (default 60)"
)


class CupCog(commands.Cog, name=COG_NAME):
    cup = app_commands.Group(
        name=cmd("cup.name", "cup"),
        description=cmd(
            "cup.description", "The server's Cups: a tournament seeded by Qualification"
        ),
        guild_only=True,
    )

    def __init__(
        self, bot: commands.Bot | commands.AutoShardedBot, cups: CupService,
        schedule: CupSchedule,
    ) -> None:  # fmt: skip
        self.bot = bot
        self.cups = cups
        self.schedule = schedule
        self._starting: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(CheckInButton, ReadyButton)
        self._starting = asyncio.create_task(self._start_when_ready(), name="cup-start")

    async def cog_unload(self) -> None:
        if self._starting is not None:
            self._starting.cancel()
        self.schedule.stop()

    async def _start_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        self.schedule.start()

    async def _as_admin(self, interaction: Interaction, work: Callable[[], Awaitable[str]]) -> None:
        """Every admin command's one shape: acknowledged privately before any database
        work, Manage Server checked, then `work` (giving the answer) run; settings that
        fail are told with every problem at once, any other refusal as the refusal."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await refuse(interaction, CupRefused("not_allowed"))
            return
        try:
            text = await work()
        except CupInvalid as invalid:
            text = problems_text(invalid, locale_of(interaction))
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, text[:2000], allowed_mentions=discord.AllowedMentions.none())

    async def autocomplete_cup(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        cups = await self.cups.listed(interaction.guild_id or 0, open_only=False)
        needle = current.strip().lower()
        found = [c for c in reversed(cups) if needle in c.name.lower() or needle in str(c.id)]
        return [app_commands.Choice(name=f"{c.name} · {c.id}"[:100], value=c.id)
                for c in found[:25]]  # fmt: skip

    @cup.command(
        name=cmd("cup.create.name", "create"),
        description=cmd("cup.create.description", "Set up a Cup (Manage Server)"),
    )
    @app_commands.rename(
        name=cmd("cup.option.name.name", "name"), set_name=cmd("cup.option.set.name", "set"),
        start=cmd("cup.option.start.name", "start"), repeat=cmd("cup.option.repeat.name", "repeat"),
        size=cmd("cup.option.size.name", "size"), legs=cmd("cup.option.legs.name", "legs"),
        seeding=cmd("cup.option.seeding.name", "seeding"), lead=LEAD_OPTION,
    )  # fmt: skip
    @app_commands.describe(
        name=cmd("cup.option.name", "the Cup's name"),
        lead=LEAD_HELP,
        set_name=cmd("cup.option.set", "the Set its duels are played in"),
        start=cmd("cup.option.start", "YYYY-MM-DD HH:MM in the server's time zone"),
        repeat=cmd("cup.option.repeat", "once (default) or weekly"),
        size=cmd("cup.option.size", "players at most, 4 to 64 (default 8)"),
        legs=cmd("cup.option.legs", "legs per match (default 3)"),
        seeding=cmd("cup.option.seeding", "who plays (default: Qualification of 7 days)"),
    )
    @app_commands.choices(repeat=REPEATS, seeding=SEEDINGS)
    @app_commands.choices(legs=LEGS)
    async def create(
        self, interaction: Interaction, name: str, set_name: str, start: str,
        repeat: str = Repeat.ONCE.value, size: int = 8, legs: int = 3,
        seeding: str = Seeding.WEEK.value, lead: int = LEAD_MINUTES,
    ) -> None:  # fmt: skip
        options = {"name": name, "set_name": set_name, "start": start, "repeat": repeat,
                   "size": size, "legs": legs, "seeding": seeding, "lead": lead}  # fmt: skip

        async def work() -> str:
            cup = await self.cups.create(
                interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id,
                locale_of(interaction), options,
            )  # fmt: skip
            return created_text(cup, locale_of(interaction))

        await self._as_admin(interaction, work)

    @cup.command(
        name=cmd("cup.edit.name", "edit"),
        description=cmd("cup.edit.description", "Change a Cup before it is announced"),
    )
    @app_commands.rename(
        cup_id=CUP_OPTION, name=cmd("cup.option.name.name", "name"),
        set_name=cmd("cup.option.set.name", "set"), start=cmd("cup.option.start.name", "start"),
        repeat=cmd("cup.option.repeat.name", "repeat"), size=cmd("cup.option.size.name", "size"),
        legs=cmd("cup.option.legs.name", "legs"), seeding=cmd("cup.option.seeding.name", "seeding"),
        lead=LEAD_OPTION,
    )  # fmt: skip
    @app_commands.describe(cup_id=CUP_HELP, lead=LEAD_HELP)
    @app_commands.choices(repeat=REPEATS, seeding=SEEDINGS)
    @app_commands.choices(legs=LEGS)
    @app_commands.autocomplete(cup_id=autocomplete_cup)
    async def edit(
        self, interaction: Interaction, cup_id: int, name: str | None = None,
        set_name: str | None = None, start: str | None = None, repeat: str | None = None,
        size: int | None = None, legs: int | None = None, seeding: str | None = None,
        lead: int | None = None,
    ) -> None:  # fmt: skip
        options = {"name": name, "set_name": set_name, "start": start, "repeat": repeat,
                   "size": size, "legs": legs, "seeding": seeding, "lead": lead}  # fmt: skip

        async def work() -> str:
            cup = await self.cups.edit(interaction.guild_id or 0, cup_id, options)
            return created_text(cup, locale_of(interaction), edited=True)

        await self._as_admin(interaction, work)

    @cup.command(
        name=cmd("cup.show.name", "show"),
        description=cmd("cup.show.description", "A Cup's settings, entries and bracket"),
    )
    @app_commands.rename(cup_id=CUP_OPTION)
    @app_commands.describe(cup_id=CUP_HELP)
    @app_commands.autocomplete(cup_id=autocomplete_cup)
    async def show(self, interaction: Interaction, cup_id: int) -> None:
        async def work() -> str:
            cup, entries = await self.cups.show(interaction.guild_id or 0, cup_id)
            return show_text(cup, entries, locale_of(interaction))

        await self._as_admin(interaction, work)

    @cup.command(
        name=cmd("cup.cancel.name", "cancel"),
        description=cmd("cup.cancel.description", "Call a Cup off"),
    )
    @app_commands.rename(cup_id=CUP_OPTION)
    @app_commands.describe(cup_id=CUP_HELP)
    @app_commands.autocomplete(cup_id=autocomplete_cup)
    async def cancel(self, interaction: Interaction, cup_id: int) -> None:
        async def work() -> str:
            cup = await self.cups.cancel(interaction.guild_id or 0, cup_id)
            return t("cup.cancel.done", locale_of(interaction), name=cup.name)

        await self._as_admin(interaction, work)

    @cup.command(
        name=cmd("cup.list.name", "list"),
        description=cmd("cup.list.description", "The Cups scheduled or in play here"),
    )
    async def list_(self, interaction: Interaction) -> None:
        async def work() -> str:
            cups = await self.cups.listed(interaction.guild_id or 0)
            return list_text(cups, locale_of(interaction))

        await self._as_admin(interaction, work)

    @cup.command(
        name=cmd("cup.history.name", "history"),
        description=cmd(
            "cup.history.description", "The server's hall of fame: its Cups' champions"
        ),
    )
    async def history(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        cups = await self.cups.history(interaction.guild_id or 0)
        await reply(interaction, history_text(cups, locale_of(interaction))[:2000],
                    allowed_mentions=discord.AllowedMentions.none())  # fmt: skip

    async def on_check_in(self, interaction: Interaction, cup_id: int) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            done = await self.cups.check_in(interaction.guild_id or 0, cup_id, interaction.user.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        cup, _ = await self.cups.show(interaction.guild_id or 0, cup_id)
        key = "cup.checked_in" if done is CheckIn.IN else "cup.checked_in.already"
        await reply(interaction, t(key, locale, name=cup.name))

    async def on_ready(
        self, interaction: Interaction, cup_id: int, round_: int, slot: int, leg: int
    ) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        runner: MatchRunner = self.schedule.matches
        try:
            done = await runner.press_ready(
                interaction.guild_id or 0, cup_id, round_, slot, leg, interaction.user.id
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        key = "cup.ready.started" if done is Ready.STARTED else "cup.ready.waiting"
        await reply(interaction, t(key, locale, leg=leg))
