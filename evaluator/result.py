"""Value types for a formula's verdict: a PHP number, or a typed error.

Every failure, from a forbidden character to a crashed sandbox, folds into an
`EvalError` value with a stable `code`, so callers render one shape and never
see a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ErrorCode(StrEnum):
    FORBIDDEN = "forbidden"
    DIGITS = "digits"
    SYNTAX = "syntax"
    RUNTIME = "php"
    """The formula's language raised an error while running it (PHP's DivisionByZeroError,
    a JavaScript TypeError); its value stays "php", the code `eval --jsonl` has written."""
    PHP = "php"  # an alias of RUNTIME: PHP's name for it
    NOT_FINITE = "not_finite"
    TOO_LONG = "too_long"
    TIMEOUT = "timeout"
    SANDBOX = "sandbox"


@dataclass(frozen=True, slots=True)
class EvalError:
    """Why a formula has no Result. `position` is a 1-based column of the normalized text;
    `error_class` the class of the error the formula's language raised, as it names it
    (PHP's `DivisionByZeroError`, JavaScript's `SyntaxError`)."""

    code: ErrorCode
    message: str
    position: int | None = None
    text: str | None = None
    error_class: str | None = None
    params: tuple[tuple[str, str], ...] = ()

    @property
    def php_class(self) -> str | None:
        """The name `error_class` had while PHP was the only language (read-only)."""
        return self.error_class

    def as_dict(self) -> dict[str, object]:
        """`eval --jsonl`'s error object; its key for the class stays `php_class`, the
        name PHP's lines have always had, for every language."""
        out: dict[str, object] = {"code": self.code.value, "message": self.message}
        if self.error_class is not None:
            out["php_class"] = self.error_class
        if self.position is not None:
            out["position"] = self.position
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A Result as PHP computed it: a Python int for PHP int, float for PHP float."""

    formula: str
    value: int | float

    @property
    def php_type(self) -> str:
        return "float" if isinstance(self.value, float) else "int"


_new = object.__new__
_set_formula = Evaluation.__dict__["formula"].__set__
_set_value = Evaluation.__dict__["value"].__set__


def evaluation(formula: str, value: int | float) -> Evaluation:
    """`Evaluation(formula, value)` for the pool's answer path, once per formula: the same
    frozen object, its two slots set directly instead of through the dataclass's
    `__init__` (a Python frame and two `object.__setattr__` calls, a third of decoding
    an answer)."""
    made = _new(Evaluation)
    _set_formula(made, formula)
    _set_value(made, value)
    return made


Verdict = Evaluation | EvalError


class FormulaError(ValueError):
    """Raised by `check()`; carries the error value the player is shown."""

    def __init__(self, error: EvalError) -> None:
        super().__init__(error.message)
        self.error = error
