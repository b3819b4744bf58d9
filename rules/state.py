"""The state of a game: plain values that round-trip through JSON exactly.

`GameState.to_dict()` is what the store keeps; `from_dict` restores it, so a game
replays identically after a restart. A key that a newer version adds is written
only when it has a value, so the JSON of an older game stays byte for byte the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.errors import NotAPlayer
from rules.scoring import Number
from rules.sets import GameSet


class Mode(StrEnum):
    TRAINING = "training"
    QUALIFICATION = "qualification"
    DUEL = "duel"
    PRACTICE = "practice"
    """A duel against the bot itself at a chosen level: a duel's rules, unranked."""

    @property
    def is_duel(self) -> bool:
        """Two players answering the same Digits each round (an Online Duel or Practice)."""
        return self in (Mode.DUEL, Mode.PRACTICE)

    @property
    def players(self) -> int:
        return 2 if self.is_duel else 1

    @property
    def quick_resign_is_free(self) -> bool:
        """One game of this mode resigned in its first round with no answer given is not a
        start for the start limit (one in its window): a change of mind costs nothing where
        nothing is ranked.
        A Qualification's attempt is used all the same (its rules do not change)."""
        return self in (Mode.TRAINING, Mode.PRACTICE)


class Termination(StrEnum):
    CHECKOUT = "checkout"
    MAX_ROUNDS = "max_rounds"
    TIMEOUT = "timeout"
    RESIGN = "resign"
    VOID = "void"
    """The game could not be run (RULES.md "Void"): no result, no attempt, no Elo."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. `winner` is a player index; None in a duel is a draw.

    In single modes a checkout and a full maxRound game both have winner 0
    (the original rules call both a win); a timeout, a resignation or a void has None.
    """

    termination: Termination
    winner: int | None
    rounds: int
    perfect: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "winner": self.winner,
            "rounds": self.rounds,
            "perfect": self.perfect,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            Termination(data["termination"]), data["winner"], data["rounds"], data["perfect"]
        )


@dataclass(slots=True)
class Answer:
    """A player's final formula for a round, with what it scored."""

    formula: str
    result: Number
    points: Number
    score: Number
    elapsed: float
    auto: bool = False


@dataclass(slots=True)
class Round:
    """One round. `deadline` is decided when it starts (`started_at` + the time limit).

    `shown_at` is when its message appeared to the players (Discord's timestamp of
    the post). A post delayed by the network or a rate limit would cost the players
    that time, so answers are timed from `shown_at` and count until the deadline
    plus the delay (`answer_deadline`); the deadline players were shown stays.
    """

    number: int
    digits: str
    started_at: float
    deadline: float
    answers: list[Answer | None]
    resolved: bool = False
    shown_at: float | None = None

    @property
    def opened_at(self) -> float:
        """When the players could first answer: the post's time, else the start."""
        return self.started_at if self.shown_at is None else max(self.shown_at, self.started_at)

    @property
    def answer_deadline(self) -> float:
        """The last moment an answer counts: the deadline plus the post's delay."""
        return self.deadline + (self.opened_at - self.started_at)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "number": self.number,
            "digits": self.digits,
            "started_at": self.started_at,
            "deadline": self.deadline,
            "resolved": self.resolved,
            "answers": [
                None
                if a is None
                else {
                    "formula": a.formula,
                    "result": a.result,
                    "points": a.points,
                    "score": a.score,
                    "elapsed": a.elapsed,
                    "auto": a.auto,
                }
                for a in self.answers
            ],
        }
        if self.shown_at is not None:
            data["shown_at"] = self.shown_at
        return data

    @classmethod
    def from_dict(cls, r: dict[str, Any]) -> Round:
        return cls(
            number=r["number"],
            digits=r["digits"],
            started_at=r["started_at"],
            deadline=r["deadline"],
            resolved=r["resolved"],
            answers=[None if a is None else Answer(**a) for a in r["answers"]],
            shown_at=r.get("shown_at"),
        )


@dataclass(slots=True)
class GameState:
    id: str
    mode: Mode
    game_set: GameSet
    players: list[str]
    scores: list[Number]
    rounds: list[Round] = field(default_factory=list)
    outcome: Outcome | None = None
    resigned: int | None = None

    @property
    def current_round(self) -> Round | None:
        """The open round, if one is being played."""
        if self.rounds and not self.rounds[-1].resolved and self.outcome is None:
            return self.rounds[-1]
        return None

    def player_index(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise NotAPlayer(f"{player} is not a player of game {self.id}") from None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "mode": self.mode.value,
            "set": self.game_set.to_dict(),
            "players": list(self.players),
            "scores": list(self.scores),
            "rounds": [r.to_dict() for r in self.rounds],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "resigned": self.resigned,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        rounds = [Round.from_dict(r) for r in data["rounds"]]
        outcome = data.get("outcome")
        return cls(
            id=data["id"],
            mode=Mode(data["mode"]),
            game_set=GameSet.from_dict(data["set"]),
            players=list(data["players"]),
            scores=list(data["scores"]),
            rounds=rounds,
            outcome=None if outcome is None else Outcome.from_dict(outcome),
            resigned=data.get("resigned"),
        )
