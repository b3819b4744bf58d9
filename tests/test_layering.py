"""Dependencies point one way: rules and evaluator never load discord, sqlmodel or docker,
and no module of the bot imports its way back to itself; the evaluator's and the
solver's own commands (`evaluator.cli`, `solver.cli`) import nothing of the bot either."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path


def test_rules_and_evaluator_import_nothing_of_the_bot() -> None:
    code = (
        "import sys, rules, evaluator, evaluator.check, evaluator.cli\n"
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
        "import solver.cli\n"
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
