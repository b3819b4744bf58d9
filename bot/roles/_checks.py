"""What the bot lacks to give a role: Manage Roles, a place above the role, a role it may
give at all. Asked before a reward is stored (`/config roles`) and before each grant."""

from __future__ import annotations

from enum import StrEnum

import discord


class Lack(StrEnum):
    """Why the bot cannot give or take a role (the value is the i18n key)."""

    MANAGE_ROLES = "manage_roles"
    HIERARCHY = "hierarchy"
    """The role is not below the bot's highest role."""
    MANAGED = "managed"
    """A bot's, a booster's or an integration's role: Discord gives it, nobody else."""
    EVERYONE = "everyone"
    ROLE_GONE = "role_gone"
    MEMBER_GONE = "member_gone"
    BOT_GONE = "bot_gone"
    REFUSED = "refused"
    """Discord said no (403) although the checks passed: a change since they ran."""


def lacks(guild: discord.Guild, role: discord.Role | None) -> list[Lack]:
    """Every reason the bot cannot give `role` on `guild`, all at once (none: it can)."""
    if role is None:
        return [Lack.ROLE_GONE]
    found: list[Lack] = []
    me = guild.me
    if me is None or not me.guild_permissions.manage_roles:
        found.append(Lack.MANAGE_ROLES)
    if role.is_default():
        found.append(Lack.EVERYONE)
    elif role.managed:
        found.append(Lack.MANAGED)
    if me is not None and role >= me.top_role:
        found.append(Lack.HIERARCHY)
    return found
