"""A Set, one variant of the game: its numbers, its functions, and the version that makes
games comparable. Parsing and validating Sets files is `rules.sets`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

DEFAULT_FUNCTIONS: tuple[str, ...] = ("pow", "sqrt", "hexdec", "octdec", "bindec")
"""PHP functions the original rules allow."""

ALLOWED_FUNCTIONS: frozenset[str] = frozenset(
    (*DEFAULT_FUNCTIONS, "abs", "intdiv", "floor", "ceil", "round", "fmod", "max", "min")
)
"""Vetted PHP math functions that take and return numbers only; a Set may use no others."""

VERSION_LENGTH = 10


def compute_min_rounds(start_score: int, goal: int, bonus: int) -> int:
    """Fewest rounds that can bring Score to 0 (RULES.md): the smallest k with
    `S <= (k-1)*(G+B) + G` or `S == k*(G+B)`.

    Each round removes at most goal+bonus; the last round can also land exactly
    on the remaining score when it is at most the goal. Closed form, so a Set of
    100000/1/0 costs no more than the classic one. With goal and bonus both 0
    no k qualifies; points are then |result| and one round can do it: 1.
    """
    step = goal + bonus
    if step == 0 or start_score <= goal:
        return 1
    reach = -(-(start_score - goal) // step) + 1  # ceil((S - G) / step) + 1
    exact = start_score // step if start_score % step == 0 else reach
    return min(reach, exact)


@dataclass(frozen=True, slots=True)
class GameSet:
    """One variant of the game; a running game keeps a snapshot of it."""

    name: str
    start_score: int
    goal: int
    bonus: int
    max_rounds: int
    time_limit: int
    min_rounds: int
    functions: tuple[str, ...] = DEFAULT_FUNCTIONS
    attempts: int = 1
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        # not dataclasses.asdict: it deep-copies every value, and these are all immutable
        # (the Set is dumped with every save of a game)
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["functions"] = list(self.functions)
        return data

    @property
    def version(self) -> str:
        """What makes games comparable: the numbers and the functions, not the words.

        Games, Qualification attempts and boards are kept per version, so editing a
        Set's numbers mid-day starts a new board (and new Digits) instead of ranking
        games played under different rules together. A description edit changes
        nothing, and neither does `attempts`: allowing one more try must not wipe the
        day's board. Ten hex digits of a SHA-256 of the canonical fields.
        """
        fields = {
            "start_score": self.start_score,
            "goal": self.goal,
            "bonus": self.bonus,
            "max_rounds": self.max_rounds,
            "time_limit": self.time_limit,
            "min_rounds": self.min_rounds,
            "functions": sorted(f.lower() for f in self.functions),
        }
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:VERSION_LENGTH]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSet:
        """Rebuild a snapshot already validated (e.g. stored with a game)."""
        values = dict(data)
        values["functions"] = tuple(values.get("functions", DEFAULT_FUNCTIONS))
        return cls(**values)


CLASSIC = GameSet(
    name="darts", start_score=501, goal=100, bonus=50, max_rounds=7, time_limit=120, min_rounds=4
)
