"""The formula grammar: operators with their precedence, the Set's functions, wrap forms, text.

Every node of a formula is a literal or a binary operation (an operator or a
two-argument function), optionally wrapped once by one of six forms: `x`,
`-x`, `f(x)`, `-f(x)`, `f(-x)`, `-f(-x)` with `f` a one-argument function of
the Set. A formula is written with the fewest parentheses its language needs to
parse it as the tree it is.

What the solver minimises after the Score is a formula's *cost* (RULES.md, "The best
answer": the most readable wins): fewest function calls, then fewest unary minuses, then
the fewest characters without spaces. The three add up over a formula's parts, so one
weighted sum orders them exactly (`CALL_COST`, `MINUS_COST`) and every table keeps it as
it kept the length before: an operation's and a wrap's `length` below are their costs.

Each language spells its own operations (`SYNTAX`, keyed by the Set's language):
PHP's `pow(` and JavaScript's `**` and `Math.pow(` are different `Op`s, so an
operation's text, precedence and value (`solver.semantics`) follow from the `Op`
itself. The precedence levels are JavaScript's and PHP's together: PHP has no
`**` operator, so nothing of PHP sits at `Level.POW` (a unary minus does, in
both: `-2**2` is not JavaScript, `(-2)**2` is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum

from rules.game_set import FormulaLanguage
from rules.languages import each_language, language_rules


class Level(IntEnum):
    """Precedence, loosest first. POW: `**` and a unary minus (a unary expression may be
    an operand anywhere but as the base of `**`); ATOM: a literal, call or parenthesis."""

    OR = 0
    XOR = 1
    AND = 2
    SHIFT = 3
    ADD = 4
    MUL = 5
    POW = 6
    ATOM = 7


MINUS_COST = 192
"""A unary minus outweighs every character a formula can have: 4 Digits, 3 binary
operations of at most 13 characters (`Math.hypot(,)`), 7 wraps of at most 14
(`-Math.round(-x)`) and two parentheses around and inside each: at most 169."""
CALL_COST = 15 * MINUS_COST
"""A function call outweighs every unary minus (at most 2 per node, 14) with every
character. At most 10 calls (7 wraps and 3 binary calls): every cost is below
10 * 2880 + 14 * 192 + 169 = 31,657, so the tables' int16 holds it."""


def formula_cost(text: str) -> int:
    """A written formula's cost, read from its text (what the tables' numbers count):
    each call (`sqrt(`, `Math.max(`), each unary minus (a `-` at the start or after
    anything but an operand's end), each character without spaces."""
    bare = text.replace(" ", "")
    calls = len(_CALL.findall(bare))
    minuses = len(_UNARY_MINUS.findall(bare))
    return calls * CALL_COST + minuses * MINUS_COST + len(bare)


_CALL = re.compile(r"[A-Za-z][A-Za-z.]*\(")
_UNARY_MINUS = re.compile(r"(?:^|(?<=[^0-9A-Za-z)]))-")


CONTEXTS = len(Level)
"""A context is the lowest Level a subformula may have without parentheses (0 = anywhere)."""


class Op(Enum):
    """Binary operations: each language's operators and two-argument functions."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    MOD = "%"
    AND = "&"
    OR = "|"
    XOR = "^"
    SHL = "<<"
    SHR = ">>"
    POW = "pow"
    INTDIV = "intdiv"
    FMOD = "fmod"
    MAX = "max"
    MIN = "min"

    @property
    def is_call(self) -> bool:
        return self.value.isalpha()

    @property
    def level(self) -> Level:
        return _LEVELS[self]

    @property
    def length(self) -> int:
        """Cost the operation adds to its operands': `+`, or a call's `pow(` `,` `)`."""
        return _length(self.value, self.is_call)

    def contexts(self) -> tuple[int, int]:
        """Contexts of the left and the right operand: PHP operators associate to the left."""
        return _contexts(self.level, self.is_call)

    def render(self, left: str, right: str) -> str:
        return _render(self.value, self.is_call, left, right)


class JsOp(Enum):
    """JavaScript's own binary operations (its `+ - * / % & | ^ << >>` are `Op`'s, spelt
    alike, with its numbers: solver.semantics)."""

    EXP = "**"
    USHR = ">>>"
    POW = "Math.pow"
    HYPOT = "Math.hypot"
    MAX = "Math.max"
    MIN = "Math.min"

    @property
    def is_call(self) -> bool:
        return self.value[0].isalpha()

    @property
    def level(self) -> Level:
        return _LEVELS[self]

    @property
    def length(self) -> int:
        return _length(self.value, self.is_call)

    def contexts(self) -> tuple[int, int]:
        """`**` associates to the right and its base is an atom (`(-2)**2`, `(2**3)**2`)."""
        if self is JsOp.EXP:
            return int(Level.ATOM), int(Level.POW)
        return _contexts(self.level, self.is_call)

    def render(self, left: str, right: str) -> str:
        return _render(self.value, self.is_call, left, right)


Operation = Op | JsOp


def _length(value: str, is_call: bool) -> int:
    return len(value) + 3 + CALL_COST if is_call else len(value)


def _contexts(level: Level, is_call: bool) -> tuple[int, int]:
    if is_call:
        return 0, 0
    return int(level), int(level) + 1


def _render(value: str, is_call: bool, left: str, right: str) -> str:
    if is_call:
        return f"{value}({left},{right})"
    # `3--4` is a decrement (PHP and JavaScript): a minus before a negative operand needs a
    # space.
    gap = " " if value == "-" and right.startswith("-") else ""
    return f"{left}{value}{gap}{right}"


_LEVELS: dict[Operation, Level] = {
    Op.ADD: Level.ADD,
    Op.SUB: Level.ADD,
    Op.MUL: Level.MUL,
    Op.DIV: Level.MUL,
    Op.MOD: Level.MUL,
    Op.AND: Level.AND,
    Op.OR: Level.OR,
    Op.XOR: Level.XOR,
    Op.SHL: Level.SHIFT,
    Op.SHR: Level.SHIFT,
    JsOp.EXP: Level.POW,
    JsOp.USHR: Level.SHIFT,
}
for _op in (*Op, *JsOp):
    _LEVELS.setdefault(_op, Level.ATOM)

OPERATORS: tuple[Op, ...] = (
    *(Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.MOD, Op.AND, Op.OR, Op.XOR, Op.SHL, Op.SHR),
)
"""PHP's operators, always in its grammar."""


class Func(Enum):
    """One-argument functions a Set may allow (`round` only in its one-argument form)."""

    SQRT = "sqrt"
    HEXDEC = "hexdec"
    OCTDEC = "octdec"
    BINDEC = "bindec"
    ABS = "abs"
    FLOOR = "floor"
    CEIL = "ceil"
    ROUND = "round"

    @property
    def reads_text(self) -> bool:
        """hexdec, octdec and bindec read the number's text: not monotone, not invertible."""
        return self in (Func.HEXDEC, Func.OCTDEC, Func.BINDEC)


class JsFunc(Enum):
    """JavaScript's one-argument Math functions a Set may allow."""

    SQRT = "Math.sqrt"
    CBRT = "Math.cbrt"
    ABS = "Math.abs"
    FLOOR = "Math.floor"
    CEIL = "Math.ceil"
    ROUND = "Math.round"
    TRUNC = "Math.trunc"
    SIGN = "Math.sign"

    @property
    def reads_text(self) -> bool:
        return False


Function = Func | JsFunc


class Shape(Enum):
    """Where the unary minus goes around a function: f(x), -f(x), f(-x), -f(-x)."""

    F = (False, False)
    NEG_F = (True, False)
    F_NEG = (False, True)
    NEG_F_NEG = (True, True)

    @property
    def outer(self) -> bool:
        return self.value[0]

    @property
    def inner(self) -> bool:
        return self.value[1]


@dataclass(frozen=True, slots=True)
class Wrap:
    """One of the wrap forms; `func` None is the bare unary minus `-x`."""

    func: Function | None
    shape: Shape = Shape.F

    @property
    def inner_context(self) -> int:
        """Context of the wrapped node: `-x` needs an atom, `f(x)` takes anything."""
        if self.func is None or self.shape.inner:
            return int(Level.ATOM)
        return 0

    @property
    def length(self) -> int:
        """Cost the form adds to its node's: the minuses, the call and their characters."""
        if self.func is None:
            return 1 + MINUS_COST
        minuses = self.shape.outer + self.shape.inner
        return len(self.func.value) + 2 + CALL_COST + minuses * (1 + MINUS_COST)

    def render(self, inner: str) -> str:
        if self.func is None:
            return f"-{inner}"
        text = f"-{inner}" if self.shape.inner else inner
        text = f"{self.func.value}({text})"
        return f"-{text}" if self.shape.outer else text


NEG = Wrap(None)


@dataclass(frozen=True, slots=True)
class Syntax:
    """A language's operations: operators always there, and the calls a Set may name.

    `dominated` calls are never written: another operation gives the same value with a
    shorter text (JavaScript's `Math.pow(x,y)` is `x**y` with 11 characters more, and
    `(x)**(y)` at most 6), so leaving them out changes no answer."""

    key: FormulaLanguage  # its language's registration (rules.languages)
    operators: tuple[Operation, ...]
    calls: tuple[Operation, ...]
    funcs: tuple[Function, ...]
    unary_level: Level = Level.ATOM
    """Where a unary minus sits: JavaScript's below `**` (`-2**2` is an error); PHP's
    grammar has no `**`, so its minus is an atom (as it always was here)."""
    dominated: frozenset[Operation] = frozenset()
    mirrored: tuple[tuple[Function, Function], ...] = ()
    """f(-x) is exactly -g(x) (or f itself is odd or even, g = f): with g in the grammar,
    `f(-x)` and `-f(-x)` are never written, `-g(x)` and `g(x)` are as long or shorter and
    sort first (`-` before a letter)."""

    def fold(self, name: str) -> str:
        """A function's name as the language compares it (its `FunctionRules`: PHP's `POW`
        is `pow`), asked of the registration rather than told again here."""
        return language_rules(self.key).functions.fold(name)


SYNTAX: Mapping[FormulaLanguage, Syntax] = each_language(
    Syntax(
        FormulaLanguage.PHP,
        OPERATORS,
        (Op.POW, Op.INTDIV, Op.FMOD, Op.MAX, Op.MIN),
        tuple(Func),
    ),
    Syntax(
        FormulaLanguage.JAVASCRIPT,
        (*OPERATORS, JsOp.EXP, JsOp.USHR),
        (JsOp.POW, JsOp.HYPOT, JsOp.MAX, JsOp.MIN),
        tuple(JsFunc),
        unary_level=Level.POW,
        dominated=frozenset({JsOp.POW}),
        mirrored=(
            *((JsFunc.FLOOR, JsFunc.CEIL), (JsFunc.CEIL, JsFunc.FLOOR)),
            *((JsFunc.TRUNC, JsFunc.TRUNC), (JsFunc.SIGN, JsFunc.SIGN), (JsFunc.ABS, JsFunc.ABS)),
        ),
    ),
)
"""Each language's operations, as its Sets name them (`LanguageRules.functions`)."""


@dataclass(frozen=True, slots=True)
class Grammar:
    """What a Set allows: the binary operations and the one-argument functions, in its
    language (whose numbers `solver.semantics` gives)."""

    ops: tuple[Operation, ...]
    funcs: tuple[Function, ...]
    language: FormulaLanguage = FormulaLanguage.PHP

    @classmethod
    def for_functions(
        cls, functions: Iterable[str], language: FormulaLanguage = FormulaLanguage.PHP
    ) -> Grammar:
        syntax = SYNTAX[language]
        names = {syntax.fold(name) for name in functions}
        calls = tuple(
            op
            for op in syntax.calls
            if syntax.fold(op.value) in names and op not in syntax.dominated
        )
        funcs = tuple(func for func in syntax.funcs if syntax.fold(func.value) in names)
        return cls(syntax.operators + calls, funcs, language)

    def wrap_level(self, wrap: Wrap) -> Level:
        """A call is an atom; a minus outside it is a unary expression (Syntax.unary_level)."""
        if wrap.func is None or wrap.shape.outer:
            return SYNTAX[self.language].unary_level
        return Level.ATOM

    def shapes(self, func: Function) -> tuple[Shape, ...]:
        """The shapes of `func` worth writing (all four unless Syntax.mirrored drops two)."""
        mirrors = dict(SYNTAX[self.language].mirrored)
        if mirrors.get(func) in self.funcs:
            return (Shape.F, Shape.NEG_F)
        return tuple(Shape)

    @property
    def wraps(self) -> tuple[Wrap, ...]:
        """Every form but the bare node. `f(-x)` of a text-reading function equals `f(x)`
        except for PHP_INT_MIN, whose negation is a float; values.py keeps that case."""
        forms = [NEG]
        for func in self.funcs:
            forms += [Wrap(func, shape) for shape in self.shapes(func)]
        return tuple(forms)


def literal_text_ok(text: str) -> bool:
    """Whether PHP parses the digits as an integer literal (`08` does not)."""
    return not (len(text) > 1 and text[0] == "0" and any(ch in "89" for ch in text))
