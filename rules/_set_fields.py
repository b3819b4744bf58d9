"""One Set's fields: their names, ranges and checks, and a Set validated from them.

Each field reader records what is wrong with it in the `Collector` and goes on, so one
pass over a Set finds all of its problems (`validate_one`); reading a whole Sets
document is `rules.sets`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rules._set_problems import Collector, excerpt
from rules.game_set import (
    STORM_SECONDS,
    FormulaLanguage,
    GameSet,
    compute_min_rounds,
)
from rules.languages import language_rules

LIMITS: dict[str, tuple[int, int]] = {
    "start_score": (1, 100_000),
    "goal": (0, 1_000_000),
    "bonus": (0, 1_000_000),
    "max_rounds": (1, 50),
    "time_limit": (10, 600),
    "min_rounds": (1, 50),
    "attempts": (1, 100),
    "storm_seconds": (30, 3600),
}
"""Inclusive ranges for every numeric field."""

NAME_MAX = 32
DESCRIPTION_MAX = 1000
"""Characters of a Set's description: one Discord embed field holds 1,024."""
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
FILE_ONLY_FIELDS: tuple[str, ...] = ("storm_seconds",)
"""Fields a Sets file may give that the /sets commands do not edit (`language` is an option
of `/sets add` and `/sets edit` too): `storm_seconds`, how long a puzzle Storm runs."""


def _int_field(
    data: Mapping[str, Any], name: str, key: str, errors: Collector, default: int | None = None
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


def _language_field(data: Mapping[str, Any], name: str, errors: Collector) -> FormulaLanguage:
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
    errors: Collector,
    language: FormulaLanguage,
) -> tuple[str, ...]:
    rules = language_rules(language).functions
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


def validate_one(
    name: str, data: object, errors: Collector, reserved: Collection[str] = ()
) -> GameSet | None:
    """The Set `name` built from `data`, or None with all its problems added to `errors`
    (a name in `reserved` is one of them)."""
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
    storm_seconds = _int_field(data, name, "storm_seconds", errors, default=STORM_SECONDS)
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
        storm_seconds=storm_seconds or STORM_SECONDS,
        description=description,
        language=language,
    )
