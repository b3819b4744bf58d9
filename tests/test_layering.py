"""Dependencies point one way: rules and evaluator never load discord, sqlmodel or docker,
and no module of the bot imports its way back to itself."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest


def test_rules_and_evaluator_import_nothing_of_the_bot() -> None:
    code = (
        "import sys, rules, evaluator, evaluator.check\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'discord', 'sqlmodel', 'sqlalchemy', 'docker', 'bot'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rules_import_nothing_of_the_evaluator() -> None:
    code = "import sys, rules\nprint(any(m.startswith('evaluator') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _bot_imports() -> dict[str, set[str]]:
    """Module -> the bot modules it imports (TYPE_CHECKING imports too: they are real)."""
    root = Path(__file__).resolve().parents[1]
    modules = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for path in (root / "bot").rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module in modules:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if sub in modules else node.module)
        graph[name] = edges - {name}
    return graph


def test_no_import_circle_in_bot() -> None:
    """A package's own __init__ may import its modules; nothing may import its way back."""
    graph = _bot_imports()
    circles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    circles.append(" -> ".join([*trail, nxt]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
    assert circles == []


def test_the_solver_imports_nothing_of_the_bot_the_evaluator_or_storage() -> None:
    code = (
        "import sys, solver, solver.solve, solver.search, solver.process, solver.practice\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'discord', 'sqlmodel', 'sqlalchemy', 'docker', 'bot', 'evaluator'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_holding_solver_results_does_not_load_numpy() -> None:
    """The bot keeps Solutions and talks to SolverProcess; the engine stays in its process."""
    code = "import sys, solver, solver.result, solver.process\nprint('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _package_imports(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, TYPE_CHECKING and function-level
    imports included (an import inside `if TYPE_CHECKING:` still ties the two modules)."""
    root = Path(__file__).resolve().parents[1]
    modules = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for path in (root / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module in modules:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if sub in modules else node.module)
        graph[name] = edges - {name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[str]:
    """Every way a module imports its way back to itself (a package's own __init__
    importing its modules is an edge like any other: a module importing its package's
    __init__ back closes a circle)."""
    circles = []
    for start in sorted(graph):
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    circles.append(" -> ".join([*trail, nxt]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
    return circles


@pytest.mark.parametrize("package", ["rules", "evaluator", "solver", "bot"])
def test_no_import_circle_among_a_packages_modules(package: str) -> None:
    graph = _package_imports(package)
    assert len(graph) > 3  # the package was found
    assert _circles(graph) == []


def test_the_circle_check_sees_a_circle_through_type_checking() -> None:
    """The solver's old circle (search -> toplevel under TYPE_CHECKING -> search) is one."""
    graph = {"solver.search": {"solver.toplevel"}, "solver.toplevel": {"solver.search"}}
    assert _circles(graph) == [
        "solver.search -> solver.toplevel -> solver.search",
        "solver.toplevel -> solver.search -> solver.toplevel",
    ]
