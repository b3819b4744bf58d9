"""The modes, declared once: how many players, rated or not, seeded or not, attempts
per window, on a board or not, sealed or not, and which competition window.

In the style of python-chess's variants (`chess.variant`): a class per mode whose
class attributes and hooks say how it plays, and a registry (`MODES`, `declared`). The
bot asks the declaration (`declared(state.mode).rated`), it does not test which mode
it is, so a new mode (a Cup's game, a room) is one class here, not a hunt through the
bot for `mode is Mode.DUEL`.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from enum import StrEnum
from typing import ClassVar

from rules.game_set import GameSet
from rules.state import Mode
from rules.window import ServerDay, Window


class WindowKind(StrEnum):
    """Which competition window a mode's games compete in."""

    NONE = "none"
    """Games compete with nobody's (a Training, a duel): no window."""
    SERVER_DAY = "server_day"
    """The server's day in its time zone (`rules.window.ServerDay`)."""
    EVENT = "event"
    """An event with a start and an end (`rules.window.Event`): a Cup."""


class ModeRules:
    """How a mode plays. Subclasses set the class attributes; the hooks read them."""

    mode: ClassVar[Mode]
    players: ClassVar[int]
    """Seats in a game of the mode."""
    rated: ClassVar[bool] = False
    """Whether a finished game changes the players' Elo."""
    board: ClassVar[bool] = False
    """Whether its games are ranked on the server's board (`rules.ranking_key`)."""
    seeded: ClassVar[bool] = False
    """Whether everyone of a window gets the same Digits (`rules.seeded_digits`)."""
    sealed: ClassVar[bool] = False
    """Whether its Digits and answers stay hidden until its window closes (`rules.seal`)."""
    window: ClassVar[WindowKind] = WindowKind.NONE
    bot_seat: ClassVar[int | None] = None
    """The seat the bot itself plays, if it plays one (Practice)."""
    in_stats: ClassVar[bool] = True
    """Whether its games count in a player's record (`/stats`)."""

    @classmethod
    def attempts(cls, game_set: GameSet) -> int | None:
        """Games a player may start per window of a Set: None for no limit."""
        del game_set
        return None

    @classmethod
    def window_at(cls, moment: datetime, tz: tzinfo) -> Window | None:
        """The window a game started at `moment` competes in (`tz`: the server's zone)."""
        if cls.window is WindowKind.SERVER_DAY:
            return ServerDay.at(moment, tz)
        return None

    @classmethod
    def reveals_while_played(cls) -> bool:
        """Whether a round's best answer is shown when it ends (not for a sealed mode)."""
        return not cls.sealed


class Training(ModeRules):
    mode = Mode.TRAINING
    players = 1


class Qualification(ModeRules):
    mode = Mode.QUALIFICATION
    players = 1
    board = True
    seeded = True
    sealed = True
    window = WindowKind.SERVER_DAY

    @classmethod
    def attempts(cls, game_set: GameSet) -> int | None:
        return game_set.attempts


class Duel(ModeRules):
    mode = Mode.DUEL
    players = 2
    rated = True


class Practice(ModeRules):
    mode = Mode.PRACTICE
    players = 2
    bot_seat = 1
    in_stats = False


MODES: dict[Mode, type[ModeRules]] = {
    rules.mode: rules for rules in (Training, Qualification, Duel, Practice)
}
"""Every mode's declaration; a Mode without one fails `tests/rules/test_modes.py`."""


def declared(mode: Mode) -> type[ModeRules]:
    """How `mode` plays."""
    return MODES[mode]
