"""`/config roles`: which role a server gives for what (Manage Server).

A subcommand of `/config` built here and added to its group (`roles_command`), so the
roles live in their own package. Everything the bot lacks to give the chosen role is
said at once, in the admin's language, before anything is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.common import mention
from bot.common.interactions import reply
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from bot.roles._checks import lacks
from bot.roles._keeper import RoleKeeper
from bot.storage import RoleIntent, RoleReward, Store

Interaction = discord.Interaction[Any]
REWARD_CHOICES = [
    app_commands.Choice(name=cmd(f"roles.reward.{r.value}", r.value), value=r.value)
    for r in RoleReward
]


def _role(guild: discord.Guild | None, role_id: int) -> str:
    role = guild.get_role(role_id) if guild is not None else None
    return role.mention if role is not None else f"<@&{role_id}>"


def _failed(intent: RoleIntent, guild: discord.Guild | None, locale: str) -> str:
    return t(
        "roles.show.failed", locale, reward=t(f"roles.reward.{intent.reward.value}", locale),
        action=t(f"roles.action.{'give' if intent.want else 'take'}", locale),
        role=_role(guild, intent.role_id), player=mention(intent.user_id),
        lack=t(f"roles.lack.{intent.failure}", locale),
    )  # fmt: skip


async def shown(store: Store, guild: discord.Guild | None, guild_id: int, locale: str) -> str:
    """Every reward with its role, then what Discord could not do lately."""
    rewards = await store.roles.rewards(guild_id)
    lines = [t("roles.show.title", locale)]
    for reward in RoleReward:
        role_id = rewards.get(reward)
        role = t("roles.show.none", locale) if role_id is None else _role(guild, role_id)
        lines.append(
            t(
                "roles.show.line",
                locale,
                reward=t(f"roles.reward.{reward.value}", locale),
                role=role,
            )
        )
    lines += [_failed(i, guild, locale) for i in await store.roles.failures(guild_id)]
    return "\n".join(lines)


def roles_command(
    store: Store, clock: Callable[[], float], keeper: RoleKeeper | None = None
) -> app_commands.Command[Any, ..., None]:
    """The `/config roles` command, for `ConfigCog.config.add_command`."""

    @app_commands.rename(
        reward=cmd("roles.option.reward.name", "reward"), role=cmd("roles.option.role.name", "role")
    )
    @app_commands.describe(
        reward=cmd("roles.option.reward", "what the role is given for"),
        role=cmd("roles.option.role", "the role; leave out to give none for it"),
    )
    @app_commands.choices(reward=REWARD_CHOICES)
    async def roles(
        interaction: Interaction,
        reward: app_commands.Choice[str] | None = None,
        role: discord.Role | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        guild_id = interaction.guild_id
        if guild_id is None or not interaction.permissions.manage_guild:
            await reply(interaction, t("config.errors.not_allowed", locale))
            return
        guild = interaction.guild
        if reward is None and role is not None:
            await reply(interaction, t("roles.no_reward", locale, role=role.mention))
            return
        if reward is not None:
            chosen = RoleReward(reward.value)
            if role is not None:
                found = guild.get_role(role.id) if guild is not None else None
                missing = lacks(guild, found) if guild is not None else []
                if missing:
                    name = t(f"roles.reward.{chosen.value}", locale)
                    lines = [t("roles.refused", locale, role=role.mention, reward=name)]
                    lines += [f"• {t(f'roles.lack.{lack.value}', locale)}" for lack in missing]
                    await reply(interaction, "\n".join(lines))
                    return
            await store.roles.set_reward(
                guild_id, chosen, None if role is None else role.id, clock()
            )
            if await store.roles.retry_failed(guild_id, clock()) and keeper is not None:
                keeper.wake()
        await reply(interaction, await shown(store, guild, guild_id, locale))

    return app_commands.Command(
        name=cmd("roles.name", "roles"),
        description=cmd(
            "roles.description",
            "Roles as rewards: a role for the Cup champion, the day's winner, streaks",
        ),
        callback=roles,
    )
