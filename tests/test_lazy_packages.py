"""`rules` and `solver` load a submodule when one of its names is first asked for (so
`formula-darts eval` does not load the game machines or the solver's process): every
exported name must still be the very object its module defines, whatever was imported
first (a submodule of the same name as a function once shadowed `rules.seal`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.paths import ROOT


@pytest.mark.parametrize("package", ["rules", "solver"])
@pytest.mark.parametrize("first", ["names", "modules"])
def test_every_exported_name_is_its_modules_object(package: str, first: str) -> None:
    probe = (
        "import importlib, pkgutil, sys\n"
        f"package = importlib.import_module({package!r})\n"
        "prefix = package.__name__ + '.'\n"
        "modules = [m.name for m in pkgutil.iter_modules(package.__path__, prefix)]\n"
        f"if {first!r} == 'modules':\n"
        "    for name in modules:\n"
        "        importlib.import_module(name)\n"
        "wrong = []\n"
        "for name in package.__all__:\n"
        "    value = getattr(package, name)\n"
        "    homes = [vars(sys.modules[m]) for m in modules if m in sys.modules]\n"
        "    found = any(home.get(name) is value for home in homes)\n"
        "    if not found or type(value).__name__ == 'module':\n"
        "        wrong.append(name)\n"
        "print(','.join(wrong))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == ""


def test_an_unknown_name_is_an_attribute_error() -> None:
    import rules
    import solver

    for package in (rules, solver):
        with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
            _ = package.nothing_here  # type: ignore[attr-defined]
