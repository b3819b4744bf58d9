"""The checker's passes, remembered: the same formula text under the same digits and Set.

Every language's checker is pure (its verdict is a function of the formula, the
round's digits and the Set's function names, nothing else), so a formula that
passed once passes again with the same normalized text. Players of one round (and
every server of the day's puzzle) send the same digits, and many the same
formulas; the checker is a third of the Python a formula costs the bot
(docs/BENCHMARKS.md, "pool3"). Only passes are kept: a refusal builds its message
again, and nothing a player sends can fill the cache with anything but formulas
that would reach the sandbox anyway.

Bounded by clearing it whole at `limit` entries: no order to keep per hit, and
a dict that is only ever added to until it is emptied stays compact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rules.game_set import FormulaLanguage

CHECKED_LIMIT: Final = 8192
"""Entries before the cache is cleared: about 2 MiB with formulas of a player's length, 12
MiB at worst (a passing formula has at most 1,024 characters as sent, 256 once normalized;
the Set's names are one tuple every entry of the Set shares)."""

Key = tuple[str, str, tuple[str, ...], FormulaLanguage]
"""(the formula as the player wrote it, the digits, the Set's function names, the language)."""


class Checked:
    """Formula text that passed its language's checker, by `Key`."""

    def __init__(self, limit: int = CHECKED_LIMIT) -> None:
        if limit < 1:
            raise ValueError("the cache needs room for one entry")
        self.limit = limit
        self._passed: dict[Key, str] = {}
        self.get: Callable[[Key], str | None] = self._passed.get
        """The normalized text the checker returned for `key`, if it passed before: the
        dict's own method, with no Python frame around it (this runs once per formula)."""

    def put(self, key: Key, text: str) -> None:
        passed = self._passed
        if len(passed) >= self.limit:
            passed.clear()
        passed[key] = text

    def __len__(self) -> int:
        return len(self._passed)
