"""The Sets a server can play: the global ones, then its own (a global name always wins).

One reading for everything that lists, resolves or autocompletes Sets, so a game,
a board and `/sets` never disagree about which Set a name means.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.common._errors import UnknownSet
from bot.storage import Store
from rules import GameSet

DEFAULT_SET = "darts"
CHOICES_MAX = 25
"""Discord shows at most 25 autocomplete choices."""
CHOICE_NAME_MAX = 100


@dataclass(frozen=True, slots=True)
class ListedSet:
    game_set: GameSet
    is_global: bool


def clean_name(name: str | None) -> str:
    return (name or "").strip().lower()


class SetsDirectory:
    def __init__(self, store: Store, global_sets: Mapping[str, GameSet]) -> None:
        self.store = store
        self.global_sets = dict(global_sets)

    async def server_sets(self, guild_id: int) -> dict[str, GameSet]:
        """The server's own Sets; a stored one named like a global Set is hidden by it."""
        return {
            s.name: s
            for s in await self.store.sets.server_sets(guild_id)
            if s.name not in self.global_sets
        }

    async def playable(self, guild_id: int) -> list[ListedSet]:
        """Global Sets first, then the server's own, each group by name."""
        listed = [ListedSet(s, True) for _, s in sorted(self.global_sets.items())]
        own = await self.server_sets(guild_id)
        return listed + [ListedSet(s, False) for _, s in sorted(own.items())]

    async def sets_for(self, guild_id: int) -> dict[str, GameSet]:
        return {item.game_set.name: item.game_set for item in await self.playable(guild_id)}

    async def resolve(self, guild_id: int, name: str | None) -> GameSet:
        """The Set `name` (darts when empty) playable here, or UnknownSet naming the others."""
        sets = await self.sets_for(guild_id)
        found = sets.get(clean_name(name) or DEFAULT_SET)
        if found is None:
            raise UnknownSet(name, sorted(sets))
        return found
