"""A formula language is registered once: its pure rules in `rules.languages`, and each
layer's part (the evaluator's bundle, the solver's semantics and syntax, the bot's texts)
keyed through `each_language`, never by a dict of the layer's own keyed by
`FormulaLanguage` (a third language would be left out of it silently)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

import pytest

from bot.i18n._languages import TEXTS
from evaluator.language import LANGUAGES
from rules.game_set import FormulaLanguage
from rules.languages import LANGUAGE_RULES, each_language
from solver.finish import SHIPPED_FILES
from solver.grammar import SYNTAX
from solver.semantics import SEMANTICS
from tests.support.paths import ROOT

PACKAGES = ("bot", "rules", "solver", "evaluator")
REGISTRATION = ("rules/languages.py", "LANGUAGE_RULES")
"""The one table keyed by hand: every other is built by `each_language`."""
PARTS: dict[str, Mapping[FormulaLanguage, object]] = {
    "evaluator.language.LANGUAGES": LANGUAGES,
    "solver.semantics.SEMANTICS": SEMANTICS,
    "solver.grammar.SYNTAX": SYNTAX,
    "solver.finish.SHIPPED_FILES": SHIPPED_FILES,
    "bot.i18n._languages.TEXTS": TEXTS,
}


def _keyed_by_language(node: ast.expr | None) -> bool:
    """A dict display with a `FormulaLanguage.X` key, or a type keyed by FormulaLanguage."""
    if node is None:
        return False
    for inner in ast.walk(node):
        if isinstance(inner, ast.Dict) and any(
            key is not None and ast.unparse(key).split(".")[-2:-1] == ["FormulaLanguage"]
            for key in inner.keys
        ):
            return True
        if isinstance(inner, ast.Subscript) and ast.unparse(inner.slice).split(",")[0].endswith(
            "FormulaLanguage"
        ):
            return True
    return False


def _language_tables() -> set[tuple[str, str]]:
    """Module-level tables keyed by FormulaLanguage and not built by `each_language`."""
    found = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if isinstance(node, ast.AnnAssign | ast.Assign):
                    value = node.value
                    built = isinstance(value, ast.Call) and ast.unparse(value.func).endswith(
                        "each_language"
                    )
                    target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
                    annotation = node.annotation if isinstance(node, ast.AnnAssign) else None
                    if not built and (_keyed_by_language(value) or _keyed_by_language(annotation)):
                        found.add((str(path.relative_to(ROOT)), ast.unparse(target)))
    return found


def test_no_table_keyed_by_language_beside_the_registration() -> None:
    assert _language_tables() == {REGISTRATION}


def test_the_reader_finds_a_table_keyed_by_hand() -> None:
    tree = ast.parse("T: dict[FormulaLanguage, int] = {FormulaLanguage.PHP: 1}").body[0]
    assert isinstance(tree, ast.AnnAssign)
    assert _keyed_by_language(tree.value) and _keyed_by_language(tree.annotation)


@pytest.mark.parametrize("name", sorted(PARTS))
def test_every_layers_part_covers_every_registered_language(name: str) -> None:
    table = PARTS[name]
    assert set(table) == set(LANGUAGE_RULES) == set(FormulaLanguage)
    assert all(getattr(part, "key", None) is key for key, part in table.items())


def test_the_evaluators_bundle_holds_the_registered_rules() -> None:
    for key, bundle in LANGUAGES.items():
        assert bundle.rules is LANGUAGE_RULES[key]


def test_a_layer_missing_a_language_fails_at_import() -> None:
    with pytest.raises(ValueError, match="one part per language"):
        each_language(SEMANTICS[FormulaLanguage.PHP])
    with pytest.raises(ValueError, match="one part per language"):
        each_language(*SEMANTICS.values(), SEMANTICS[FormulaLanguage.PHP])
