"""Saving and restoring games: exact round trips, idempotence, stale and racing writes."""

from __future__ import annotations

import asyncio
import copy
import dataclasses

import pytest

import rules
from bot.storage import AttemptsUsed, GameMeta, GameRecord, StaleGame, Store
from tests.bot.storage.builders import CHECKOUT_4, DAY, GUILD, duel, record, single


async def test_round_trip_keeps_int_and_float_results(store: Store) -> None:
    state = single("rt", 11, [100, 3.5, 100.0, 1e20], mode=rules.Mode.TRAINING)
    saved = GameRecord(
        state=state, guild_id=GUILD, channel_id=99, meta=GameMeta(locale="uk", round_message_id=7)
    )
    await store.games.save_game(saved)
    loaded = await store.games.load_game("rt")
    assert loaded is not None
    assert loaded.state.to_dict() == state.to_dict()
    results = [r.answers[0].result for r in loaded.state.rounds if r.answers[0]]
    assert [type(x) for x in results] == [int, float, float, float]
    assert loaded.state.scores == state.scores
    assert type(loaded.state.scores[0]) is type(state.scores[0])
    assert loaded.meta == GameMeta(locale="uk", round_message_id=7)
    assert (loaded.guild_id, loaded.channel_id) == (GUILD, 99)
    assert (
        loaded.created_at > 0 == saved.created_at
    )  # the start is its first round; the caller's record is as it was
    assert loaded.active


async def test_load_missing_game(store: Store) -> None:
    assert await store.games.load_game("nope") is None


async def test_every_step_saved_and_active_games(store: Store) -> None:
    state = rules.new_game("steps", rules.Mode.QUALIFICATION, rules.CLASSIC, ["5"])
    rec = record(state)
    await store.games.save_game(rec)
    for result in CHECKOUT_4[:2]:
        rec = dataclasses.replace(rec, state=rules.apply(rec.state, rules.StartRound("3489", 0.0)))
        await store.games.save_game(rec)
        rec = dataclasses.replace(
            rec, state=rules.apply(rec.state, rules.Submit("5", "34+89", result, 3.0))
        )
        await store.games.save_game(rec)
    active = await store.games.active_games()
    assert [g.state.id for g in active] == ["steps"]
    assert active[0].state.to_dict() == rec.state.to_dict()
    assert active[0].period == DAY and active[0].seed == "seed"
    found = await store.games.active_game_of(GUILD, 5)
    assert found is not None and found.state.id == "steps"
    assert await store.games.active_game_of(GUILD + 1, 5) is None
    assert await store.games.active_game_of(GUILD, 6) is None
    rec = dataclasses.replace(rec, state=rules.apply(rec.state, rules.Resign("5")))
    await store.games.save_game(rec)
    assert await store.games.active_games() == []
    assert await store.games.active_game_of(GUILD, 5) is None


async def test_saving_the_same_state_again_is_a_no_op_but_keeps_meta(store: Store) -> None:
    rec = record(single("same", 5, [100]))
    rec = dataclasses.replace(rec, state=rules.apply(rec.state, rules.StartRound("1234", 9000.0)))
    await store.games.save_game(rec)
    rec = dataclasses.replace(
        rec, meta=dataclasses.replace(rec.meta, round_message_id=123456789012345678)
    )
    await store.games.save_game(rec)
    await store.games.save_game(rec)
    loaded = await store.games.load_game("same")
    assert loaded is not None
    assert loaded.meta == GameMeta(round_message_id=123456789012345678)
    assert loaded.state.to_dict() == rec.state.to_dict()


async def test_stale_write_is_rejected(store: Store) -> None:
    rec = record(single("stale", 5, [100]))
    old = rec.state
    rec = dataclasses.replace(rec, state=rules.apply(old, rules.StartRound("1234", 9000.0)))
    await store.games.save_game(rec)
    with pytest.raises(StaleGame):
        await store.games.save_game(dataclasses.replace(rec, state=old))
    loaded = await store.games.load_game("stale")
    assert loaded is not None and len(loaded.state.rounds) == 2


async def test_an_open_round_replayed_after_a_restart_moves_its_deadline(store: Store) -> None:
    rec = record(single("replay", 5, [100]))
    rec = dataclasses.replace(rec, state=rules.apply(rec.state, rules.StartRound("4321", 9000.0)))
    await store.games.save_game(rec)
    replayed = copy.deepcopy(rec.state)
    replayed.rounds[-1].started_at, replayed.rounds[-1].deadline = 20000.0, 20120.0
    await store.games.save_game(dataclasses.replace(rec, state=replayed))
    loaded = await store.games.load_game("replay")
    assert loaded is not None and loaded.state.rounds[-1].deadline == 20120.0
    with pytest.raises(StaleGame):  # never back in time, never other Digits
        await store.games.save_game(rec)
    other = copy.deepcopy(replayed)
    other.rounds[-1].digits = "9999"
    with pytest.raises(StaleGame):
        await store.games.save_game(dataclasses.replace(rec, state=other))
    answered = rules.apply(replayed, rules.Submit("5", "4*3+21", 33, 20010.0))
    await store.games.save_game(dataclasses.replace(rec, state=answered))
    again = copy.deepcopy(answered)
    again.rounds[-1].started_at, again.rounds[-1].deadline = 30000.0, 30120.0
    with pytest.raises(StaleGame):  # a resolved round is history
        await store.games.save_game(dataclasses.replace(rec, state=again))


async def test_racing_resolutions_store_exactly_one(store: Store) -> None:
    """A duel round: the second answer and the deadline's auto-move arrive together."""
    base = duel("race", (1, 2), [(100, 100)])
    base = rules.apply(base, rules.StartRound("4589", 9000.0))
    base = rules.apply(base, rules.Submit("1", "45+89", 134, 9001.0))
    await store.games.save_game(record(base))
    answered = rules.apply(base, rules.Submit("2", "4*5+89", 109, 9002.0))
    expired = rules.apply(base, rules.Expire(99999.0))
    outcomes = await asyncio.gather(
        store.games.save_game(record(answered)),
        store.games.save_game(record(expired)),
        return_exceptions=True,
    )
    assert sum(o is None for o in outcomes) == 1
    assert sum(isinstance(o, StaleGame) for o in outcomes) == 1
    winner = answered if outcomes[0] is None else expired
    loaded = await store.games.load_game("race")
    assert loaded is not None and loaded.state.to_dict() == winner.to_dict()
    replay = await store.games.history(GUILD, 2)
    assert replay[0].state.rounds[-1].answers[1] == winner.rounds[-1].answers[1]


async def test_racing_first_saves_of_a_new_game(store: Store) -> None:
    state = rules.new_game("new", rules.Mode.TRAINING, rules.CLASSIC, ["9"])
    one = rules.apply(state, rules.StartRound("1111", 0.0))
    other = rules.apply(state, rules.StartRound("2222", 0.0))
    outcomes = await asyncio.gather(
        store.games.save_game(record(one)),
        store.games.save_game(record(other)),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleGame"]


async def test_many_concurrent_identical_saves_are_idempotent(store: Store) -> None:
    rec = record(single("idem", 5, [100, 100]))
    await asyncio.gather(*(store.games.save_game(record(rec.state)) for _ in range(8)))
    loaded = await store.games.load_game("idem")
    assert loaded is not None and loaded.state.to_dict() == rec.state.to_dict()
    assert len(await store.games.history(GUILD, 5)) == 1


async def test_count_attempts(store: Store) -> None:
    await store.games.save_game(record(single("a1", 5, [100])))
    await store.games.save_game(record(single("a2", 5, CHECKOUT_4)))
    await store.games.save_game(record(single("a3", 5, [1]), period="2026-11-30"))
    await store.games.save_game(record(single("a4", 6, [1])))
    await store.games.save_game(record(single("t1", 5, [1], mode=rules.Mode.TRAINING)))
    sprint = dataclasses.replace(rules.CLASSIC, name="sprint")
    await store.games.save_game(record(single("s1", 5, [1], game_set=sprint)))
    assert await store.games.count_attempts(GUILD, 5, "darts", DAY) == 2
    assert await store.games.count_attempts(GUILD, 5, "darts", "2026-11-30") == 1
    assert await store.games.count_attempts(GUILD, 5, "sprint", DAY) == 1
    assert await store.games.count_attempts(GUILD, 7, "darts", DAY) == 0
    assert await store.games.count_attempts(GUILD + 1, 5, "darts", DAY) == 0


async def test_a_qualification_attempt_beyond_the_set_is_refused(store: Store) -> None:
    once = rules.CLASSIC
    assert once.attempts == 1
    await store.games.save_game(record(single("first", 5, [100], game_set=once)))
    with pytest.raises(AttemptsUsed, match="1 of 1"):
        await store.games.save_game(record(single("second", 5, [], game_set=once)))
    await store.games.save_game(
        record(single("tomorrow", 5, [], game_set=once), period="2026-11-30")
    )
    await store.games.save_game(record(single("other", 6, [], game_set=once)))
    assert await store.games.load_game("second") is None
    assert await store.games.count_attempts(GUILD, 5, "darts", DAY) == 1


async def test_racing_qualification_starts_give_one_game(store: Store) -> None:
    twice = dataclasses.replace(rules.CLASSIC, attempts=2)
    outcomes = await asyncio.gather(
        *(store.games.save_game(record(single(f"r{i}", 5, [], game_set=twice))) for i in range(4)),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["AttemptsUsed"] * 2 + ["NoneType"] * 2
    assert await store.games.count_attempts(GUILD, 5, "darts", DAY) == 2


async def test_history_newest_first_with_paging(store: Store) -> None:
    for index in range(5):
        rec = record(single(f"h{index}", 5, [100]))
        rec = dataclasses.replace(rec, created_at=1000.0 + index)
        await store.games.save_game(rec)
    await store.games.save_game(record(duel("hd", (5, 6), [(1, 2)])))
    other = record(single("elsewhere", 5, [1]), guild=GUILD + 1)
    await store.games.save_game(other)
    ids = [r.state.id for r in await store.games.history(GUILD, 5, limit=10)]
    assert ids[0] == "hd" and ids[1:] == ["h4", "h3", "h2", "h1", "h0"]
    page = await store.games.history(GUILD, 5, limit=2, offset=2)
    assert [r.state.id for r in page] == ["h3", "h2"]
    assert [r.state.id for r in await store.games.history(GUILD, 6)] == ["hd"]
    assert [await store.games.history_count(GUILD, p) for p in (5, 6, 7)] == [6, 1, 0]


async def test_find_game_by_id_or_prefix_on_its_server(store: Store) -> None:
    for game_id in ("abc12345ff", "abc12399ee", "zz_%x"):
        await store.games.save_game(record(single(game_id, 5, [100])))
    found = await store.games.find_game(GUILD, "abc12345")
    assert found is not None and found.state.id == "abc12345ff"
    assert await store.games.find_game(GUILD, "abc123") is None  # ambiguous
    exact = await store.games.find_game(GUILD, "abc12399ee")
    assert exact is not None and exact.state.id == "abc12399ee"
    assert await store.games.find_game(GUILD + 1, "abc12345") is None
    assert await store.games.find_game(GUILD, "zz_") is not None
    assert await store.games.find_game(GUILD, "z%") is None  # LIKE wildcards are literal
    assert await store.games.find_game(GUILD, " ") is None


async def test_an_overlong_formula_is_kept_whole_in_the_state(store: Store) -> None:
    state = rules.new_game("long", rules.Mode.TRAINING, rules.CLASSIC, ["5"])
    state = rules.apply(state, rules.StartRound("1234", 0.0))
    formula = "1+" * 400 + "234"
    state = rules.apply(state, rules.Submit("5", formula, 100, 1.0))
    await store.games.save_game(record(state))
    loaded = await store.games.load_game("long")
    assert loaded is not None and loaded.state.rounds[0].answers[0].formula == formula  # type: ignore[union-attr]
