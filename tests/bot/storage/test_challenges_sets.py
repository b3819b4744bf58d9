"""Duel challenges (race-safe status changes) and server Sets."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

import rules
from bot.storage import Challenge, Store


def _challenge(challenge_id: str, expires_at: float = 500.0) -> Challenge:
    return Challenge(challenge_id, 1, 2, 10, 20, "darts", expires_at, message_id=2**62)


async def test_challenge_round_trip_and_pending(store: Store) -> None:
    await store.challenges.save_challenge(_challenge("late", 900.0))
    await store.challenges.save_challenge(_challenge("soon", 100.0))
    assert await store.challenges.load_challenge("soon") == _challenge("soon", 100.0)
    assert await store.challenges.load_challenge("missing") is None
    assert [c.id for c in await store.challenges.pending_challenges()] == ["soon", "late"]
    updated = dataclasses.replace(_challenge("soon", 100.0), message_id=5)
    await store.challenges.save_challenge(updated)
    assert await store.challenges.load_challenge("soon") == updated


async def test_status_changes_only_from_pending_once(store: Store) -> None:
    await store.challenges.save_challenge(_challenge("c"))
    results = await asyncio.gather(
        store.challenges.set_challenge_status("c", "accepted"),  # type: ignore[arg-type]
        store.challenges.set_challenge_status("c", "expired"),  # type: ignore[arg-type]
        store.challenges.set_challenge_status("c", "declined"),  # type: ignore[arg-type]
    )
    assert sorted(results) == [False, False, True]
    loaded = await store.challenges.load_challenge("c")
    assert loaded is not None and loaded.status != "pending"
    assert await store.challenges.pending_challenges() == []
    assert await store.challenges.set_challenge_status("missing", "accepted") is False  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot become"):
        await store.challenges.set_challenge_status("c", "pending")  # type: ignore[arg-type]


async def test_server_sets_are_per_guild(store: Store) -> None:
    blitz = dataclasses.replace(rules.CLASSIC, name="zz-blitz", time_limit=30)
    sprint = rules.validate_set(
        "sprint301",
        {"start_score": 301, "goal": 100, "bonus": 50, "max_rounds": 5, "time_limit": 60},
    )
    await store.sets.save_server_set(1, blitz)
    await store.sets.save_server_set(1, sprint)
    await store.sets.save_server_set(2, dataclasses.replace(sprint, functions=("abs",)))
    assert await store.sets.server_sets(1) == [sprint, blitz]
    edited = dataclasses.replace(blitz, time_limit=45, description="faster")
    await store.sets.save_server_set(1, edited)
    assert await store.sets.server_sets(1) == [sprint, edited]
    assert await store.sets.delete_server_set(1, "sprint301") is True
    assert await store.sets.delete_server_set(1, "sprint301") is False
    assert await store.sets.server_sets(1) == [edited]
    assert [s.functions for s in await store.sets.server_sets(2)] == [("abs",)]
    assert await store.sets.server_sets(3) == []


async def test_two_imports_at_once_cannot_both_pass_the_cap(store: Store) -> None:
    """The cap is counted inside the transaction that saves: check-then-save raced."""
    from bot.storage import TooManySets

    def batch(prefix: str) -> list[rules.GameSet]:
        return [dataclasses.replace(rules.CLASSIC, name=f"{prefix}-{i:02d}") for i in range(15)]

    outcomes = await asyncio.gather(
        store.sets.save_server_sets(1, batch("a"), cap=25),
        store.sets.save_server_sets(1, batch("b"), cap=25),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["TooManySets", "list"]
    assert len(await store.sets.server_sets(1)) == 15
    with pytest.raises(TooManySets):
        await store.sets.save_server_sets(1, batch("c"), cap=25)
    assert len(await store.sets.server_sets(1)) == 15  # all or nothing
    winner = "a" if isinstance(outcomes[0], list) else "b"
    assert await store.sets.save_server_sets(1, batch(winner)[:3], cap=25) == []  # updates: no room
