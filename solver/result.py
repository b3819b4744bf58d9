"""What a solve returns, free of numpy so the bot can hold results without loading the engine."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.scoring import Number


@dataclass(frozen=True, slots=True)
class Candidate:
    """One formula: its text, PHP's Result (int or float), the points, the new Score and
    its length (characters without spaces)."""

    formula: str
    value: Number
    points: Number
    score: Number
    length: int

    @property
    def php_type(self) -> str:
        return "float" if isinstance(self.value, float) else "int"


@dataclass(frozen=True, slots=True)
class Solution:
    """Distinct Results, best first: the new Score nearest `aim` (0: the smallest), then
    the most readable formula (fewest calls, then unary minuses, then characters: spaces
    and redundant parentheses not counted; solver.grammar.formula_cost), then plain
    string order."""

    digits: str
    score: Number
    set_name: str
    aim: int
    candidates: tuple[Candidate, ...]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]


class FailureReason(StrEnum):
    TIMEOUT = "timeout"
    BUSY = "busy"
    CRASHED = "crashed"
    CLOSED = "closed"
    INVALID = "invalid"
    MEMORY = "memory"


@dataclass(frozen=True, slots=True)
class SolveFailure:
    """Why no Solution came: the caller degrades (shows the reveal later, or skips it)."""

    reason: FailureReason
    message: str
