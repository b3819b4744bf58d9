"""A refusal a user caused: a catalog code and its parameters, rendered in their language."""

from __future__ import annotations

from typing import Any, ClassVar


class UserError(Exception):
    """`code` names a catalog message under the class's `prefix`; `params` fill it.

    Subclasses choose their catalog section and how a parameter reads in a message
    (`display_params`): the raiser passes plain values (ids, names, times), the
    message decides how they look.
    """

    prefix: ClassVar[str] = "errors."
    players: ClassVar[tuple[str, ...]] = ()
    moments: ClassVar[tuple[str, ...]] = ()
    places: ClassVar[tuple[str, ...]] = ()
    """The parameters that name a player (an id), a moment (UTC seconds) or a place (a
    channel id): plain values, which each face writes its own way (Discord: a mention, a
    `<t:…>` timestamp, a channel link; `bot.common.interactions.refusal_text`)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def key(self) -> str:
        return self.prefix + self.code

    def display_params(self, locale: str) -> dict[str, Any]:
        del locale
        return dict(self.params)


class UnknownSet(UserError):
    """No Set of that name is playable on the server; `available` lists those that are."""

    def __init__(self, name: str | None, available: list[str]) -> None:
        super().__init__("unknown_set", name=name, available=", ".join(available))
