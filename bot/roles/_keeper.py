"""Doing the stored role intents on Discord (`Store.roles`), each exactly once.

An intent is stored before Discord is asked (`bot.achievements.Rewards`), so a restart
finds what was not done and does it (`wake` after the gateway is ready). A member who
already has the role they should have (or lacks the one taken) costs no call: the intent
is only marked done, which closes the window between Discord's answer and the done mark.
What cannot be done (a permission, the hierarchy, the role or the member gone) is marked
failed with why, for `/config roles` to say; what Discord did not answer is tried again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.games import Lane, RestBudget, with_retry
from bot.roles._checks import Lack, lacks
from bot.storage import RoleIntent, Store

log = logging.getLogger(__name__)

RETRY_S = 60.0
"""How soon intents Discord did not answer are tried again."""
BATCH = 200


class RoleKeeper:
    """Grants and takes the rewards' roles from the stored intents (`RoleWaker`)."""

    def __init__(
        self, client: discord.Client, store: Store, clock: Callable[[], float],
        budget: RestBudget | None = None, owns: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:  # fmt: skip
        self.client = client
        self.store = store
        self.clock = clock
        self.budget = budget
        self.owns = owns
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._ready = False

    def start(self) -> None:
        """The gateway is ready: do what a restart left undone, and from now on what is new."""
        self._ready = True
        self.wake()

    def wake(self) -> None:
        if not self._ready:
            return  # `start` does it once the guilds are known
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.create_task(self._run(), name="role-rewards")

    async def settled(self) -> None:
        """Wait until the intents known now are done (or wait for their retry): for a
        caller outside the bot's own tasks, such as a test driving a seam directly."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def stop(self) -> None:
        self._ready = False
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            self._again = False
            try:
                retry = await self.run_pending()
            except Exception:
                log.exception("role rewards: reading the intents failed")
                retry = True
            if self._again:
                continue
            if not retry:
                return
            await asyncio.sleep(RETRY_S)

    async def run_pending(self) -> bool:
        """Do this process's undone intents; whether some are left to try again."""
        left = False
        for intent in await self.store.roles.undone(BATCH):
            if not self.owns(intent.guild_id):
                continue
            try:
                if not await self._do(intent):
                    left = True
            except Exception:
                log.exception("role rewards: %s failed; tried again later", intent)
                left = True
        return left

    async def _do(self, intent: RoleIntent) -> bool:
        """One intent; False when it must be tried again later."""
        guild = self.client.get_guild(intent.guild_id)
        if guild is None:  # after ready, a server of this process it does not see: left
            await self.store.roles.done(intent, self.clock(), Lack.BOT_GONE.value)
            return True
        role = guild.get_role(intent.role_id)
        member = guild.get_member(intent.user_id)
        if member is None:
            try:
                member = await guild.fetch_member(intent.user_id)
            except discord.NotFound:
                member = None
        if member is None:
            failure = Lack.MEMBER_GONE if intent.want else None
            await self.store.roles.done(intent, self.clock(), failure)
            return True
        has = role is not None and role in member.roles
        if role is not None and has == intent.want:
            await self.store.roles.done(intent, self.clock())  # nothing to do: no call
            return True
        missing = lacks(guild, role)
        if missing:
            log.info("role rewards: %s cannot be done: %s", intent, missing)
            await self.store.roles.done(intent, self.clock(), missing[0].value)
            return True
        assert role is not None
        reason = f"Formula Darts: {intent.reward.value}"
        change = member.add_roles if intent.want else member.remove_roles
        try:
            await with_retry(
                lambda: change(role, reason=reason), f"role {intent.reward.value}",
                self.budget, lane=Lane.OPTIONAL,
            )  # fmt: skip
        except discord.Forbidden:
            await self.store.roles.done(intent, self.clock(), Lack.REFUSED.value)
            return True
        except discord.NotFound:
            await self.store.roles.done(intent, self.clock(), Lack.ROLE_GONE.value)
            return True
        await self.store.roles.done(intent, self.clock())
        return True
