"""Summaries owed: a run the sweep ended (its time ran out with nobody back to answer)
was told to nobody, so its player sees its summary first at their next press or next
start (as `bot.play`'s `Shows.tell_owed` tells an owed game's), exactly once.

Kept in the store's named state (nothing in process memory, so a restart owes the same):
per player, the ids of the runs owed (`pzowed:<guild>:<user>`), and per run the claim of
the one telling (`pztold:<run>`), so two presses at once tell it once.
"""

from __future__ import annotations

from bot.storage import InstallStore, PuzzleRun

KEPT = 20
"""The most runs owed to one player: older ones are dropped (a player away that long is
told the last ones)."""


def _key(guild_id: int, user_id: int) -> str:
    return f"pzowed:{guild_id}:{user_id}"


def _ids(value: str | None) -> list[str]:
    return [i for i in (value or "").split(",") if i]


class OwedSummaries:
    """The summaries owed, in the installation's named state (all it needs of the Store)."""

    def __init__(self, install: InstallStore) -> None:
        self.install = install

    async def owe(self, run: PuzzleRun) -> None:
        """The sweep ended `run`: its player is owed its summary."""
        key = _key(run.guild_id, run.user_id)
        ids = _ids(await self.install.get_state(key))
        if run.id not in ids:
            await self.install.set_state(key, ",".join([*ids, run.id][-KEPT:]))

    async def take(self, guild_id: int, user_id: int) -> list[str]:
        """The runs whose summaries the caller now tells (each claimed once: another
        caller at the same time gets none of them); they are owed no more."""
        key = _key(guild_id, user_id)
        owed = _ids(await self.install.get_state(key))
        if not owed:
            return []
        taken = [i for i in owed if await self.install.claim_state(f"pztold:{i}", "1")]
        left = [i for i in _ids(await self.install.get_state(key)) if i not in owed]
        if left:  # owed by a sweep meanwhile: still owed
            await self.install.set_state(key, ",".join(left))
        else:
            await self.install.drop_state(key)
        return taken
