"""A command named in a message: a mention the reader can click.

Discord renders a command mention, `</name:id>` or `</sets import:id>` (a
subcommand carries its top-level command's id), with exactly the name written
in it, and only a mention written with the default name works when clicked:
one written with a localized name shows it but does nothing (discord-api-docs
issues 5518, 5462, 7309). So every reader gets the clickable mention with the
default name, and clicking it opens the command as their client names it
(/здатися); a click is worth more than a localized label that leads nowhere.
Where no mention can work (before the command tree is synced and its ids are
known, or in a footer, title or command description, `{/name:plain}`), the
reader gets the name their client shows, `/здатися`, as plain text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol


class SyncedCommand(Protocol):
    """What `CommandTree.sync()` returns for each top-level command."""

    @property
    def name(self) -> str: ...

    @property
    def id(self) -> int: ...


def command_text(qualified: str, shown: str, command_id: int | None) -> str:
    """`qualified` (the default name, "sets import") as a mention, or `/shown` as text."""
    if command_id is not None:
        return f"</{qualified}:{command_id}>"
    return f"/{shown}"


class CommandIds:
    """Top-level command name → the id Discord gave it at the last sync."""

    def __init__(self, ids: Mapping[str, int] | None = None) -> None:
        self._ids = dict(ids or {})
        self.generation = 0
        """Counts the syncs: a text made with older ids is made again (`Catalog.fill`)."""

    def use(self, synced: Iterable[SyncedCommand]) -> None:
        self._ids = {command.name: command.id for command in synced}
        self.generation += 1

    def of(self, qualified: str) -> int | None:
        return self._ids.get(qualified.split(" ", 1)[0])
