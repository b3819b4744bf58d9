"""YAML that cannot blow up: PyYAML's safe loader without aliases, with a depth cap,
and values it cannot build reported instead of raised.

A Sets file comes from any server admin. A 469-byte alias bomb expands to
billions of nodes and 5,000 nested `[` overflow the composer's recursion, so
both are refused while composing, before a single Python object is built.

YAML 1.1 also reads plain scalars as typed values, and building some of them
raises outside PyYAML's errors: `2001-13-45` or `2001-02-30` look like dates
and are not, `!!int x` is no number, and an integer of thousands of digits
(decimal, hex, binary or base 60, `1:59:59:…`) costs quadratic time to build
and cannot even be printed (Python's 4,300-digit limit). Each such scalar
becomes an `UnreadableValue` problem with its line, column and a code, and
all of them are reported together once the document is read.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

MAX_DEPTH = 8
"""YAML nodes deep: `sets:` › a Set › its fields › the functions list › a name is 5."""
MAX_NUMBER = 100
"""Characters of an integer as written; every numeric field of a Set fits in 7."""

_INT = "tag:yaml.org,2002:int"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_SHOWN = 40
_BUILD_ERRORS = (ArithmeticError, LookupError, ValueError, TypeError, AttributeError)
"""What PyYAML's safe constructors raise on a scalar they cannot build (not YAMLError)."""


@dataclass(frozen=True, slots=True)
class UnreadableValue:
    """A scalar that could not become a value: `code` says why, for translation.

    Codes: `yaml_bad_date` (reads as a date or time that does not exist),
    `yaml_number_too_long` (an integer written with more than MAX_NUMBER
    characters), `yaml_bad_value` (an explicit tag its text does not fit).
    """

    code: str
    line: int
    column: int
    value: str
    tag: str
    detail: str

    @property
    def message(self) -> str:
        """The English text, with the line and column."""
        where = f"line {self.line}, column {self.column}"
        why = f" ({self.detail})" if self.detail else ""
        if self.code == "yaml_bad_date":
            return (
                f"{where}: {self.value} reads as a date or time, but there is no such one"
                f"{why}; put it in quotes to keep it as text"
            )
        if self.code == "yaml_number_too_long":
            return f"{where}: a number of {self.detail} characters; at most {MAX_NUMBER}"
        return f"{where}: {self.value} cannot be read as {self.tag}{why}"


class UnreadableValues(yaml.YAMLError):
    """Every scalar of a document that could not be built, in document order."""

    def __init__(self, values: list[UnreadableValue]) -> None:
        super().__init__("; ".join(v.message for v in values))
        self.values = values


class _Placeholder:
    """Stands for an unreadable scalar while the rest is read; unique, so hashable as a key."""

    __slots__ = ()


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _short_tag(tag: str) -> str:
    return "!!" + tag.rsplit(":", 1)[-1] if tag.startswith("tag:yaml.org,2002:") else tag


class _SetsLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases and nesting past MAX_DEPTH as it composes,
    so neither a billion laughs nor 5,000 `[` ever becomes a Python object, and
    collecting scalars it cannot build instead of raising on the first."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self.unreadable: list[UnreadableValue] = []

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        mark = event.start_mark if isinstance(event.start_mark, yaml.Mark) else None
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not allowed in a Sets file", mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested deeper than {MAX_DEPTH} levels", mark
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_object(self, node: yaml.Node, deep: bool = False) -> object:
        if not isinstance(node, yaml.ScalarNode):
            return super().construct_object(node, deep)
        text = str(node.value)
        if node.tag == _INT and len(text) > MAX_NUMBER:
            return self._unreadable(node, "yaml_number_too_long", str(len(text)))
        try:
            return super().construct_object(node, deep)
        except _BUILD_ERRORS as exc:
            self.recursive_objects.pop(node, None)
            code = "yaml_bad_date" if node.tag == _TIMESTAMP else "yaml_bad_value"
            detail = _shown(str(exc)) if isinstance(exc, ValueError | ArithmeticError) else ""
            return self._unreadable(node, code, detail)

    def _unreadable(self, node: yaml.Node, code: str, detail: str) -> _Placeholder:
        mark = node.start_mark
        self.unreadable.append(
            UnreadableValue(
                code,
                mark.line + 1,
                mark.column + 1,
                _shown(str(node.value)),
                _short_tag(str(node.tag)),
                detail,
            )
        )
        placeholder = _Placeholder()
        self.constructed_objects[node] = placeholder
        return placeholder


def load_bounded(text: str) -> object:
    """`yaml.safe_load` of `text`, refusing aliases and depth past MAX_DEPTH (yaml.YAMLError);
    scalars it cannot build are raised together, once it is read, as UnreadableValues."""
    loader = _SetsLoader(text)
    try:
        document = loader.get_single_data()
    finally:
        loader.dispose()
    if loader.unreadable:
        raise UnreadableValues(sorted(loader.unreadable, key=lambda v: (v.line, v.column)))
    return document
