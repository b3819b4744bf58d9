"""Each language's numbers for the search, chosen by the grammar's language (a registry).

The tables, the top-level search and the text writer are the same for every language;
what a value is differs: PHP's ints and floats with its overflow and errors (values.py),
or JavaScript's doubles (js_values.py). The search asks the `Semantics` of its grammar
for every value it computes and never which language it is. A third language adds its
value module and its class here (and its spelling in grammar.SYNTAX), keyed through
`rules.languages.each_language`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol

import numpy as np

from rules.game_set import FormulaLanguage
from rules.languages import each_language
from solver import inverse, js_inverse, js_values
from solver import values as V
from solver.grammar import Func, Function, Grammar, JsOp, Op, Operation, Wrap, literal_text_ok
from solver.objective import Intervals
from solver.php import literal as php_literal

Binary = Callable[[V.Values, V.Values], tuple[V.Values, V.Bools]]
KeyOf = Callable[[V.Floats], V.Ints]


class Semantics(Protocol):
    key: FormulaLanguage  # its language's registration (rules.languages)

    def binary(self, op: Operation) -> Binary:
        """op over two columns: the results and where the language has one (no error)."""
        ...

    def apply_funcs(self, funcs: Sequence[Function], a: V.Values) -> dict[Function, V.Values]: ...

    def apply_wrap(self, wrap: Wrap, a: V.Values) -> V.Values: ...

    def neg(self, a: V.Values) -> V.Values: ...

    def literal(self, text: str) -> V.Values | None:
        """The literal of these digits (None: the language does not parse it)."""
        ...

    def plan(self, op: Operation, left: V.Values, right: V.Values) -> inverse.Plan | None:
        """How the top level searches op over one split (None: list every pair)."""
        ...

    def result_codes(self, a: V.Values) -> V.Ints:
        """A small int per element, equal exactly for values that are the same Result."""
        ...

    def bounds(
        self, op: Operation, rows_left: bool, rows: V.Values, lo: V.Floats, hi: V.Floats
    ) -> list[Intervals]:
        """For a plan's INVERT rows: intervals of the other operand that can land in [lo, hi]."""
        ...

    def odd_columns(self, op: Operation, other: V.Values) -> V.Ints:
        """Other-operand entries the bounds do not cover: listed apart."""
        ...

    def bucket_keys(self, op: Operation, rows_left: bool, other: V.Values) -> V.Ints:
        """For a plan's BUCKET rows: a key of the other operand that fixes the result."""
        ...

    def useful_wrap(self, func: Function, argument: V.Values) -> V.Bools | None:
        """Where func(argument) can be the shortest text of its value in some context (None:
        everywhere); the rest is dropped from the tables as longer than another entry."""
        ...

    def picks_an_operand(self, op: Operation) -> bool:
        """Whether op's result is the larger (or smaller) of its operands, so it is listed
        from the sorted operands (listing.extreme_block) instead of every pair."""
        ...

    def class_keys(self, op: Operation) -> tuple[KeyOf, KeyOf] | None:
        """Keys of the left and the right operand that together fix op's result, so op is
        listed once per pair of keys at every split (None: planned by `plan`)."""
        ...


class PhpNumbers:
    """PHP 8: ints that overflow to floats, errors where PHP throws (solver.values)."""

    key = FormulaLanguage.PHP

    def binary(self, op: Operation) -> Binary:
        assert isinstance(op, Op), "a PHP grammar holds PHP's operations only"
        return V.BINARY[op]

    def apply_funcs(self, funcs: Sequence[Function], a: V.Values) -> dict[Function, V.Values]:
        php_funcs = [f for f in funcs if isinstance(f, Func)]
        assert len(php_funcs) == len(funcs), "a PHP grammar holds PHP's functions only"
        out: dict[Function, V.Values] = {}
        for func, values in V.apply_funcs(php_funcs, a).items():
            out[func] = values
        return out

    def apply_wrap(self, wrap: Wrap, a: V.Values) -> V.Values:
        return V.apply_wrap(wrap, a)

    def neg(self, a: V.Values) -> V.Values:
        return V.neg(a)

    def literal(self, text: str) -> V.Values | None:
        if not literal_text_ok(text):
            return None
        return V.of_ints(np.array([php_literal(text)], np.int64))

    def plan(self, op: Operation, left: V.Values, right: V.Values) -> inverse.Plan | None:
        return inverse.plan(op, left, right)

    def result_codes(self, a: V.Values) -> V.Ints:
        return V.identity_codes(a)

    def bounds(
        self, op: Operation, rows_left: bool, rows: V.Values, lo: V.Floats, hi: V.Floats
    ) -> list[Intervals]:
        return inverse.bounds(op, rows_left, rows, lo, hi)

    def odd_columns(self, op: Operation, other: V.Values) -> V.Ints:
        return inverse.odd_columns(op, other)

    def bucket_keys(self, op: Operation, rows_left: bool, other: V.Values) -> V.Ints:
        return inverse.bucket_keys(op, rows_left, other)

    def useful_wrap(self, func: Function, argument: V.Values) -> V.Bools | None:
        return None

    def picks_an_operand(self, op: Operation) -> bool:
        return False

    def class_keys(self, op: Operation) -> tuple[KeyOf, KeyOf] | None:
        return None


class JsNumbers:
    """JavaScript: doubles only (solver.js_values); every operation inverted along a
    single digit's side (solver.js_inverse)."""

    key = FormulaLanguage.JAVASCRIPT

    def binary(self, op: Operation) -> Binary:
        return js_values.BINARY[op]

    def apply_funcs(self, funcs: Sequence[Function], a: V.Values) -> dict[Function, V.Values]:
        return js_values.apply_funcs(funcs, a)

    def apply_wrap(self, wrap: Wrap, a: V.Values) -> V.Values:
        return js_values.apply_wrap(wrap, a)

    def neg(self, a: V.Values) -> V.Values:
        return js_values.neg(a)

    def literal(self, text: str) -> V.Values | None:
        return V.doubles(np.array([js_values.literal(text)], np.float64))

    def plan(self, op: Operation, left: V.Values, right: V.Values) -> inverse.Plan | None:
        return js_inverse.plan(op, left, right)

    def result_codes(self, a: V.Values) -> V.Ints:
        return js_values.result_codes(a)

    def bounds(
        self, op: Operation, rows_left: bool, rows: V.Values, lo: V.Floats, hi: V.Floats
    ) -> list[Intervals]:
        return js_inverse.bounds(op, rows_left, rows, lo, hi)

    def odd_columns(self, op: Operation, other: V.Values) -> V.Ints:
        return js_inverse.odd_columns(op, other)

    def bucket_keys(self, op: Operation, rows_left: bool, other: V.Values) -> V.Ints:
        return js_inverse.bucket_keys(op, rows_left, other)

    def useful_wrap(self, func: Function, argument: V.Values) -> V.Bools | None:
        return js_values.useful_wrap(func, argument)

    def picks_an_operand(self, op: Operation) -> bool:
        return op in (JsOp.MAX, JsOp.MIN)

    def class_keys(self, op: Operation) -> tuple[KeyOf, KeyOf] | None:
        return js_inverse.class_keys(op)


SEMANTICS: Final[Mapping[FormulaLanguage, Semantics]] = each_language(PhpNumbers(), JsNumbers())


def semantics(grammar: Grammar) -> Semantics:
    """The numbers of the grammar's language."""
    return SEMANTICS[grammar.language]
