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
