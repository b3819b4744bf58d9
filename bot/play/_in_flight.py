"""Formulas received for a round and still in PHP, so the round's deadline can wait for them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

from bot.play._refusals import Refusal
from bot.play._types import GameError

log = logging.getLogger(__name__)


@dataclass(eq=False)
class InFlight:
    """A formula received for `round_number` at `received`, now being checked by PHP."""

    player: int
    round_number: int
    received: float
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class AnswersInFlight:
    """The registry of answers still in PHP, per game.

    An answer's time is its receipt, so PHP's verdict must not lose to the round
    timer: the deadline waits (boundedly) for formulas received before it.
    """

    def __init__(self) -> None:
        self._by_game: dict[str, list[InFlight]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_game)

    @contextlib.contextmanager
    def checking(
        self, game_id: str, player: int, round_number: int, received: float
    ) -> Iterator[None]:
        """Mark a formula as being checked for the duration of the block.

        One formula per player at a time: a second one sent while the first is in
        PHP is refused, so the first valid formula really is the first one sent,
        and one player cannot flood the shared pool.
        """
        entries = self._by_game.setdefault(game_id, [])
        if any(f.player == player and f.round_number == round_number for f in entries):
            raise GameError(Refusal.ANSWER_IN_FLIGHT)
        entry = InFlight(player, round_number, received)
        entries.append(entry)
        try:
            yield
        finally:
            entries = self._by_game.get(game_id, [])
            if entry in entries:
                entries.remove(entry)
            if not entries:
                self._by_game.pop(game_id, None)
            if not entry.done.done():
                entry.done.set_result(None)

    async def wait(self, game_id: str, round_number: int, deadline: float, grace: float) -> None:
        """Wait at most `grace` s for formulas of the round received by its deadline.

        The wait ends when PHP answers, which is also when simcord's settling ends.
        """
        waits = [
            entry.done
            for entry in self._by_game.get(game_id, [])
            if entry.round_number == round_number and entry.received <= deadline
        ]
        if not waits:
            return
        _done, pending = await asyncio.wait(waits, timeout=grace)
        if pending:
            log.warning(
                "game %s: %d answer(s) to round %s still in PHP after %g s; expiring it",
                game_id, len(pending), round_number, grace,
            )  # fmt: skip
