"""The round message's "who has answered" list, edited through the answering players' own
interactions (their tokens, no bot-token call), at most once a second per room.

An answer within a second of the last edit does not edit: it leaves its interaction as
the carrier of one edit a second after the last, which shows every answer up to then.
The round's end (a bot-token edit into its reveal) first `stop`s the room's edits, under
the same lock, so a late progress edit never brings a closed round's buttons back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
EDIT_EVERY_S = 1.0
Render = Callable[[], tuple[discord.Embed, discord.ui.View] | None]
"""The round's message as it should read now; None when its round is over."""


class Progress:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._last: dict[str, float] = {}
        self._pending: dict[str, tuple[Interaction, Render]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, room_id: str) -> asyncio.Lock:
        return self._locks.setdefault(room_id, asyncio.Lock())

    async def touch(self, room_id: str, interaction: Interaction, render: Render) -> None:
        self._pending[room_id] = (interaction, render)
        if room_id in self._tasks:
            return  # the edit already waiting shows this answer too
        wait = self._last.get(room_id, float("-inf")) + EDIT_EVERY_S - self.clock()
        if wait <= 0:
            await self._edit(room_id)
            return
        self._tasks[room_id] = asyncio.create_task(self._later(room_id, wait))

    async def _later(self, room_id: str, wait: float) -> None:
        await asyncio.sleep(wait)
        self._tasks.pop(room_id, None)
        await self._edit(room_id)

    async def _edit(self, room_id: str) -> None:
        async with self.lock(room_id):
            pending = self._pending.pop(room_id, None)
            if pending is None:
                return
            interaction, render = pending
            shown = render()
            if shown is None:
                return
            embed, view = shown
            self._last[room_id] = self.clock()
            try:
                await interaction.edit_original_response(embed=embed, view=view)
            except discord.HTTPException:  # an expired token: the next answer shows it
                log.warning("room %s: the progress edit failed", room_id)

    def stop(self, room_id: str) -> None:
        """The round is over: no progress edit for it (call under `lock(room_id)`)."""
        task = self._tasks.pop(room_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._pending.pop(room_id, None)

    def forget(self, room_id: str) -> None:
        """The room is over: its throttle and lock go."""
        self.stop(room_id)
        self._last.pop(room_id, None)
        self._locks.pop(room_id, None)

    def close(self) -> None:
        for room_id in list(self._tasks):
            self.stop(room_id)
