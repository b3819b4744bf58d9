"""Sets files: the validated loader for `sets.yaml` and admins' uploads (`GameSet` itself
is `rules.game_set`; its names are importable from here too).

Validation collects every problem before failing, naming the source, the Set
and the field, so an admin fixes a file in one pass instead of one error at a time.

A Sets file may come from anyone with Manage Server, so parsing is bounded
before anything is validated: no YAML aliases (a 469-byte alias bomb expands
to billions of nodes), a nesting depth and a text size cap, and every message
shows at most a short excerpt of what was written.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rules._bounded_yaml import MAX_NUMBER, UnreadableValues, load_bounded
from rules.game_set import (
    ALLOWED_FUNCTIONS,
    CLASSIC,
    DEFAULT_FUNCTIONS,
    LANGUAGE_FUNCTIONS,
    VERSION_LENGTH,
    FormulaLanguage,
    GameSet,
    compute_min_rounds,
)

__all__ = [  # GameSet and its names live in rules.game_set, importable from here too
    "ALLOWED_FUNCTIONS", "BUILTIN_FILE", "CLASSIC", "DEFAULT_FUNCTIONS", "DESCRIPTION_MAX",
    "FIELDS", "LIMITS", "MAX_PROBLEMS", "MAX_TEXT", "NAME_MAX", "VERSION_LENGTH", "GameSet",
    "SetProblem", "SetsError", "compute_min_rounds", "dump_sets", "excerpt", "load_sets",
    "name_problem", "parse_sets", "validate_set",
]  # fmt: skip

LIMITS: dict[str, tuple[int, int]] = {
    "start_score": (1, 100_000),
    "goal": (0, 1_000_000),
    "bonus": (0, 1_000_000),
    "max_rounds": (1, 50),
    "time_limit": (10, 600),
    "min_rounds": (1, 50),
    "attempts": (1, 100),
}
"""Inclusive ranges for every numeric field."""

NAME_MAX = 32
DESCRIPTION_MAX = 1000
"""Characters of a Set's description: one Discord embed field holds 1,024."""
MAX_TEXT = 1 << 20
"""Characters of one Sets document (uploads are capped lower by the bot)."""
MAX_PROBLEMS = 50
"""Problems listed one by one; the rest are counted in one more."""
_EXCERPT = 40
BUILTIN_FILE = Path(__file__).resolve().parent.parent / "sets.yaml"
FIELDS = (
    "start_score",
    "goal",
    "bonus",
    "max_rounds",
    "time_limit",
    "min_rounds",
    "functions",
    "attempts",
    "description",
    "language",
)
FILE_ONLY_FIELDS: tuple[str, ...] = ()
"""Fields a Sets file may give that the /sets commands do not edit: none now (`language` is
an option of `/sets add` and `/sets edit` too)."""


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
class _Collector:
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


def _int_field(
    data: Mapping[str, Any], name: str, key: str, errors: _Collector, default: int | None = None
) -> int | None:
    if key not in data or data[key] is None:
        if default is None:
            errors.add(name, key, "is required", "required")
        return default
    value = data[key]
    low, high = LIMITS[key]
    if isinstance(value, bool) or not isinstance(value, int):
        errors.add(
            name,
            key,
            f"must be a whole number from {low} to {high}, got {excerpt(value)}",
            "not_integer",
            low=low,
            high=high,
            value=excerpt(value),
        )
        return None
    if not low <= value <= high:
        errors.add(
            name,
            key,
            f"must be from {low} to {high}, got {value}",
            "out_of_range",
            low=low,
            high=high,
            value=value,
        )
        return None
    return value


def _language_field(data: Mapping[str, Any], name: str, errors: _Collector) -> FormulaLanguage:
    raw = data.get("language", FormulaLanguage.PHP.value)
    try:
        return FormulaLanguage(raw)
    except ValueError:
        known = ", ".join(lang.value for lang in FormulaLanguage)
        errors.add(
            name,
            "language",
            f"must be one of {known}, got {excerpt(raw)}",
            "language_unknown",
            known=known,
        )
        return FormulaLanguage.PHP


def _functions_field(
    data: Mapping[str, Any],
    name: str,
    errors: _Collector,
    language: FormulaLanguage = FormulaLanguage.PHP,
) -> tuple[str, ...]:
    rules = LANGUAGE_FUNCTIONS[language]
    defaults, allowed_names = rules.defaults, rules.allowed
    raw = data.get("functions")
    if raw is None:
        return defaults
    if isinstance(raw, str):
        raw = raw.replace(",", " ").split()
    if not isinstance(raw, list) or not all(isinstance(f, str) for f in raw):
        errors.add(name, "functions", "must be a list of function names", "functions_type")
        return defaults
    given = [rules.fold(f.strip()) for f in raw if f.strip()]
    names = tuple(dict.fromkeys(given))
    twice = [f for f in names if given.count(f) > 1]
    if twice:
        shown = excerpt(", ".join(excerpt(f) for f in twice[:5]), 200)
        errors.add(
            name,
            "functions",
            f"named more than once: {shown}",
            "functions_duplicate",
            names=shown,
        )
    unknown = [f for f in names if f not in allowed_names]
    if unknown:
        allowed = ", ".join(sorted(allowed_names))
        shown = excerpt(", ".join(excerpt(f) for f in unknown[:5]), 200)
        shown += f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        errors.add(
            name,
            "functions",
            f"not allowed: {shown} (allowed: {allowed})",
            "functions_not_allowed",
            names=shown,
            allowed=allowed,
        )
    return names


NAME_PROBLEMS: dict[str, str] = {
    "name_missing": "a Set needs a name",
    "name_too_long": f"a Set name has at most {NAME_MAX} characters",
    "name_chars": "a Set name uses lowercase letters, digits, '-' and '_' only",
}
"""English texts of `name_problem` codes."""


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


def name_problem(name: object) -> str | None:
    """The code (a key of NAME_PROBLEMS) of why a Set name is unusable, or None."""
    if not isinstance(name, str) or not name:
        return "name_missing"
    if len(name) > NAME_MAX:
        return "name_too_long"
    # ASCII only: a Cyrillic 'а' in 'dаrts' would pass for the global Set.
    if not all(c in _NAME_CHARS for c in name):
        return "name_chars"
    return None


def _validate_one(
    name: str, data: object, errors: _Collector, reserved: Collection[str] = ()
) -> GameSet | None:
    before = errors.count
    code = name_problem(name)
    if code:
        errors.add(name, None, NAME_PROBLEMS[code], code, max=NAME_MAX)
    elif name in reserved:
        errors.add(name, None, "the name is taken by a global Set", "name_reserved")
    if not isinstance(data, Mapping):
        errors.add(name, None, "must be a mapping of fields", "not_mapping")
        return None
    for key in data:
        if key not in FIELDS and key not in FILE_ONLY_FIELDS:
            errors.add(
                name,
                str(key),
                f"unknown field (known: {', '.join(FIELDS + FILE_ONLY_FIELDS)})",
                "unknown_field",
                known=", ".join(FIELDS + FILE_ONLY_FIELDS),
            )
    start = _int_field(data, name, "start_score", errors)
    goal = _int_field(data, name, "goal", errors)
    bonus = _int_field(data, name, "bonus", errors)
    max_rounds = _int_field(data, name, "max_rounds", errors)
    time_limit = _int_field(data, name, "time_limit", errors)
    attempts = _int_field(data, name, "attempts", errors, default=1)
    language = _language_field(data, name, errors)
    functions = _functions_field(data, name, errors, language)
    description = data.get("description", "")
    if not isinstance(description, str):
        errors.add(name, "description", "must be text", "description_type")
        description = ""
    elif len(description) > DESCRIPTION_MAX:
        errors.add(
            name,
            "description",
            f"has {len(description)} characters; at most {DESCRIPTION_MAX}",
            "description_too_long",
            length=len(description),
            max=DESCRIPTION_MAX,
        )
    min_rounds: int | None = None
    if data.get("min_rounds") is not None:
        min_rounds = _int_field(data, name, "min_rounds", errors)
        if min_rounds is not None and max_rounds is not None and min_rounds > max_rounds:
            errors.add(
                name,
                "min_rounds",
                f"({min_rounds}) is more than max_rounds ({max_rounds})",
                "min_over_max",
                min_rounds=min_rounds,
                max_rounds=max_rounds,
            )
    elif start is not None and goal is not None and bonus is not None:
        min_rounds = compute_min_rounds(start, goal, bonus)
        high = LIMITS["min_rounds"][1]
        if min_rounds > high:
            errors.add(
                name,
                "min_rounds",
                f"computed from start_score {start}, goal {goal} and bonus {bonus} is "
                f"{min_rounds}, more than {high}: give min_rounds, or raise goal or bonus",
                "min_computed_out_of_range",
                min_rounds=min_rounds,
                high=high,
            )
        elif max_rounds is not None and min_rounds > max_rounds:
            errors.add(
                name,
                "min_rounds",
                f"computed from start_score {start}, goal {goal} and bonus {bonus} is "
                f"{min_rounds}, more than max_rounds ({max_rounds}): no game could be a "
                "Perfect; give min_rounds, or raise max_rounds, goal or bonus",
                "min_computed_over_max",
                min_rounds=min_rounds,
                max_rounds=max_rounds,
            )
    if errors.count > before:
        return None
    assert start is not None and goal is not None and bonus is not None
    assert max_rounds is not None and time_limit is not None and min_rounds is not None
    return GameSet(
        name=name,
        start_score=start,
        goal=goal,
        bonus=bonus,
        max_rounds=max_rounds,
        time_limit=time_limit,
        min_rounds=min_rounds,
        functions=functions,
        attempts=attempts or 1,
        description=description,
        language=language,
    )


def validate_set(
    name: str, data: Mapping[str, Any], source: str = "set", reserved: Collection[str] = ()
) -> GameSet:
    """Validate one Set given as fields; raises SetsError listing every problem.

    `reserved` names (a server's view of the global Sets) are refused with the rest.
    """
    errors = _Collector(source)
    result = _validate_one(name, data, errors, reserved)
    if result is None:
        raise errors.error()
    return result


def parse_sets(
    text: str, source: str = "sets.yaml", reserved: Collection[str] = ()
) -> dict[str, GameSet]:
    """Parse a Sets document: a mapping `name: {fields}` (optionally under `sets:`).

    `reserved` names are refused like any other problem, so an import lists them all.
    """
    errors = _Collector(source)
    if len(text) > MAX_TEXT:
        errors.add(
            None,
            None,
            f"has {len(text)} characters; a Sets document has at most {MAX_TEXT}",
            "too_large",
            length=len(text),
            max=MAX_TEXT,
        )
        raise errors.error()
    try:
        document = load_bounded(text)
    except UnreadableValues as exc:
        for value in exc.values:
            params = {"line": value.line, "column": value.column, "value": value.value}
            if value.code == "yaml_number_too_long":
                params |= {"length": int(value.detail), "max": MAX_NUMBER}
            elif value.code == "yaml_bad_value":
                params["tag"] = value.tag
            errors.add(None, None, value.message, value.code, **params)
        raise errors.error() from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = excerpt(getattr(exc, "problem", None) or str(exc), 200)
        errors.add(
            None,
            None,
            f"not valid YAML{line}: {problem}",
            "yaml",
            line=mark.line + 1 if mark else "?",
            column=mark.column + 1 if mark else "?",
            problem=problem,
        )
        raise errors.error() from None
    if isinstance(document, Mapping) and set(document) == {"sets"}:
        document = document["sets"]
    if not isinstance(document, Mapping) or not document:
        errors.add(None, None, "must be a mapping of Set names to their fields", "not_sets")
        raise errors.error()
    result: dict[str, GameSet] = {}
    for name, data in document.items():
        game_set = _validate_one(str(name), data, errors, reserved)
        if game_set is not None:
            result[game_set.name] = game_set
    if errors.count:
        raise errors.error()
    return result


def load_sets(path: str | Path | None = None) -> dict[str, GameSet]:
    """Load and validate a Sets file (the shipped `sets.yaml` by default)."""
    file = Path(path) if path is not None else BUILTIN_FILE
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise SetsError(
            [SetProblem(str(file), None, None, f"cannot read: {exc.strerror}")]
        ) from None
    return parse_sets(text, source=str(file))


def dump_sets(sets: Iterable[GameSet]) -> str:
    """Serialize Sets in the `sets.yaml` format (round-trips through parse_sets)."""
    document: dict[str, dict[str, Any]] = {}
    for game_set in sets:
        data = game_set.to_dict()
        data.pop("name")
        if not data["description"]:
            data.pop("description")
        document[game_set.name] = data
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
