"""The formula grammar: operators with PHP's precedence, the Set's functions, wrap forms, text.

Every node of a formula is a literal or a binary operation (an operator or a
two-argument function), optionally wrapped once by one of six forms: `x`,
`-x`, `f(x)`, `-f(x)`, `f(-x)`, `-f(-x)` with `f` a one-argument function of
the Set. A length counts characters without spaces; a formula is written with
the fewest parentheses PHP needs to parse it as the tree it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum


class Level(IntEnum):
    """PHP precedence, loosest first; ATOM is a literal, call, parenthesis or unary minus."""

    OR = 0
    XOR = 1
    AND = 2
    SHIFT = 3
    ADD = 4
    MUL = 5
    ATOM = 6


CONTEXTS = len(Level)
"""A context is the lowest Level a subformula may have without parentheses (0 = anywhere)."""


class Op(Enum):
    """Binary operations: PHP operators and two-argument functions."""

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
        """Characters the operation adds around its operands: `+`, or `pow(` `,` `)`."""
        return len(self.value) + 3 if self.is_call else len(self.value)

    def contexts(self) -> tuple[int, int]:
        """Contexts of the left and the right operand: PHP operators associate to the left."""
        if self.is_call:
            return 0, 0
        return int(self.level), int(self.level) + 1

    def render(self, left: str, right: str) -> str:
        if self.is_call:
            return f"{self.value}({left},{right})"
        # `3--4` is PHP's decrement: a minus before a negative operand needs a space.
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
}
for _op in Op:
    _LEVELS.setdefault(_op, Level.ATOM)

OPERATORS: tuple[Op, ...] = tuple(op for op in Op if not op.is_call)


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
class Grammar:
    """What a Set allows: the binary operations and the one-argument functions."""

    ops: tuple[Op, ...]
    funcs: tuple[Func, ...]

    @classmethod
    def for_functions(cls, functions: Iterable[str]) -> Grammar:
        names = {name.lower() for name in functions}
        ops = OPERATORS + tuple(op for op in Op if op.is_call and op.value in names)
        funcs = tuple(func for func in Func if func.value in names)
        return cls(ops, funcs)

    @property
    def wraps(self) -> tuple[Wrap, ...]:
        """Every form but the bare node. `f(-x)` of a text-reading function equals `f(x)`
        except for PHP_INT_MIN, whose negation is a float; values.py keeps that case."""
        forms = [NEG]
        for func in self.funcs:
            forms += [Wrap(func, shape) for shape in Shape]
        return tuple(forms)


def literal_text_ok(text: str) -> bool:
    """Whether PHP parses the digits as an integer literal (`08` does not)."""
    return not (len(text) > 1 and text[0] == "0" and any(ch in "89" for ch in text))
