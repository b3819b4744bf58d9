"""Every refusal the code can raise has its text in both languages.

The codes are read from the source's syntax trees, not from a list kept by hand:
each call of a `UserError` class with a code (a literal, or an f-string whose
fixed parts must match catalog keys), each subclass that fixes its own code,
every rules error's `code`, and every `Refusal` (the `GameError` codes).
A new code without Ukrainian and English text fails here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import rules
from bot.common import UserError
from bot.i18n import catalog
from bot.play import Refusal
from tests.support.paths import ROOT

BOT = ROOT / "bot"
LANGUAGES = {"en", "uk"}


@dataclass(frozen=True)
class Raised:
    where: str
    pattern: str  # a full catalog key, or a regex when the code is an f-string

    @property
    def is_pattern(self) -> bool:
        return self.pattern.startswith("^")


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(BOT.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _error_classes() -> dict[str, str]:
    """Every UserError subclass in bot/ by name, with its catalog prefix."""
    found: dict[str, str] = {"UserError": UserError.prefix}
    pending = [(node, path) for path, tree in _sources() for node in ast.walk(tree)]
    changed = True
    while changed:
        changed = False
        for node, _ in pending:
            if not isinstance(node, ast.ClassDef) or node.name in found:
                continue
            parents = [b.id for b in node.bases if isinstance(b, ast.Name)]
            parent = next((p for p in parents if p in found), None)
            if parent is None:
                continue
            prefix = found[parent]
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "prefix" for t in statement.targets)
                    and isinstance(statement.value, ast.Constant)
                ):
                    prefix = str(statement.value.value)
            found[node.name] = prefix
            changed = True
    return found


def _code_pattern(node: ast.expr, prefix: str) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return prefix + node.value
    if isinstance(node, ast.JoinedStr):
        parts = [
            re.escape(str(v.value)) if isinstance(v, ast.Constant) else "[a-z0-9_]+"
            for v in node.values
        ]
        return "^" + re.escape(prefix) + "".join(parts) + "$"
    return None


def raised_codes() -> list[Raised]:
    classes = _error_classes()
    raised: list[Raised] = []
    for path, tree in _sources():
        for cls in ast.walk(tree):
            if isinstance(cls, ast.ClassDef) and cls.name in classes:
                for call in ast.walk(cls):  # a subclass that fixes its code: super().__init__("x")
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Attribute)
                        and call.func.attr == "__init__"
                        and call.args
                        and (pattern := _code_pattern(call.args[0], classes[cls.name]))
                    ):
                        raised.append(Raised(f"{path.name}:{call.lineno}", pattern))
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = call.func.id if isinstance(call.func, ast.Name) else None
            if name not in classes or not call.args:
                continue
            pattern = _code_pattern(call.args[0], classes[name])
            if pattern is not None:
                raised.append(Raised(f"{path.name}:{call.lineno}", pattern))
    for error in vars(rules.errors).values():  # GameError.of(problem) keeps the rules' code
        if isinstance(error, type) and issubclass(error, rules.RulesError):
            raised.append(Raised(f"rules.{error.__name__}", "errors." + error.code))
    raised += [Raised(f"Refusal.{code.name}", "errors." + code) for code in Refusal]
    return raised


def test_the_ast_reader_finds_the_codes_it_should() -> None:
    """Guard the reader itself: codes known to exist are among what it finds."""
    keys = {r.pattern for r in raised_codes()}
    assert {
        "errors.busy",  # GameError(Refusal.BUSY) in _seats.py
        "errors.unknown_set",  # UnknownSet's fixed code
        "errors.round_over",  # rules.RoundOver, raised through GameError.of
        "sets_admin.error.exists",  # SetsAdminError("exists", ...)
    } <= keys


def test_every_raised_code_has_english_and_ukrainian_text() -> None:
    messages = catalog().messages
    missing = []
    for raised in raised_codes():
        if raised.is_pattern:
            matched = [k for k in messages if re.match(raised.pattern, k)]
            if not matched or any(set(messages[k]) != LANGUAGES for k in matched):
                missing.append(f"{raised.where}: {raised.pattern}")
        elif set(messages.get(raised.pattern, {})) != LANGUAGES:
            missing.append(f"{raised.where}: {raised.pattern}")
    assert missing == []
