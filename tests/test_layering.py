"""Dependencies point one way: rules and evaluator never load discord, sqlmodel or docker."""

from __future__ import annotations

import subprocess
import sys


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
