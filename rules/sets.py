"""Sets files: the validated loader for `sets.yaml` and admins' uploads (`GameSet` itself
is `rules.game_set`, one Set's fields and their checks `rules._set_fields`, the problems
found `rules._set_problems`; their names are importable from here too).

Validation collects every problem before failing, naming the source, the Set
and the field, so an admin fixes a file in one pass instead of one error at a time.

A Sets file may come from anyone with Manage Server, so parsing is bounded
before anything is validated: no YAML aliases (a 469-byte alias bomb expands
to billions of nodes), a nesting depth and a text size cap, and every message
shows at most a short excerpt of what was written.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from rules._bounded_yaml import MAX_NUMBER, UnreadableValues, load_bounded
from rules._set_fields import (
    DESCRIPTION_MAX,
    FIELDS,
    FILE_ONLY_FIELDS,
    LIMITS,
    NAME_MAX,
    NAME_PROBLEMS,
    name_problem,
    validate_one,
)
from rules._set_problems import MAX_PROBLEMS, Collector, SetProblem, SetsError, excerpt
from rules.game_set import (
    ALLOWED_FUNCTIONS,
    CLASSIC,
    DEFAULT_FUNCTIONS,
    VERSION_LENGTH,
    GameSet,
    compute_min_rounds,
)

__all__ = [  # GameSet and its names live in rules.game_set, importable from here too
    "ALLOWED_FUNCTIONS", "BUILTIN_FILE", "CLASSIC", "DEFAULT_FUNCTIONS", "DESCRIPTION_MAX",
    "FIELDS", "FILE_ONLY_FIELDS", "LIMITS", "MAX_PROBLEMS", "MAX_TEXT", "NAME_MAX",
    "NAME_PROBLEMS", "VERSION_LENGTH", "GameSet", "SetProblem", "SetsError",
    "compute_min_rounds", "dump_sets", "excerpt", "load_sets", "name_problem", "parse_sets",
    "validate_set",
]  # fmt: skip

MAX_TEXT = 1 << 20
"""Characters of one Sets document (uploads are capped lower by the bot)."""
BUILTIN_FILE = Path(__file__).resolve().parent.parent / "sets.yaml"


def validate_set(
    name: str, data: Mapping[str, Any], source: str = "set", reserved: Collection[str] = ()
) -> GameSet:
    """Validate one Set given as fields; raises SetsError listing every problem.

    `reserved` names (a server's view of the global Sets) are refused with the rest.
    """
    errors = Collector(source)
    result = validate_one(name, data, errors, reserved)
    if result is None:
        raise errors.error()
    return result


def parse_sets(
    text: str, source: str = "sets.yaml", reserved: Collection[str] = ()
) -> dict[str, GameSet]:
    """Parse a Sets document: a mapping `name: {fields}` (optionally under `sets:`).

    `reserved` names are refused like any other problem, so an import lists them all.
    """
    errors = Collector(source)
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
        game_set = validate_one(str(name), data, errors, reserved)
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
