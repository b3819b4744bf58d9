"""The formula grammar: operators with their precedence, the Set's functions, wrap forms, text.

Every node of a formula is a literal or a binary operation (an operator or a
two-argument function), optionally wrapped once by one of six forms: `x`,
`-x`, `f(x)`, `-f(x)`, `f(-x)`, `-f(-x)` with `f` a one-argument function of
the Set. A length counts characters without spaces; a formula is written with
the fewest parentheses its language needs to parse it as the tree it is.

Each language spells its own operations (`SYNTAX`, keyed by the Set's language):
PHP's `pow(` and JavaScript's `**` and `Math.pow(` are different `Op`s, so an
operation's text, precedence and value (`solver.semantics`) follow from the `Op`
itself. The precedence levels are JavaScript's and PHP's together: PHP has no
`**` operator, so nothing of PHP sits at `Level.POW` (a unary minus does, in
both: `-2**2` is not JavaScript, `(-2)**2` is).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from rules.game_set import FormulaLanguage


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
    # JavaScript's own (its `+ - * / % & | ^ << >>` are the ones above, in its numbers)
    EXP = "**"
    USHR = ">>>"
    JS_POW = "Math.pow"
    HYPOT = "Math.hypot"
    JS_MAX = "Math.max"
    JS_MIN = "Math.min"

    @property
    def is_call(self) -> bool:
        return self.value[0].isalpha()

    @property
    def level(self) -> Level:
        return _LEVELS[self]

    @property
    def length(self) -> int:
        """Characters the operation adds around its operands: `+`, or `pow(` `,` `)`."""
        return len(self.value) + 3 if self.is_call else len(self.value)

    def contexts(self) -> tuple[int, int]:
        """Contexts of the left and the right operand: operators associate to the left but
        `**`, whose base is an atom (`(-2)**2`, `(2**3)**2`) and whose exponent is not."""
        if self.is_call:
            return 0, 0
        if self is Op.EXP:
            return int(Level.ATOM), int(Level.POW)
        return int(self.level), int(self.level) + 1

    def render(self, left: str, right: str) -> str:
        if self.is_call:
            return f"{self.value}({left},{right})"
        # `3--4` is a decrement (PHP and JavaScript): a minus before a negative operand
        # needs a space.
        gap = " " if self is Op.SUB and right.startswith("-") else ""
        return f"{left}{self.value}{gap}{right}"


_LEVELS = {
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
    Op.EXP: Level.POW,
    Op.USHR: Level.SHIFT,
}
for _op in Op:
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
    JS_SQRT = "Math.sqrt"
    CBRT = "Math.cbrt"
    JS_ABS = "Math.abs"
    JS_FLOOR = "Math.floor"
    JS_CEIL = "Math.ceil"
    JS_ROUND = "Math.round"
    TRUNC = "Math.trunc"
    SIGN = "Math.sign"

    @property
    def reads_text(self) -> bool:
        """hexdec, octdec and bindec read the number's text: not monotone, not invertible."""
        return self in (Func.HEXDEC, Func.OCTDEC, Func.BINDEC)


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

    func: Func | None
    shape: Shape = Shape.F

    @property
    def inner_context(self) -> int:
        """Context of the wrapped node: `-x` needs an atom, `f(x)` takes anything."""
        if self.func is None or self.shape.inner:
            return int(Level.ATOM)
        return 0

    @property
    def level(self) -> Level:
        """A minus outside makes a unary expression; a call is an atom."""
        return Level.POW if self.func is None or self.shape.outer else Level.ATOM

    @property
    def length(self) -> int:
        if self.func is None:
            return 1
        return len(self.func.value) + 2 + self.shape.outer + self.shape.inner

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

    operators: tuple[Op, ...]
    calls: tuple[Op, ...]
    funcs: tuple[Func, ...]
    case_insensitive: bool
    dominated: frozenset[Op] = frozenset()
    mirrored: tuple[tuple[Func, Func], ...] = ()
    """f(-x) is exactly -g(x) (or f itself is odd or even, g = f): with g in the grammar,
    `f(-x)` and `-f(-x)` are never written, `-g(x)` and `g(x)` are as long or shorter and
    sort first (`-` before a letter)."""

    def fold(self, name: str) -> str:
        return name.lower() if self.case_insensitive else name


SYNTAX: dict[FormulaLanguage, Syntax] = {
    FormulaLanguage.PHP: Syntax(
        OPERATORS,
        (Op.POW, Op.INTDIV, Op.FMOD, Op.MAX, Op.MIN),
        tuple(Func)[:8],
        case_insensitive=True,
    ),
    FormulaLanguage.JAVASCRIPT: Syntax(
        (*OPERATORS, Op.EXP, Op.USHR),
        (Op.JS_POW, Op.HYPOT, Op.JS_MAX, Op.JS_MIN),
        tuple(Func)[8:],
        case_insensitive=False,
        dominated=frozenset({Op.JS_POW}),
        mirrored=(
            *((Func.JS_FLOOR, Func.JS_CEIL), (Func.JS_CEIL, Func.JS_FLOOR)),
            *((Func.TRUNC, Func.TRUNC), (Func.SIGN, Func.SIGN), (Func.JS_ABS, Func.JS_ABS)),
        ),
    ),
}
"""Each language's operations, as its Sets name them (rules.game_set.LANGUAGE_FUNCTIONS)."""


@dataclass(frozen=True, slots=True)
class Grammar:
    """What a Set allows: the binary operations and the one-argument functions, in its
    language (whose numbers `solver.semantics` gives)."""

    ops: tuple[Op, ...]
    funcs: tuple[Func, ...]
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

    def shapes(self, func: Func) -> tuple[Shape, ...]:
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
