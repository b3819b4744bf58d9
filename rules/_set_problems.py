"""How a Sets file's problems are collected and reported: all of them, at once, short.

Validation collects every problem before failing, naming the source, the Set and the
field, so an admin fixes a file in one pass instead of one error at a time. A Sets file
may come from anyone with Manage Server, so every message shows at most a short excerpt
of what was written, and a file with very many problems lists the first ones and
counts the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_PROBLEMS = 50
"""Problems listed one by one; the rest are counted in one more."""
_EXCERPT = 40


def excerpt(value: object, limit: int = _EXCERPT) -> str:
    """A short repr for a message: never the whole of a huge value."""
    if isinstance(value, list | dict) and len(value) > limit:
        kind = "list" if isinstance(value, list) else "mapping"
        return f"a {kind} of {len(value)} items"
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class SetProblem:
    """One problem: where it is, an English message, and a `code` with `params`
    so a user interface can say the same thing in the user's language."""

    source: str
    set_name: str | None
    field: str | None
    message: str
    code: str = "invalid"
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        where = self.source
        if self.set_name is not None:
            where += f": set '{self.set_name}'"
        if self.field is not None:
            where += f", field '{self.field}'"
        return f"{where}: {self.message}"


class SetsError(ValueError):
    """Every problem found in a Sets source, reported at once."""

    def __init__(self, problems: list[SetProblem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass
class Collector:
    """The problems of one source as they are found; past MAX_PROBLEMS only counted."""

    source: str
    problems: list[SetProblem] = field(default_factory=list)

    skipped: int = 0

    @property
    def count(self) -> int:
        return len(self.problems) + self.skipped

    def add(
        self,
        set_name: str | None,
        field_name: str | None,
        message: str,
        code: str = "invalid",
        **params: Any,
    ) -> None:
        if len(self.problems) >= MAX_PROBLEMS:
            self.skipped += 1
            return
        problem = SetProblem(
            self.source,
            None if set_name is None else excerpt(set_name),
            None if field_name is None else excerpt(field_name),
            message,
            code,
            tuple(sorted(params.items())),
        )
        self.problems.append(problem)

    def error(self) -> SetsError:
        problems = list(self.problems)
        if self.skipped:
            problems.append(
                SetProblem(
                    self.source,
                    None,
                    None,
                    f"and {self.skipped} more problems",
                    "more_problems",
                    (("count", self.skipped),),
                )
            )
        return SetsError(problems)
