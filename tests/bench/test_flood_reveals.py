"""The web flood bench's reveals (bench/_flood_reveals.py): every phase asks Digits no
earlier phase (nor the warm-up) asked. The solver keeps its last 8 prepared Digits, and a
prepared Digits' next solve costs 2-20x less CPU: a phase that asked an earlier one's
Digits again would find them prepared and look faster than the other (with 5-7 reveals a
phase on a loaded machine, all of them)."""

from __future__ import annotations

import asyncio
from typing import Any

from bench import _flood_reveals as flood


class _Asked:
    """A revealer that answers at once and keeps the Digits it was asked."""

    def __init__(self) -> None:
        self.digits: list[str] = []
        self.solver = None

    async def best(self, digits: str, *_: Any, **__: Any) -> None:
        self.digits.append(digits)


def test_each_phase_asks_digits_no_earlier_phase_asked() -> None:
    asked = _Asked()
    seeds = flood.Seeds()
    phases = []
    for _ in range(3):  # the warm-up, a quiet run, a flood
        before = len(asked.digits)
        asyncio.run(flood.reveals(asked, 2, 0.5, seeds))  # type: ignore[arg-type]
        phases.append(set(asked.digits[before:]))
    assert all(phases)
    for n, later in enumerate(phases):
        for earlier in phases[:n]:
            assert not later & earlier
