"""Two GameService instances on one PostgreSQL database, as two bot processes are: when
both resolve the same round exactly one write wins (the stale-write check), and a
process's sweep leaves the overdue games of another process's shards alone."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
import sqlalchemy as sa

import rules
from bot.play import GameService
from bot.storage import Challenge, GameRecord, RatingChange, StaleGame, Store, open_store

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.postgres]

GUILD = 1


class Clock:
    """A process's clock; `skew` puts a second process a little behind the first."""

    def __init__(self, base: Clock | None = None, skew: float = 0.0) -> None:
        self.base = base
        self.skew = skew
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return (self.base() if self.base is not None else self.now) - self.skew


class Recorder:
    """What one process announced: (event, game id, detail)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, Any]] = []

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Any = None
    ) -> None:
        self.events.append(("round_started", record.state.id, len(record.state.rounds)))

    async def answer_received(self, record: GameRecord, player: int, via: Any = None) -> None:
        self.events.append(("answer_received", record.state.id, player))

    async def round_resolved(self, record: GameRecord, number: int, via: Any = None) -> None:
        self.events.append(("round_resolved", record.state.id, number))

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Any = None
    ) -> None:
        self.events.append(("game_over", record.state.id, ratings))

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        del record, message_id

    async def challenge_closed(self, challenge: Challenge, status: str) -> None:
        self.events.append(("challenge_closed", challenge.id, status))

    def of(self, name: str) -> list[Any]:
        return [detail for event, _, detail in self.events if event == name]


@pytest_asyncio.fixture(loop_scope="session")
async def stores(postgres_url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores, two connection pools, one database: two processes' view of it."""
    one = await open_store(postgres_url)
    two = await open_store(postgres_url)
    yield one, two
    await one.close()
    await two.close()


def service(
    store: Store, evaluator: Any, clock: Clock, owns: Callable[[int], bool]
) -> tuple[GameService, Recorder]:
    recorder = Recorder()
    built = GameService(store, evaluator, rules.load_sets(), recorder, owns=owns, clock=clock)
    return built, recorder


async def rounds_in_db(store: Store, game_id: str) -> list[tuple[int, bool]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.text("SELECT number, resolved FROM rounds WHERE game_id = :g ORDER BY number"),
            {"g": game_id},
        )
        return [(int(n), bool(r)) for n, r in rows]


async def answers_in_db(store: Store, game_id: str) -> list[tuple[int, str, bool]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.text(
                "SELECT round_number, player, auto FROM answers WHERE game_id = :g"
                " ORDER BY round_number, seat"
            ),
            {"g": game_id},
        )
        return [(int(n), str(p), bool(a)) for n, p, a in rows]


async def racing_expiries(
    stores: tuple[Store, Store], evaluator: Any, set_name: str = "darts"
) -> dict[str, Any]:
    """Both services hold the duel (one started it, the other recovered it) and both
    see round 1's deadline pass at once; their clocks differ by a quarter second, as
    two machines' do."""
    clock = Clock()
    first, first_said = service(stores[0], evaluator, clock, lambda guild: True)
    second, second_said = service(stores[1], evaluator, Clock(clock, 0.25), lambda guild: True)
    challenge = await first.create_challenge(GUILD, 10, 100, 200, False, set_name)

    async def thread(_challenge: Challenge, _set: rules.GameSet) -> int:
        return 11

    record = await first.accept_challenge(challenge.id, 200, "en", thread)
    game_id = record.state.id
    assert await second.recover() == 1
    clock.now = record.state.rounds[0].deadline + 1
    outcomes = await asyncio.gather(
        first.expire(game_id, 1), second.expire(game_id, 1), return_exceptions=True
    )
    await first.close()
    await second.close()
    return {
        "game_id": game_id,
        "outcomes": outcomes,
        "said": (first_said, second_said),
        "services": (first, second),
    }


async def test_two_services_resolving_one_round_store_it_once(stores, evaluator) -> None:
    """The round is resolved once in the database (one auto-move each, unique per
    round and player) and round 2 starts once: the slower start is a stale write
    (the round timer retries it from the store, where it finds round 2 running)."""
    race = await racing_expiries(stores, evaluator)
    game_id = race["game_id"]
    assert all(o is None or isinstance(o, StaleGame) for o in race["outcomes"]), race
    first_said, second_said = race["said"]
    started = first_said.of("round_started") + second_said.of("round_started")
    assert sorted(started) == [1, 2], (first_said.events, second_said.events)
    assert await rounds_in_db(stores[0], game_id) == [(1, True), (2, False)]
    assert await answers_in_db(stores[0], game_id) == [(1, "100", True), (1, "200", True)]
    stored = await stores[1].games.load_game(game_id)
    assert stored is not None and stored.active and len(stored.state.rounds) == 2


async def test_two_services_resolving_one_round_announce_it_once(stores, evaluator) -> None:
    """The resolution is saved with the next round's start, which carries each process's
    own clock: the two writes differ, so the slower one is stale and announces nothing.
    (A game's last round has no next round: two writers of the same end state would both
    announce it; only two processes holding one game, a wrong SHARD_IDS, get there.)"""
    race = await racing_expiries(stores, evaluator)
    first_said, second_said = race["said"]
    assert first_said.of("round_resolved") + second_said.of("round_resolved") == [1]


async def test_a_sweep_leaves_another_shards_overdue_game_alone(stores, evaluator) -> None:
    """The owner went down mid-round; the other process's sweep (the store half too)
    finds the overdue game and must leave it for the owner's recovery."""
    clock = Clock()
    owner, _ = service(stores[0], evaluator, clock, lambda guild: guild == GUILD)
    other, other_said = service(stores[1], evaluator, clock, lambda guild: guild != GUILD)

    async def thread(_set: rules.GameSet) -> int:
        return 50

    record = await owner.start_single(rules.Mode.TRAINING, GUILD, 100, None, "en", thread)
    await owner.close()  # killed: its timer never fires
    clock.now = record.state.rounds[0].deadline + 3600
    assert await other.flow.sweep(from_store=True) == 0
    assert other_said.events == []
    stored = await stores[1].games.load_game(record.state.id)
    assert stored is not None and stored.active
    assert await rounds_in_db(stores[1], record.state.id) == [(1, False)]
    await other.close()


async def test_two_services_ending_one_game_announce_its_end_once(stores, evaluator) -> None:
    """A one-round duel: both processes compute the same end state (two auto-moves, no
    next round to tell them apart); the second finds the step written by the first."""
    darts = rules.load_sets()["darts"]
    one_round = dataclasses.replace(darts, name="oneround", max_rounds=1, min_rounds=1)
    await stores[0].sets.save_server_set(GUILD, one_round)
    race = await racing_expiries(stores, evaluator, "oneround")
    assert all(o is None or isinstance(o, StaleGame) for o in race["outcomes"]), race
    first_said, second_said = race["said"]
    ends = first_said.of("game_over") + second_said.of("game_over")
    assert len(ends) == 1, (first_said.events, second_said.events)
    assert first_said.of("round_resolved") + second_said.of("round_resolved") == [1]
