"""YAML that cannot blow up: PyYAML's safe loader without aliases, with a depth cap.

A Sets file comes from any server admin. A 469-byte alias bomb expands to
billions of nodes and 5,000 nested `[` overflow the composer's recursion, so
both are refused while composing, before a single Python object is built.
"""

from __future__ import annotations

import yaml

MAX_DEPTH = 8
"""YAML nodes deep: `sets:` › a Set › its fields › the functions list › a name is 5."""


class _SetsLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases and nesting past MAX_DEPTH as it composes,
    so neither a billion laughs nor 5,000 `[` ever becomes a Python object."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

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


def load_bounded(text: str) -> object:
    """`yaml.safe_load` of `text`, refusing aliases and depth past MAX_DEPTH (yaml.YAMLError)."""
    return yaml.load(text, Loader=_SetsLoader)  # noqa: S506 - a SafeLoader subclass
