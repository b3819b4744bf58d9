"""The puzzles' Discord face: `/storm`, `/streak`, `/puzzle` and `/puzzles` (the boards),
and the buttons and modal of a run, into `PuzzleRuns` calls.

A run is played in messages only its player sees, every one riding the player's own
interactions (like a private Training), so a Storm costs no bot-token call. Buttons are
`DynamicItem`s whose custom_id carries the run and the puzzle's number, so a puzzle
shown before a restart still works after it; the answer modal is handled by its
custom_id alone, like the rooms'. The flow decides; this module only shows.
"""

from __future__ import annotations

import logging
import re
from enum import StrEnum
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError
from bot.common.interactions import echo_formula, loaded_cog, refuse, reply, report_unexpected
from bot.i18n import describe_eval_error, locale_of, t
from bot.i18n.translator import cmd
from bot.puzzles._boards import WINDOWS, server_day, window_since
from bot.puzzles._runs import Graded, Invalid, PuzzleError, PuzzleRuns, Shown
from bot.puzzles._texts import (
    board_text,
    graded_text,
    invalid_text,
    puzzle_text,
    share_text,
    summary_text,
)
from bot.storage import PuzzleKind, PuzzleRun

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
COG_NAME = "Puzzles"
CHOICES = {
    "storm": "storm",
    "streak": "streak",
    "daily": "daily puzzle",
    "day": "today",
    "week": "this week",
    "all": "all time",
}


class PuzzleAct(StrEnum):
    ANSWER = "answer"
    SKIP = "skip"
    STOP = "stop"
    SHARE = "share"


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:pz:(?P<act>answer|skip|stop|share):(?P<run>[0-9a-f]{32}):(?P<seq>[0-9]+)",
):
    def __init__(self, act: PuzzleAct, run_id: str, seq: int, label: str) -> None:
        style = (
            discord.ButtonStyle.primary
            if act is PuzzleAct.ANSWER
            else discord.ButtonStyle.secondary
        )
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"fd:pz:{act.value}:{run_id}:{seq}"
            )
        )
        self.act, self.run_id, self.seq = act, run_id, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PuzzleButton:
        del interaction
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(PuzzleAct(match["act"]), match["run"], int(match["seq"]), label or "")

    async def callback(self, interaction: Interaction) -> None:
        cog = loaded_cog(interaction, COG_NAME)
        if not isinstance(cog, PuzzlesCog):
            raise TypeError(f"the {COG_NAME} cog is not the puzzles'")
        try:
            await cog.on_button(interaction, self.act, self.run_id, self.seq)
        except UserError as error:
            await refuse(interaction, error)
        except Exception as error:
            await report_unexpected(interaction, error)


def buttons(run: PuzzleRun, seq: int, locale: str, acts: list[PuzzleAct]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for act in acts:
        view.add_item(PuzzleButton(act, run.id, seq, t(f"puzzles.button.{act.value}", locale)))
    return view


def puzzle_acts(run: PuzzleRun) -> list[PuzzleAct]:
    """Storm: Answer, Skip, Stop; a Streak's Skip would end it, so: Answer, Stop; the
    daily puzzle: Answer only (its one attempt)."""
    if run.kind is PuzzleKind.STORM:
        return [PuzzleAct.ANSWER, PuzzleAct.SKIP, PuzzleAct.STOP]
    if run.kind is PuzzleKind.STREAK:
        return [PuzzleAct.ANSWER, PuzzleAct.STOP]
    return [PuzzleAct.ANSWER]


ANSWER_SUBMIT = re.compile(r"fd:pzf:(?P<run>[0-9a-f]{32}):(?P<seq>[0-9]+)")
FORMULA_INPUT = "formula"


class PuzzleModal(discord.ui.Modal):
    def __init__(self, shown: Shown, locale: str) -> None:
        super().__init__(
            title=t("puzzles.modal.title", locale, number=shown.seq, digits=shown.puzzle.digits)[
                :45
            ],
            custom_id=f"fd:pzf:{shown.run.id}:{shown.seq}",
        )
        self.add_item(
            discord.ui.TextInput(
                label=t("puzzles.modal.label", locale)[:45], max_length=256,
                custom_id=FORMULA_INPUT,
            )
        )  # fmt: skip
        self.stop()


def parse_answer(interaction: Interaction) -> tuple[str, int, str] | None:
    """(run id, puzzle number, formula) of a puzzle's answer modal; None for anything else."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: Any = interaction.data or {}
    match = ANSWER_SUBMIT.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    formula = ""
    for row in data.get("components", []):
        for child in [*row.get("components", []), row.get("component") or {}]:
            if child.get("custom_id") == FORMULA_INPUT and isinstance(child.get("value"), str):
                formula = child["value"]
    return match["run"], int(match["seq"]), formula


class PuzzlesCog(commands.Cog, name=COG_NAME):
    def __init__(self, bot: commands.Bot | commands.AutoShardedBot, runs: PuzzleRuns) -> None:
        self.bot = bot
        self.runs = runs

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PuzzleButton)

    # ------------------------------------------------------------------ commands

    @app_commands.command(
        name=cmd("puzzles.storm.name", "storm"),
        description=cmd("puzzles.storm.description",
                        "Storm: as many puzzles as you can before the time runs out (unranked)"),
    )  # fmt: skip
    @app_commands.rename(set_name=cmd("option.set.name", "set"))
    @app_commands.guild_only()
    async def storm(self, interaction: Interaction, set_name: str | None = None) -> None:
        await self._start(interaction, PuzzleKind.STORM, set_name)

    @app_commands.command(
        name=cmd("puzzles.streak.name", "streak"),
        description=cmd("puzzles.streak.description",
                        "Streak: puzzles one after another while you solve each (unranked)"),
    )  # fmt: skip
    @app_commands.rename(set_name=cmd("option.set.name", "set"))
    @app_commands.guild_only()
    async def streak(self, interaction: Interaction, set_name: str | None = None) -> None:
        await self._start(interaction, PuzzleKind.STREAK, set_name)

    @app_commands.command(
        name=cmd("puzzles.puzzle.name", "puzzle"),
        description=cmd("puzzles.puzzle.description",
                        "The server's puzzle of the day: one attempt, the same for everyone"),
    )  # fmt: skip
    @app_commands.guild_only()
    async def puzzle(self, interaction: Interaction) -> None:
        await self._start(interaction, PuzzleKind.DAILY, None)

    @app_commands.command(
        name=cmd("puzzles.puzzles.name", "puzzles"),
        description=cmd("puzzles.puzzles.description",
                        "The puzzles' boards of this server: Storm, Streak, the daily puzzle"),
    )  # fmt: skip
    @app_commands.rename(kind=cmd("puzzles.kind.name", "kind"),
                         window=cmd("puzzles.window.name", "window"))  # fmt: skip
    @app_commands.describe(
        kind=cmd("puzzles.kind", "which board"),
        window=cmd("puzzles.window", "today, this week or all time"),
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(
                name=cmd(f"puzzles.choice.{k.value}", CHOICES[k.value]), value=k.value
            )
            for k in PuzzleKind
        ],
        window=[
            app_commands.Choice(name=cmd(f"puzzles.choice.{w}", CHOICES[w]), value=w)
            for w in WINDOWS
        ],
    )
    @app_commands.guild_only()
    async def board(
        self, interaction: Interaction, kind: str = "storm", window: str = "day"
    ) -> None:
        locale = locale_of(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        chosen = PuzzleKind(kind)
        zone = (await self.runs.store.servers.settings(guild_id)).zone
        now = self.runs.clock()
        period = server_day(now, zone)
        since = window_since(window, now, zone)
        daily = chosen is PuzzleKind.DAILY  # one puzzle a day: its board is the day's
        if daily:
            window, since = "day", 0.0
        lines = await self.runs.store.puzzles.board(
            guild_id, chosen, since, period=period if daily else None
        )
        await interaction.response.send_message(
            board_text(chosen, window, lines, locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _start(
        self, interaction: Interaction, kind: PuzzleKind, set_name: str | None
    ) -> None:
        locale = locale_of(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        await self._tell_owed(interaction, guild_id, locale)
        try:
            if kind is PuzzleKind.DAILY:
                shown = await self.runs.daily(guild_id, interaction.user.id, locale)
            else:
                shown = await self.runs.start(guild_id, interaction.user.id, kind, set_name, locale)
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, puzzle_text(shown, locale, first=True),
                    view=buttons(shown.run, shown.seq, locale, puzzle_acts(shown.run)))  # fmt: skip

    # ------------------------------------------------------------------ buttons

    async def on_button(
        self, interaction: Interaction, act: PuzzleAct, run_id: str, seq: int
    ) -> None:
        user = interaction.user.id
        locale = locale_of(interaction)
        if act is PuzzleAct.SHARE:
            await self._share(interaction, run_id)
            return
        guild_id = interaction.guild_id or 0
        if act is PuzzleAct.ANSWER:
            if await self._tell_owed(interaction, guild_id, locale):
                return  # the press showed what was owed; the next one opens the form
            shown = await self.runs.current(run_id, user, seq)
            await interaction.response.send_modal(PuzzleModal(shown, locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if run_id in await self._tell_owed(interaction, guild_id, locale):
            return  # a press on the run the sweep ended: its summary was the answer
        if act is PuzzleAct.STOP:
            run = await self.runs.stop(run_id, user)
            await self._summary(interaction, run.id, locale)
            return
        await self._show(interaction, await self.runs.skip(run_id, user, seq), locale)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        submitted = parse_answer(interaction)
        if submitted is None:
            return
        try:
            await self._answer(interaction, *submitted)
        except UserError as error:
            await refuse(interaction, error)
        except Exception as error:
            await report_unexpected(interaction, error)

    async def _answer(self, interaction: Interaction, run_id: str, seq: int, formula: str) -> None:
        locale = locale_of(interaction)
        received = interaction.created_at.timestamp()
        await interaction.response.defer(ephemeral=True, thinking=True)
        if run_id in await self._tell_owed(interaction, interaction.guild_id or 0, locale):
            return  # answered after the sweep ended the run: its summary is the answer
        outcome = await self.runs.submit(run_id, interaction.user.id, seq, formula, received)
        if isinstance(outcome, Invalid):
            lang = outcome.shown.run.game_set.language
            error = describe_eval_error(outcome.error, locale, formula, lang=lang)
            run = outcome.shown.run
            text = invalid_text(outcome, echo_formula(formula), error, locale)
            await reply(interaction, text, view=buttons(run, seq, locale, puzzle_acts(run)))
            return
        await self._show(interaction, outcome, locale)

    async def _show(self, interaction: Interaction, graded: Graded, locale: str) -> None:
        run = graded.run
        sealed = await self._sealed(run)
        text = graded_text(graded, locale, sealed=sealed)
        if graded.next is not None:
            acts = puzzle_acts(run)
            await reply(interaction, text, view=buttons(run, graded.next.seq, locale, acts))
            return
        await reply(interaction, text)
        await self._summary(interaction, run.id, locale)

    async def _summary(self, interaction: Interaction, run_id: str, locale: str) -> None:
        run, answers = await self.runs.summary(run_id)
        sealed = await self._sealed(run)
        view = None
        if run.kind is PuzzleKind.DAILY and answers:
            view = buttons(run, 0, locale, [PuzzleAct.SHARE])
        earned = await self.runs.earned_lines(run.id, locale)
        text = summary_text(run, answers, locale, sealed=sealed, earned=earned)
        if view is None:
            await reply(interaction, text)
        else:
            await reply(interaction, text, view=view)

    async def _tell_owed(self, interaction: Interaction, guild_id: int, locale: str) -> list[str]:
        """The summaries of the player's runs the sweep ended (nobody was there to be
        told), shown first, each once; the runs told."""
        told = await self.runs.take_owed(guild_id, interaction.user.id)
        for run_id in told:
            await self._summary(interaction, run_id, locale)
        return told

    async def _sealed(self, run: PuzzleRun) -> bool:
        if run.kind is not PuzzleKind.DAILY or run.period is None:
            return False
        return await self.runs.daily_seal(run.guild_id, run.period) is not None

    async def _share(self, interaction: Interaction, run_id: str) -> None:
        """The daily puzzle's spoiler-free card, posted once as the presser's own
        interaction's public answer (no bot-token call)."""
        locale = locale_of(interaction)
        run, answers = await self.runs.summary(run_id)
        if run.user_id != interaction.user.id:
            raise PuzzleError("not_yours")
        if run.finished_at is None or not answers:
            raise PuzzleError("share_not_over")
        store = self.runs.store
        if not await store.install.claim_state(f"pzshare:{run_id}", str(self.runs.clock())):
            raise PuzzleError("share_done")
        try:
            await interaction.response.send_message(
                share_text(run, answers, locale), ephemeral=False,
                allowed_mentions=discord.AllowedMentions.none(),
            )  # fmt: skip
        except BaseException:
            await store.install.drop_state(f"pzshare:{run_id}")
            raise
