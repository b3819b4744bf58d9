"""What a formula's error texts need to know of its Set's language: the bot's part of each
registered language (`rules.languages.each_language`).

The catalog keys of `eval.*` are PHP's (the first language, unchanged); another
language names a namespace whose keys replace the shared ones where its words
differ (`eval.js.timeout` for `eval.timeout`), a reader of its engine's own
messages, the refused tokens that get their own text, and how its not-finite
values are named. `describe_eval_error` asks this registry and nothing else
about the language (DESIGN.md, "Languages").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.i18n._node import read_node_message
from bot.i18n._php import read_php_message
from rules.game_set import FormulaLanguage
from rules.languages import each_language

Reader = Callable[[str], tuple[str, dict[str, str]] | None]


@dataclass(frozen=True, slots=True)
class FormulaTexts:
    """One language's part of the formula's texts (its errors, its example, its rules).

    `overrides`: the catalog namespace whose keys replace `eval.<rest>` ("" for none);
    `engine`: the key of the engine's message when no reading fits (`eval.php`);
    `read`: the engine's message as a key and parameters (`_php`, `_node`);
    `refusals`: the namespace of refused tokens' own texts; `operators` / `openers`:
    which tokens have one, by the token (whole) or by how it begins, and `cast` the
    text of a token in parentheses (PHP's `(int)`); `values`: the names its engine
    gives a non-finite Result, longest
    first (`-INF` before `INF`), the first one found in the message being it;
    `example`: a call of one of its functions, for the answer form's placeholder;
    `rules`: the name of its `/rules` section of surprises (`rules_text/<locale>.<rules>.md`)."""

    key: FormulaLanguage  # its language's registration (rules.languages)
    overrides: str
    engine: str
    read: Reader
    refusals: str
    operators: Mapping[str, str]
    openers: tuple[tuple[str, str], ...]
    cast: str | None
    values: tuple[str, ...]
    example: str
    rules: str

    def not_finite(self, message: str) -> str:
        """The engine's name of a non-finite Result, as its message wrote it."""
        for value in self.values:
            if value.upper() in message.upper():
                return value
        return self.values[-1]


_COMPARISONS = ("<=", ">=", "==", "!=", "<>", "<=>", "===", "!==")
_ASSIGNMENTS = ("=", "+=", "-=", "*=", "**=", "/=", ".=", "%=", "<<=", ">>=", "&=", "|=", "^=")
PHP_OPERATORS: Final = {
    "**": "operator.power", "//": "operator.comment", "/*": "operator.comment",
    "--": "operator.twice", "++": "operator.twice",
    "&&": "operator.boolean", "||": "operator.boolean",
    **dict.fromkeys(_COMPARISONS, "operator.comparison"),
    **dict.fromkeys(_ASSIGNMENTS, "operator.assignment"),
}  # fmt: skip
PHP_OPENERS: Final = (
    ("`", "opener.shell"), ("$", "opener.variable"), ("#", "opener.comment"),
    ("'", "opener.string"), ('"', "opener.string"), ("b'", "opener.string"),
    ('b"', "opener.string"), ("?>", "opener.closing_tag"),
)  # fmt: skip

_JS_COMPARISONS = ("<", ">", "<=", ">=", "==", "!=", "===", "!==")
_JS_ASSIGNMENTS = (
    *("=", "+=", "-=", "*=", "**=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^="),
    *("&&=", "||=", "??="),
)
JS_OPERATORS: Final = {
    "--": "twice", "++": "twice", "//": "comment", "/*": "comment", "<!--": "comment",
    "&&": "logical", "||": "logical", "??": "logical", "!": "logical",
    "'": "string", '"': "string", "`": "template", "/": "regex",
    "(": "call", ",": "comma", ".": "property", "?": "conditional", ":": "conditional",
    "~": "bitwise_not", ";": "statement",
    **dict.fromkeys(_JS_COMPARISONS, "comparison"),
    **dict.fromkeys(_JS_ASSIGNMENTS, "assignment"),
}  # fmt: skip
"""A JavaScript Set's refused tokens with their own text (`eval.js.forbidden.<kind>`)."""

TEXTS: Final[Mapping[FormulaLanguage, FormulaTexts]] = each_language(
    FormulaTexts(
        FormulaLanguage.PHP, "", "eval.php", read_php_message, "eval.forbidden.", PHP_OPERATORS,
        PHP_OPENERS, "operator.cast", ("-INF", "INF", "NAN"), "pow()", "php",
    ),
    FormulaTexts(
        FormulaLanguage.JAVASCRIPT, "eval.js.", "eval.js.error", read_node_message,
        "eval.js.forbidden.", JS_OPERATORS, (), None, ("-Infinity", "Infinity", "NaN"),
        "Math.sqrt()", "javascript",
    ),
)  # fmt: skip
"""Each language's texts, keyed through its registration (`rules.languages`)."""


def texts(lang: FormulaLanguage) -> FormulaTexts:
    return TEXTS[lang]
