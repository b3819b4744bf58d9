"""What the /sets commands do, without Discord: validate, check ownership, store.

A server's Sets overlay the global ones. A global name is never taken, changed or
removed from a server, and one server never reaches another's Sets because every
call is keyed by the guild id the interaction came from. Games are not touched:
a running game plays the snapshot it started with, so an edit or removal here
only changes games started afterwards.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import rules
from bot.common import ListedSet, SetsDirectory, UserError, clean_name, code
from bot.storage import TooManySets
from rules import GameSet

MAX_SERVER_SETS = 25
"""A server's own Sets; keeps /sets list, autocomplete and export readable."""

NUMBERS_OF_MIN_ROUNDS = ("start_score", "goal", "bonus")


class SetsAdminError(UserError):
    """A refusal an admin caused. `code` names a catalog message under `sets_admin.error.`;
    a Set `name` (the admin's own words) reads as inline code."""

    prefix = "sets_admin.error."

    def display_params(self, locale: str) -> dict[str, Any]:
        params = super().display_params(locale)
        if "name" in params:
            params["name"] = code(str(params["name"]))
        return params


@dataclass(frozen=True, slots=True)
class Edited:
    """An edited Set; `board_restarts` when its numbers changed while the day's
    Qualification board already had games (the new version starts a board of its own)."""

    game_set: GameSet
    board_restarts: bool


@dataclass(frozen=True, slots=True)
class ImportResult:
    added: tuple[str, ...]
    updated: tuple[str, ...]


class SetsManager:
    def __init__(self, sets: SetsDirectory) -> None:
        self.sets = sets
        self.store = sets.store
        self.global_sets: Mapping[str, GameSet] = sets.global_sets

    # ------------------------------------------------------------- reading

    async def server_sets(self, guild_id: int) -> dict[str, GameSet]:
        return await self.sets.server_sets(guild_id)

    async def playable(self, guild_id: int) -> list[ListedSet]:
        return await self.sets.playable(guild_id)

    async def get(self, guild_id: int, name: str) -> ListedSet:
        key = clean_name(name)
        if key in self.global_sets:
            return ListedSet(self.global_sets[key], True)
        own = await self.server_sets(guild_id)
        if key not in own:
            raise SetsAdminError("unknown", name=name)
        return ListedSet(own[key], False)

    async def export_text(self, guild_id: int) -> tuple[int, str]:
        """The server's Sets in the sets.yaml format (how many, the text)."""
        own = await self.server_sets(guild_id)
        if not own:
            raise SetsAdminError("nothing_to_export")
        header = "# Formula Darts: this server's Sets. Change and send back with /sets import.\n"
        return len(own), header + rules.dump_sets(own[name] for name in sorted(own))

    # ------------------------------------------------------------- writing

    async def add(self, guild_id: int, name: str, fields: Mapping[str, Any]) -> GameSet:
        """A new server Set; raises SetsError with every field problem at once."""
        key = clean_name(name)
        own = await self.server_sets(guild_id)
        if key in own:
            raise SetsAdminError("exists", name=key)
        game_set = rules.validate_set(key, fields, "add", reserved=self.global_sets)
        await self._save(guild_id, [game_set])
        return game_set

    async def edit(self, guild_id: int, name: str, changes: Mapping[str, Any]) -> GameSet:
        """Change some fields of a server Set, validating the result as a whole."""
        if not changes:
            raise SetsAdminError("no_changes")
        current = await self._own(guild_id, name)
        data = current.to_dict()
        del data["name"]
        moved = any(k in changes and changes[k] != data[k] for k in NUMBERS_OF_MIN_ROUNDS)
        was_computed = data["min_rounds"] == rules.compute_min_rounds(
            current.start_score, current.goal, current.bonus
        )
        if moved and was_computed and "min_rounds" not in changes:
            del data["min_rounds"]  # computed before, so computed again from the new numbers
        language = changes.get("language", current.language)
        if language != current.language and "functions" not in changes:
            del data["functions"]  # the old language's names: the new language's defaults
        data.update(changes)
        game_set = rules.validate_set(current.name, data, "edit")
        await self.store.sets.save_server_set(guild_id, game_set)
        return game_set

    async def edit_on(
        self, guild_id: int, name: str, changes: Mapping[str, Any], day: str
    ) -> Edited:
        """`edit` on the UTC day `day`, telling whether it starts that day's board over."""
        before = await self._own(guild_id, name)
        after = await self.edit(guild_id, name, changes)
        if after.version == before.version:  # words only: the same Qualification
            return Edited(after, False)
        played = await self.store.boards.set_versions(guild_id, before.name, since=day)
        return Edited(after, before.version in played)

    async def remove(self, guild_id: int, name: str) -> GameSet:
        current = await self._own(guild_id, name)
        if not await self.store.sets.delete_server_set(guild_id, current.name):
            raise SetsAdminError("unknown", name=name)
        return current

    async def import_text(self, guild_id: int, text: str, source: str) -> ImportResult:
        """Add or replace every Set of a sets.yaml document, or none if any has a problem.

        The server's other Sets stay. All problems (YAML, fields, global names) come
        back at once in one SetsError.
        """
        # Parsing and validating is CPU work on text an admin sent: off the event loop.
        imported = await asyncio.to_thread(rules.parse_sets, text, source, self.global_sets)
        added = await self._save(guild_id, list(imported.values()))
        updated = tuple(name for name in imported if name not in added)
        return ImportResult(tuple(added), updated)

    async def _save(self, guild_id: int, sets: list[GameSet]) -> list[str]:
        """All of them in one transaction, the server's cap checked inside it."""
        try:
            return await self.store.sets.save_server_sets(
                guild_id, sets, cap=MAX_SERVER_SETS, hidden=self.global_sets
            )
        except TooManySets as exc:
            raise SetsAdminError("too_many", max=MAX_SERVER_SETS) from exc

    async def _own(self, guild_id: int, name: str) -> GameSet:
        key = clean_name(name)
        if key in self.global_sets:
            raise SetsAdminError("global_readonly", name=key)
        own = await self.server_sets(guild_id)
        if key not in own:
            raise SetsAdminError("unknown", name=name)
        return own[key]
