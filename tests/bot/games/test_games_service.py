"""GameService without Discord: races between answers and the deadline, broken announcers."""

from __future__ import annotations

import asyncio
import random
from typing import Any, Literal

import pytest

import rules
from bot.play import GameError, GameService
from bot.storage import Challenge, GameRecord, RatingChange

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """Records announcements; can be told to fail for one game."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, Any]] = []
        self.broken: set[str] = set()

    def _note(self, name: str, record: GameRecord, detail: Any = None) -> None:
        self.events.append((name, record.state.id, detail))
        if record.state.id in self.broken:
            raise RuntimeError("this game's channel is gone")

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Any = None
    ) -> None:
        self._note("round_started", record, len(record.state.rounds))

    async def answer_received(self, record: GameRecord, player: int, via: Any = None) -> None:
        self._note("answer_received", record, player)

    async def round_resolved(self, record: GameRecord, number: int, via: Any = None) -> None:
        self._note("round_resolved", record, number)

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Any = None
    ) -> None:
        self._note("game_over", record, ratings)

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        del record, message_id

    async def challenge_closed(self, challenge: Challenge, status: str) -> None:
        self.events.append(("challenge_closed", challenge.id, status))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def service(store, evaluator, clock, recorder, digits) -> GameService:
    return GameService(
        store, evaluator, rules.load_sets(), recorder, clock=clock, digits_source=digits
    )


async def open_duel(service: GameService) -> GameRecord:
    challenge = await service.create_challenge(1, 10, 100, 200, False, "darts")

    async def channel(_challenge: Challenge, _set: rules.GameSet) -> int:
        return 11

    return await service.accept_challenge(challenge.id, 200, "en", channel)


async def thread_50(_set: rules.GameSet) -> int:
    return 50


async def test_answers_and_the_deadline_racing_resolve_the_round_once(
    service, clock, recorder, digits
) -> None:
    digits.extend("3489", "2476")
    record = await open_duel(service)
    game_id = record.state.id
    clock.now = record.state.rounds[0].deadline
    outcomes = await asyncio.gather(
        service.submit(game_id, 100, "34+89"),
        service.submit(game_id, 200, "3*4+89"),
        service.expire(game_id, 1),
        service.expire(game_id, 1),
        return_exceptions=True,
    )
    assert all(not isinstance(o, Exception) or isinstance(o, GameError) for o in outcomes)
    resolved = [e for e in recorder.events if e[0] == "round_resolved"]
    assert resolved == [("round_resolved", game_id, 1)]
    assert [e[2] for e in recorder.events if e[0] == "round_started"] == [1, 2]
    stored = await service.store.games.load_game(game_id)
    assert stored is not None
    assert [r.resolved for r in stored.state.rounds] == [True, False]
    await service.close()


async def test_a_late_answer_is_refused_and_the_deadline_expires_the_round(
    service, clock, recorder, digits
) -> None:
    digits.extend("3489")
    record = await open_duel(service)
    game_id = record.state.id
    clock.now = record.state.rounds[0].deadline + 0.5
    with pytest.raises(GameError) as refused:
        await service.submit(game_id, 100, "34+89")
    assert refused.value.code == "deadline_passed"
    await service.expire(game_id, 1)
    stored = await service.store.games.load_game(game_id)
    assert stored is not None
    assert all(answer.auto for answer in stored.state.rounds[0].answers if answer)
    await service.close()


async def test_one_broken_game_does_not_affect_another(service, recorder, digits) -> None:
    digits.extend("7001", "7001")

    async def thread(_set: rules.GameSet) -> int:
        return 50

    broken = await service.start_single(rules.Mode.TRAINING, 1, 100, None, "en", thread)
    recorder.broken.add(broken.state.id)
    healthy = await service.start_single(rules.Mode.TRAINING, 1, 200, None, "en", thread)
    await service.submit(broken.state.id, 100, "700+1")
    await service.submit(healthy.state.id, 200, "700+1")
    for game in (broken, healthy):
        stored = await service.store.games.load_game(game.state.id)
        assert stored is not None and stored.state.outcome is not None
        assert stored.state.outcome.perfect
    assert ("game_over", healthy.state.id, []) in recorder.events
    await service.close()


# ------------------------------------------------- an answer still in PHP at the deadline


class GatedEvaluator:
    """The real PHP evaluator behind a gate: PHP takes as long as the test wants."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.timeout_s = inner.timeout_s
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    async def evaluate(self, formula: str, digits: str, functions: Any, **kwargs: Any) -> Any:
        self.waiting.set()
        await self.gate.wait()
        return await self.inner.evaluate(formula, digits, functions, **kwargs)


@pytest.fixture
def gated(evaluator) -> GatedEvaluator:
    return GatedEvaluator(evaluator)


@pytest.fixture
def slow_service(store, gated, clock, recorder, digits) -> GameService:
    return GameService(store, gated, rules.load_sets(), recorder, clock=clock, digits_source=digits)


async def deadline_during_php(
    service: GameService, gated: GatedEvaluator, clock: Clock, record: GameRecord, user: int,
    formula: str,
) -> tuple[asyncio.Task[Any], asyncio.Task[None]]:  # fmt: skip
    """`user` sends `formula` 0.5 s before the deadline; the deadline comes while PHP runs."""
    deadline = record.state.rounds[0].deadline
    clock.now = deadline - 0.5
    submitting = asyncio.create_task(service.submit(record.state.id, user, formula))
    await gated.waiting.wait()
    clock.now = deadline + 0.01
    expiring = asyncio.create_task(service.expire(record.state.id, 1))  # the round timer
    for _ in range(10):
        await asyncio.sleep(0)
    return submitting, expiring


async def test_one_formula_at_a_time_per_player(slow_service, gated, digits) -> None:
    """A second formula sent while the first is in PHP is refused, not raced."""
    digits.extend("3489", "2476")
    record = await slow_service.start_single(rules.Mode.TRAINING, 1, 100, None, "en", thread_50)
    first = asyncio.create_task(slow_service.submit(record.state.id, 100, "3*4+89"))
    await gated.waiting.wait()
    with pytest.raises(GameError) as refused:
        await asyncio.wait_for(slow_service.submit(record.state.id, 100, "34+89"), 5)
    assert refused.value.code == "answer_in_flight"
    gated.gate.set()
    result = await first
    assert result.evaluation is not None and result.evaluation.value == 101
    await slow_service.close()


async def test_an_answer_received_before_the_deadline_beats_the_timer(
    slow_service, gated, clock, digits
) -> None:
    digits.extend("3489", "2476")
    record = await slow_service.start_single(rules.Mode.TRAINING, 1, 100, None, "en", thread_50)
    submitting, expiring = await deadline_during_php(
        slow_service, gated, clock, record, 100, "34+89"
    )
    assert not expiring.done()  # the deadline waits for PHP
    gated.gate.set()
    result = await submitting
    await expiring
    assert result.evaluation is not None and result.evaluation.value == 123
    stored = await slow_service.store.games.load_game(record.state.id)
    assert stored is not None and stored.state.outcome is None
    first = stored.state.rounds[0].answers[0]
    assert first is not None and first.formula == "34+89" and not first.auto
    assert first.elapsed == 119.5  # the time of receipt, not of PHP's answer
    assert len(stored.state.rounds) == 2 and stored.state.scores == [424]
    await slow_service.close()


async def test_a_duel_answer_in_php_at_the_deadline_is_not_replaced_by_the_auto_move(
    slow_service, gated, clock, digits
) -> None:
    digits.extend("3489", "2476")
    record = await open_duel(slow_service)
    submitting, expiring = await deadline_during_php(
        slow_service, gated, clock, record, 100, "3*4+89"
    )
    assert not expiring.done()
    gated.gate.set()
    result = await submitting
    await expiring
    assert result.secret and result.evaluation is not None
    stored = await slow_service.store.games.load_game(record.state.id)
    assert stored is not None
    answers = stored.state.rounds[0].answers
    assert [(a.formula, a.auto) for a in answers if a] == [("3*4+89", False), ("34+89", True)]
    assert stored.state.scores == [402, 424]
    await slow_service.close()


async def test_the_deadline_waits_for_php_only_so_long(
    store, gated, clock, recorder, digits
) -> None:
    digits.extend("3489")
    service = GameService(
        store, gated, rules.load_sets(), recorder, clock=clock, digits_source=digits,
        answer_grace_s=0.05,
    )  # fmt: skip
    record = await service.start_single(rules.Mode.TRAINING, 1, 100, None, "en", thread_50)
    submitting, expiring = await deadline_during_php(service, gated, clock, record, 100, "34+89")
    await asyncio.wait_for(expiring, timeout=5)
    gated.gate.set()
    with pytest.raises(GameError) as refused:
        await submitting
    assert refused.value.code == "deadline_passed"
    stored = await service.store.games.load_game(record.state.id)
    assert stored is not None and stored.state.outcome is not None
    assert stored.state.outcome.termination is rules.Termination.TIMEOUT
    assert not service.in_flight
    await service.close()


# ------------------------------------------------------------ /resign twice at once


ENDED = {"game_over", "no_game"}
"""The second resign is refused either way: the game it looks up is over, or already
gone from the player's active games, depending on which await the first one passed."""


async def test_two_resigns_at_once_end_the_game_once(service, recorder, digits) -> None:
    record = await service.start_single(rules.Mode.TRAINING, 1, 100, None, "en", thread_50)
    outcomes = await asyncio.gather(
        service.resign(1, 100), service.resign(1, 100), return_exceptions=True
    )
    assert isinstance(outcomes[0], GameRecord)
    assert isinstance(outcomes[1], GameError) and outcomes[1].code in ENDED
    over = [e for e in recorder.events if e[0] == "game_over"]
    assert [e[1] for e in over] == [record.state.id]
    await service.close()


@pytest.mark.parametrize("second", [100, 200])
async def test_a_duel_resigned_twice_at_once_is_rated_once(service, recorder, second) -> None:
    record = await open_duel(service)
    outcomes = await asyncio.gather(
        service.resign(1, 100), service.resign(1, second), return_exceptions=True
    )
    # which of two resigns at once stands is the scheduler's choice: exactly one does
    stood = [n for n, o in enumerate(outcomes) if isinstance(o, GameRecord)]
    refused = [o for o in outcomes if isinstance(o, GameError)]
    assert len(stood) == 1 and len(refused) == 1 and refused[0].code in ENDED, outcomes
    over = [e for e in recorder.events if e[0] == "game_over"]
    assert len(over) == 1 and over[0][1] == record.state.id
    stored = await service.store.games.load_game(record.state.id)
    assert stored is not None and stored.state.outcome is not None
    resigned = (100, second)[stood[0]]
    assert stored.state.outcome.winner == (1 if resigned == 100 else 0)  # the other wins
    board = await service.store.boards.duel_leaderboard(1)
    assert sorted((row.user_id, row.games) for row in board) == [(100, 1), (200, 1)]
    await service.close()


class WatchedLock(asyncio.Lock):
    """A game's lock that tells how many callers have come to wait for it."""

    def __init__(self) -> None:
        super().__init__()
        self.callers = 0
        self.came = asyncio.Event()

    async def acquire(self) -> Literal[True]:
        self.callers += 1
        self.came.set()
        return await super().acquire()  # queued in arrival order before anyone else runs

    async def reached(self, callers: int) -> None:
        while self.callers < callers:
            self.came.clear()
            await asyncio.wait_for(self.came.wait(), 30)


async def test_resign_waiting_behind_a_checkout_is_told_the_game_is_over(
    service, digits, monkeypatch
) -> None:
    digits.extend("7001")
    record = await service.start_single(rules.Mode.TRAINING, 1, 100, None, "en", thread_50)
    game_id = record.state.id
    lock, others = WatchedLock(), service.active.lock
    monkeypatch.setattr(service.active, "lock", lambda key: lock if key == game_id else others(key))
    await lock.acquire()  # whatever holds the game meanwhile
    submitting = asyncio.create_task(service.submit(game_id, 100, "700+1"))
    await lock.reached(2)  # PHP answered; the submit waits for the lock
    resigning = asyncio.create_task(service.resign(1, 100))
    await lock.reached(3)  # its store read came back (a thread); it waits for the lock
    lock.release()
    result, refused = await asyncio.gather(submitting, resigning, return_exceptions=True)
    assert not isinstance(result, BaseException) and result.evaluation is not None  # type: ignore[has-type]
    assert isinstance(refused, GameError) and refused.code == "game_over"  # type: ignore[has-type]
    stored = await service.store.games.load_game(game_id)
    assert stored is not None and stored.state.outcome is not None
    assert stored.state.outcome.termination is rules.Termination.CHECKOUT
    await service.close()


@pytest.mark.parametrize("seed", range(8))
async def test_answers_deadlines_and_resigns_at_once_only_refuse(
    service, clock, recorder, seed
) -> None:
    """Whatever arrives together, a caller gets a result or a GameError, never StaleGame."""
    chance = random.Random(seed)
    record = await open_duel(service)  # Digits 1234 every round
    game_id = record.state.id
    for _ in range(8):
        live = service.active.get(game_id)
        current = live.state.current_round if live else None
        if current is None:
            break
        clock.now = current.deadline - chance.choice([5.0, 0.0])
        calls: list[Any] = []
        for _ in range(chance.randint(2, 6)):
            pick = chance.random()
            if pick < 0.6:
                formula = chance.choice(["1234", "12+34", "1*2*3*4", "x"])
                number = chance.choice([None, current.number])
                user = chance.choice([100, 200])
                calls.append(service.submit(game_id, user, formula, number))
            elif pick < 0.9:
                calls.append(service.expire(game_id, current.number))
            else:
                calls.append(service.resign(1, chance.choice([100, 200])))
        outcomes = await asyncio.gather(*calls, return_exceptions=True)
        unexpected = [
            o for o in outcomes if isinstance(o, Exception) and not isinstance(o, GameError)
        ]
        assert not unexpected
        if service.active.get(game_id) is not None:
            clock.now = current.deadline + 1
            await service.expire(game_id, current.number)
    over = [e for e in recorder.events if e[0] == "game_over"]
    assert len(over) <= 1
    stored = await service.store.games.load_game(game_id)
    assert stored is not None and (stored.state.outcome is not None) == bool(over)
    await service.close()
