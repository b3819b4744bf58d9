"""Roles as rewards (issues 31 and 32): `/config roles`, and the keeper that grants and
takes them on Discord from the stored intents, each exactly once across restarts."""

from bot.roles._checks import Lack, lacks
from bot.roles._command import roles_command
from bot.roles._keeper import RoleKeeper

__all__ = ["Lack", "RoleKeeper", "lacks", "roles_command"]
