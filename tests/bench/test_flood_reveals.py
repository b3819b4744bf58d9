"""The web flood bench's reveals (bench/_flood_reveals.py): a round's flood asks the Digits
its quiet run asked, and no round (nor the warm-up) asks an earlier one's. One Digits'
solve costs 2-20x another's, so a quiet run and a flood on different Digits compared the
Digits as much as the flood; and the solver keeps its last 8 prepared Digits (a prepared
Digits' next solve costs 2-20x less CPU), so each phase also runs on a new solver process
(`TimedSolver.renew`)."""

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


def _phase(asked: _Asked, seeds: flood.Seeds) -> set[str]:
    before = len(asked.digits)
    asyncio.run(flood.reveals(asked, 2, 0.5, seeds))  # type: ignore[arg-type]
    return set(asked.digits[before:])


def test_a_flood_asks_its_quiet_runs_digits_and_no_round_an_earlier_ones() -> None:
    asked = _Asked()
    seeds = flood.Seeds()
    earlier = [_phase(asked, seeds)]  # the warm-up
    for _ in range(2):
        seeds.new_round()
        quiet = _phase(asked, seeds)
        seeds.replay()
        assert _phase(asked, seeds) == quiet
        assert quiet
        assert not any(quiet & before for before in earlier)
        earlier.append(quiet)
