"""A command named in a message the way the reader's Discord client shows it.

Discord renders a command mention, `</name:id>` or `</sets import:id>` (a
subcommand carries its top-level command's id), with exactly the name written
in it: it never shows the reader's localized name, and a mention written with
a localized name shows it but does nothing when clicked (discord-api-docs
issues 5518, 5462, 7309). So a reader whose client shows the command under
its default name gets the clickable mention; any other reader gets the name
their client shows, `/здатися`, as plain text; so does everyone before the
command tree is synced and its ids are known.
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
    if command_id is not None and shown == qualified:
        return f"</{qualified}:{command_id}>"
    return f"/{shown}"


class CommandIds:
    """Top-level command name → the id Discord gave it at the last sync."""

    def __init__(self, ids: Mapping[str, int] | None = None) -> None:
        self._ids = dict(ids or {})

    def use(self, synced: Iterable[SyncedCommand]) -> None:
        self._ids = {command.name: command.id for command in synced}

    def of(self, qualified: str) -> int | None:
        return self._ids.get(qualified.split(" ", 1)[0])
