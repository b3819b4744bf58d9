"""Pages of a list and the buttons that turn them.

A page is fully described by a small request (what, for whom, which page) that
lives in the buttons' custom_id, as discord.py's DynamicItem allows: paging
keeps working after a restart, and nothing is kept in memory per message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

import rules
from bot.i18n import locale_of, t
from bot.leaderboards import _render
from bot.storage import Store

PAGE_SIZE = 10
PERIODS = ("today", "week", "all")
KINDS = {"q": "qualification", "d": "duel", "h": "history", "g": "game"}
_TEMPLATE = r"fd:pg:(?P<kind>[qdhg]):(?P<owner>\d+):(?P<page>\d+):(?P<arg>[\w:-]*)"


@dataclass(frozen=True)
class PageRequest:
    """`arg`: 'period:set' for qualification, a user id for history, a game id for a game."""

    kind: str
    owner: int
    page: int = 0
    arg: str = ""

    @property
    def custom_id(self) -> str:
        return f"fd:pg:{self.kind}:{self.owner}:{self.page}:{self.arg}"


def since(period: str, now: datetime | None = None) -> str | None:
    """The first Qualification period (UTC day) a board includes."""
    moment = now or discord.utils.utcnow()
    if period == "today":
        return rules.utc_day(moment)
    if period == "week":
        return rules.utc_day(moment.astimezone(UTC) - timedelta(days=6))
    return None


@dataclass
class Page:
    embed: discord.Embed
    has_next: bool
    request: PageRequest


async def build(store: Store, guild_id: int, request: PageRequest, locale: str, name: str) -> Page:
    """Fetch one page (one row more than shown, to know whether a next page exists)."""
    offset = request.page * PAGE_SIZE
    if request.kind == "q":
        period, _, set_name = request.arg.partition(":")
        rows = await store.qualification_leaderboard(
            guild_id, set_name, since(period), limit=PAGE_SIZE + 1, offset=offset
        )
        embed = _render.qualification_embed(
            rows[:PAGE_SIZE], set_name, period, request.page, locale
        )
        return Page(embed, len(rows) > PAGE_SIZE, request)
    if request.kind == "d":
        ratings = await store.duel_leaderboard(guild_id, limit=PAGE_SIZE + 1, offset=offset)
        embed = _render.duel_embed(ratings[:PAGE_SIZE], request.page, locale)
        return Page(embed, len(ratings) > PAGE_SIZE, request)
    if request.kind == "h":
        user_id = int(request.arg)
        records = await store.history(guild_id, user_id, limit=PAGE_SIZE + 1, offset=offset)
        embed = _render.history_embed(records[:PAGE_SIZE], user_id, name, request.page, locale)
        return Page(embed, len(records) > PAGE_SIZE, request)
    record = await store.find_game(guild_id, request.arg)
    if record is None:
        embed = discord.Embed(description=t("leaderboards.game.not_found", locale, id=request.arg))
        return Page(embed, False, request)
    page = min(request.page, _render.round_pages(record) - 1)
    return Page(
        _render.game_embed(record, page, locale),
        page + 1 < _render.round_pages(record),
        replace(request, page=page),
    )


def view_for(page: Page, locale: str) -> discord.ui.View | None:
    """Previous/Next buttons, or nothing when everything fits on one page."""
    request = page.request
    if request.page == 0 and not page.has_next:
        return None
    view = discord.ui.View(timeout=None)
    back = replace(request, page=max(request.page - 1, 0))
    forward = replace(request, page=request.page + 1)
    view.add_item(PageButton(back, t("leaderboards.button.previous", locale), request.page == 0))
    view.add_item(PageButton(forward, t("leaderboards.button.next", locale), not page.has_next))
    return view


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TEMPLATE):
    """Shows the page its custom_id names: in place for the asker, privately for others."""

    def __init__(self, request: PageRequest, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "…",
                custom_id=request.custom_id,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.request = request

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PageButton:
        del interaction, item
        request = PageRequest(match["kind"], int(match["owner"]), int(match["page"]), match["arg"])
        return cls(request)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        request = self.request
        mine = interaction.user.id == request.owner
        if not mine:
            request = replace(request, owner=interaction.user.id)
        name = await display_name(interaction, request)
        page = await build(
            interaction.client.store, interaction.guild_id or 0, request, locale, name
        )
        view = view_for(page, locale)
        if mine:
            await interaction.response.edit_message(embed=page.embed, view=view)
            return
        kwargs: dict[str, Any] = {"embed": page.embed, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        await interaction.response.send_message(t("leaderboards.not_yours", locale), **kwargs)


async def display_name(interaction: discord.Interaction[Any], request: PageRequest) -> str:
    """The name for a history title: the member's server name when Discord knows it."""
    if request.kind != "h":
        return ""
    user_id = int(request.arg)
    guild = interaction.guild
    member = guild.get_member(user_id) if guild is not None else None
    if member is not None:
        return member.display_name
    user = interaction.client.get_user(user_id)
    return user.display_name if user is not None else str(user_id)
