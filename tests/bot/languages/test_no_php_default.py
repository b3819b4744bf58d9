"""A JavaScript Set's numbers are JavaScript's on every face, even where a caller once
forgot the language: no signature defaults to PHP any more where a Set is known.

The player's stats chart was such a place: its off-chart label was written without the
game's language, so a JavaScript game's huge Score read `1.0E+25` (PHP) over its bar.
"""

from __future__ import annotations

import ast
import dataclasses

import pytest

from bot.charts import build_stats_figure, stats_input
from rules import CLASSIC, FormulaLanguage, GameSet
from tests.support.paths import ROOT
from tests.support.played import play

JS_CLASSIC = dataclasses.replace(
    CLASSIC, language=FormulaLanguage.JAVASCRIPT, functions=("Math.pow", "Math.sqrt")
)
HUGE = [("3489", [("Math.pow(3489,7)", 1e25)])] + [("3489", [("89+3+4+4", 100.0)])] * 6
"""Seven rounds that finish with a Score of about 1e25, far over the chart's top."""


def _off_chart_labels(game_set: GameSet) -> list[str]:
    record = play(HUGE, game_set=game_set)
    figure = build_stats_figure(stats_input([record], "111"), "en")
    return [
        text.get_text()
        for ax in figure.axes
        for text in ax.texts
        if text.get_gid() != "title" and "E" in text.get_text().upper()
    ]


@pytest.mark.parametrize(
    ("game_set", "label"), [(CLASSIC, "1.0E+25"), (JS_CLASSIC, "1e+25")], ids=["php", "js"]
)
def test_the_stats_chart_writes_a_huge_score_as_its_games_language(
    game_set: GameSet, label: str
) -> None:
    assert _off_chart_labels(game_set) == [label]


DEFAULTS_ALLOWED = {
    ("rules/game_set.py", "GameSet.language"): "a Set that names no language is PHP's",
    ("solver/grammar.py", "Grammar.language"): "a grammar of function names alone",
    ("solver/grammar.py", "for_functions"): "the same, built from names (tests, benches)",
    ("solver/finish.py", "write_shipped"): "the sample writer's command line, no Set",
}
"""The only places a language may default: where there is no Set to ask."""


def _php_defaults() -> set[tuple[str, str]]:
    found = set()
    for package in ("bot", "rules", "solver", "evaluator"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for scope in ast.walk(tree):
                for node in ast.iter_child_nodes(scope):
                    defaults: list[ast.expr | None] = []
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                        defaults = [*node.args.defaults, *node.args.kw_defaults]
                        name = node.name
                    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                        defaults, name = (
                            [node.value],
                            f"{getattr(scope, 'name', '')}.{node.target.id}",
                        )
                    if any(
                        d is not None and ast.unparse(d).endswith("FormulaLanguage.PHP")
                        for d in defaults
                    ):
                        found.add((str(path.relative_to(ROOT)), name))
    return found


def test_no_signature_defaults_to_php_where_a_set_is_known() -> None:
    """A forgotten language argument is a type error, not PHP's numbers printed silently."""
    assert _php_defaults() == set(DEFAULTS_ALLOWED)
