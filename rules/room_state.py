"""A room's state (`rules.room` moves it): plain values that round-trip through JSON, the
room's refusals, and how it ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.errors import RulesError
from rules.scoring import Number
from rules.sets import GameSet
from rules.state import Round


class RoomRefusal(RulesError):
    """A refusal only a room makes (a duel never raises one)."""


class AlreadyIn(RoomRefusal):
    code = "room_already_in"


class NotHost(RoomRefusal):
    code = "room_not_host"


class TooFew(RoomRefusal):
    code = "room_too_few"


class NotInLobby(RoomRefusal):
    """A lobby action (join, leave, start) after the room started or ended."""

    code = "room_not_in_lobby"


class OutOfRoom(RoomRefusal):
    """The player went out of the room (two auto-moves in a row, or left)."""

    code = "room_out"


class Phase(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


class RoomEnd(StrEnum):
    CHECKOUT = "checkout"
    """A Score reached 0: everyone at 0 shares first place."""
    MAX_ROUNDS = "max_rounds"
    LAST_IN = "last_in"
    """One player is left in: first."""
    ALL_OUT = "all_out"
    """Everyone still in went out in the same round: ranked by Score."""
    VOID = "void"
    """Nobody made a move of their own, or the room could not be run."""
    CANCELLED = "cancelled"
    """The lobby's deadline came with fewer than 2 players."""
    HOST_LEFT = "host_left"
    """The host left the lobby: it is cancelled."""


class ExitReason(StrEnum):
    MISSED = "missed"
    LEFT = "left"


@dataclass(frozen=True, slots=True)
class Exit:
    """A player going out: `batch` orders the exits (one batch per event: the auto-moves
    of one deadline share it)."""

    player: int
    round: int
    reason: ExitReason
    batch: int


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    place: int
    """1 is first; equal places are shared."""


@dataclass(slots=True)
class RoomState:
    id: str
    game_set: GameSet
    host: str
    size: int
    lobby_deadline: float
    players: list[str]
    phase: Phase = Phase.LOBBY
    scores: list[Number] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    misses: list[int] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    end: RoomEnd | None = None
    standings: list[Standing] = field(default_factory=list)
    """In display order once the room is over: by place, then answering time."""

    @property
    def current_round(self) -> Round | None:
        if self.phase is Phase.PLAYING and self.rounds and not self.rounds[-1].resolved:
            return self.rounds[-1]
        return None

    @property
    def still_in(self) -> list[int]:
        gone = {e.player for e in self.exits}
        return [i for i in range(len(self.players)) if i not in gone]

    def is_in(self, index: int) -> bool:
        return all(e.player != index for e in self.exits)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "set": self.game_set.to_dict(),
            "host": self.host,
            "size": self.size,
            "lobby_deadline": self.lobby_deadline,
            "players": list(self.players),
            "phase": self.phase.value,
            "scores": list(self.scores),
            "rounds": [r.to_dict() for r in self.rounds],
            "misses": list(self.misses),
            "exits": [[e.player, e.round, e.reason.value, e.batch] for e in self.exits],
            "end": None if self.end is None else self.end.value,
            "standings": [[s.player, s.place] for s in self.standings],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomState:
        return cls(
            id=data["id"],
            game_set=GameSet.from_dict(data["set"]),
            host=data["host"],
            size=data["size"],
            lobby_deadline=data["lobby_deadline"],
            players=list(data["players"]),
            phase=Phase(data["phase"]),
            scores=list(data["scores"]),
            rounds=[Round.from_dict(r) for r in data["rounds"]],
            misses=list(data["misses"]),
            exits=[Exit(p, r, ExitReason(why), b) for p, r, why, b in data["exits"]],
            end=None if data["end"] is None else RoomEnd(data["end"]),
            standings=[Standing(p, place) for p, place in data["standings"]],
        )
