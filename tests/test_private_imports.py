"""A `_`-prefixed module or name is private to the package (or module) it lives in: no
module of another package imports it. What one package offers another is in its
`__init__` or a public module, so a package can rearrange its private modules freely
(issue 22: "no imports of another package's private modules")."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "evaluator", "solver", "rules")

WAITING: set[tuple[str, str]] = set()
"""Crossings known and left for now (none left: `bot.app` takes INVALID_LIMIT and
response_trace from `bot.games`). Each entry must still be real, so the list only shrinks."""


def _module_name(path: Path, root: Path) -> tuple[str, list[str]]:
    """The module's dotted name and the package it is in."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def _imported(node: ast.Import | ast.ImportFrom, package: list[str]) -> list[str]:
    """Every dotted name an import statement reaches (a `from` import: its module and
    each name under it), relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module.split(".") if node.module else []
    if node.level:
        base = package[: len(package) - node.level + 1] + base
    module = ".".join(base)
    return [module, *(f"{module}.{alias.name}" for alias in node.names)]


def _private_owner(dotted: str) -> str | None:
    """The package or module a name's first private part belongs to (`bot.storage` for
    `bot.storage._engine.upgrade`), or None when nothing in it is private."""
    parts = dotted.split(".")
    for index, part in enumerate(parts[1:], start=1):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:index])
    return None


def _private(dotted: str) -> str:
    """`dotted` up to and including its first private part."""
    parts = dotted.split(".")
    owner = _private_owner(dotted) or dotted
    return ".".join(parts[: owner.count(".") + 2])


def crossings(root: Path = ROOT) -> set[tuple[str, str]]:
    """(importing module, private module or name) for each import of a private part from
    outside its owner; imports inside functions and TYPE_CHECKING blocks count too."""
    found: set[tuple[str, str]] = set()
    for top in PACKAGES:
        for path in sorted((root / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            name, package = _module_name(path, root)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                for dotted in _imported(node, package):
                    owner = _private_owner(dotted)
                    if owner is not None and not (name == owner or name.startswith(owner + ".")):
                        found.add((name, _private(dotted)))
    return found


def test_no_package_imports_another_packages_private_modules() -> None:
    assert crossings() - WAITING == set()


def test_the_waiting_list_names_only_crossings_still_there() -> None:
    assert crossings() >= WAITING


def test_the_check_sees_a_crossing(tmp_path: Path) -> None:
    """The walker itself: a private module reached from another package, by a plain, a
    `from` and a function-local import, is found; a package's own private module is not."""
    for top in PACKAGES:
        (tmp_path / top).mkdir()
    (tmp_path / "evaluator" / "_inner.py").write_text("X = 1\n")
    (tmp_path / "evaluator" / "own.py").write_text("from evaluator._inner import X\n")
    (tmp_path / "solver" / "a.py").write_text("import evaluator._inner\n")
    (tmp_path / "solver" / "b.py").write_text("from evaluator import _inner\n")
    (tmp_path / "bot" / "c.py").write_text("def f():\n    from evaluator._inner import X\n")
    (tmp_path / "rules" / "d.py").write_text("from evaluator.check import _plain\n")
    assert crossings(tmp_path) == {
        ("solver.a", "evaluator._inner"),
        ("solver.b", "evaluator._inner"),
        ("bot.c", "evaluator._inner"),
        ("rules.d", "evaluator.check._plain"),
    }
