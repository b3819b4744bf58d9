"""A Set, one variant of the game: its numbers, its functions, and the version that makes
games comparable. Parsing and validating Sets files is `rules.sets`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.languages import (
    ALLOWED_FUNCTIONS,
    DEFAULT_FUNCTIONS,
    JS_ALLOWED_FUNCTIONS,
    JS_DEFAULT_FUNCTIONS,
    FormulaLanguage,
    FunctionRules,
    LanguageRules,
    language_rules,
)

__all__ = [  # the language's names live in rules.languages, importable from here as before
    "ALLOWED_FUNCTIONS",
    "CLASSIC",
    "DEFAULT_FUNCTIONS",
    "JS_ALLOWED_FUNCTIONS",
    "JS_DEFAULT_FUNCTIONS",
    "STORM_SECONDS",
    "VERSION_LENGTH",
    "FormulaLanguage",
    "FunctionRules",
    "GameSet",
    "compute_min_rounds",
]

VERSION_LENGTH = 10


def compute_min_rounds(start_score: float, goal: int, bonus: int) -> int:
    """Fewest rounds that can bring Score to 0 (RULES.md): the smallest k with
    `S <= (k-1)*(G+B) + G` or `S == k*(G+B)`.

    Each round removes at most goal+bonus; the last round can also land exactly
    on the remaining score when it is at most the goal. Closed form, so a Set of
    100000/1/0 costs no more than the classic one. With goal and bonus both 0
    no k qualifies; points are then |result| and one round can do it: 1. Any Score may
    be asked about (a game's Score can be a float: `7/2` is 3.5).
    """
    step = goal + bonus
    if step == 0 or start_score <= goal:
        return 1
    reach = -(-(start_score - goal) // step) + 1  # ceil((S - G) / step) + 1
    exact = start_score // step if start_score % step == 0 else reach
    return int(min(reach, exact))


STORM_SECONDS = 180
"""A puzzle Storm's length when the Set does not name one."""


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
    language: FormulaLanguage = FormulaLanguage.PHP
    storm_seconds: int = STORM_SECONDS
    """How long a puzzle Storm of this Set runs (RULES.md "Puzzles"); not part of the
    version: it changes no game."""

    @property
    def language_rules(self) -> LanguageRules:
        """The Set's language's numbers and functions: what its scoring and texts ask."""
        return language_rules(self.language)

    def to_dict(self) -> dict[str, Any]:
        # not dataclasses.asdict: it deep-copies every value, and these are all immutable
        # (the Set is dumped with every save of a game)
        data = {name: getattr(self, name) for name in _FIELDS}
        data["functions"] = list(self.functions)
        if self.language_rules.implied:
            del data["language"]  # PHP Sets export and snapshot exactly as before
        else:
            data["language"] = self.language.value
        if self.storm_seconds == STORM_SECONDS:
            del data["storm_seconds"]  # Sets that keep the default export as before
        return data

    @property
    def version(self) -> str:
        """What makes games comparable: the numbers and the functions, not the words.

        Games, Qualification attempts and boards are kept per version, so editing a
        Set's numbers mid-day starts a new board (and new Digits) instead of ranking
        games played under different rules together. A description edit changes
        nothing, and neither does `attempts`: allowing one more try must not wipe the
        day's board. Ten hex digits of a SHA-256 of the canonical fields; the
        language counts only when it is not PHP, so every PHP Set keeps its version.
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
        if not self.language_rules.implied:
            fields["language"] = self.language.value
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:VERSION_LENGTH]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSet:
        """Rebuild a snapshot already validated (e.g. stored with a game)."""
        values = dict(data)
        # a snapshot without a language is the implied one's (PHP's): the one true default
        language = FormulaLanguage(values.get("language", FormulaLanguage.PHP))
        values["language"] = language
        defaults = language_rules(language).functions.defaults
        values["functions"] = tuple(values.get("functions", defaults))
        return cls(**values)


_FIELDS = tuple(f.name for f in fields(GameSet))
"""The Set's fields in order, named once: `to_dict` runs with every save of a game."""

CLASSIC = GameSet(
    name="darts", start_score=501, goal=100, bonus=50, max_rounds=7, time_limit=120, min_rounds=4
)
