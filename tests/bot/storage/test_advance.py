"""The save's shortcut (a game this Store wrote last): the same rows as the full save,
and another writer's state in the row sends it the full way, where it is refused."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
import sqlalchemy as sa

import rules
from bot.storage import GameMeta, StaleGame, Store, _codec, open_store
from bot.storage._advance import GOING_ON, STEP, STILL_GOING, Known, written
from bot.storage._models import AnswerRow, Game, GamePlayer, RoundRow, table
from bot.storage._pg_steps import PgSteps
from tests.bot.storage.builders import duel, record

TABLES = [(table(Game), "id"), (table(GamePlayer), "game_id")]
TABLES += [(table(RoundRow), "game_id"), (table(AnswerRow), "game_id")]


def steps(game_id: str) -> list[rules.GameState]:
    """Every state of a duel: rounds started, shown, answered, timed out, resigned."""
    state = rules.new_game(game_id, rules.Mode.DUEL, rules.CLASSIC, ["1", "2"])
    out = [state]
    for number, (a, b) in enumerate([(100, 60), (100, None)]):
        now = 1000.0 + 500 * number
        for action in (
            rules.StartRound("1234", now),
            rules.RoundShown(now + 0.5),
            rules.Submit("1", "1234", a, now + 3),
            *([rules.Submit("2", "4321", b, now + 4)] if b is not None else []),
            *([rules.Expire(now + 200)] if b is None else []),
        ):
            state = rules.apply(state, action)  # type: ignore[arg-type]
            out.append(state)
    return [*out, rules.apply(state, rules.Resign("2"))]


def _unnamed(value: Any, game_id: str) -> Any:
    """A column's value without the game's id (the state JSON names it)."""
    return value.replace(f'"{game_id}"', '"id"') if isinstance(value, str) else value


async def rows(store: Store, game_id: str) -> list[Any]:
    found = []
    async with store.engine.connect() as conn:
        for tbl, key in TABLES:
            result = await conn.execute(sa.select(tbl).where(tbl.c[key] == game_id))
            found.append(sorted(tuple(_unnamed(v, game_id) for v in r[1:]) for r in result))
    return found


async def test_the_shortcut_writes_what_the_full_save_writes(db_url: str) -> None:
    quick = await open_store(db_url)
    try:
        for number, state in enumerate(steps("quick")):
            meta = GameMeta(locale="uk", round_message_id=number)
            await quick.games.save_game(
                dataclasses.replace(record(state), meta=meta), now=5000.0 + number
            )
            full = await open_store(db_url, migrate=False)  # knows nothing: the full way
            try:
                slow = steps("full")[number]
                await full.games.save_game(
                    dataclasses.replace(record(slow), meta=meta), now=5000.0 + number
                )
            finally:
                await full.close()
            assert await rows(quick, "quick") == await rows(quick, "full")
    finally:
        await quick.close()


async def test_another_processes_write_sends_the_shortcut_the_full_way(db_url: str) -> None:
    """Two bot processes on one database, both holding the duel's open round."""
    one, two = await open_store(db_url), await open_store(db_url, migrate=False)
    try:
        base = duel("race", (1, 2), [(100, 100)])
        base = rules.apply(base, rules.StartRound("4589", 9000.0))
        base = rules.apply(base, rules.Submit("1", "45+89", 134, 9001.0))
        await one.games.save_game(record(base))
        await two.games.save_game(record(base))  # both know it now
        answered = rules.apply(base, rules.Submit("2", "4*5+89", 109, 9002.0))
        expired = rules.apply(base, rules.Expire(99999.0))
        outcomes = await asyncio.gather(
            one.games.save_game(record(answered)),
            two.games.save_game(record(expired)),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleGame"]
        winner = answered if outcomes[0] is None else expired
        loaded = await two.games.load_game("race")
        assert loaded is not None and loaded.state.to_dict() == winner.to_dict()
        answers = (await rows(one, "race"))[3]
        assert len([a for a in answers if a[0] == 2]) == 2  # round 2: one answer per seat
        loser = two if outcomes[0] is None else one
        with pytest.raises(StaleGame):  # and it stays refused
            await loser.games.save_game(record(expired if loser is two else answered))
    finally:
        await one.close()
        await two.close()


async def test_a_refused_row_undoes_the_whole_save(store: Store) -> None:
    """An answer row already there (written around the state): the step is not half-kept."""
    base = rules.apply(duel("dup", (1, 2), []), rules.StartRound("4589", 9000.0))
    await store.games.save_game(record(base))
    answered = rules.apply(base, rules.Submit("1", "45+89", 134, 9001.0))
    async with store.engine.begin() as conn:
        await conn.execute(
            table(AnswerRow).insert(),
            {"game_id": "dup", "round_number": 1, "seat": 0, "player": "1", "formula": "x"}
            | {"result": "1", "points": 1.0, "score": 500.0, "elapsed": 1.0, "auto": False},
        )
    with pytest.raises(StaleGame):
        await store.games.save_game(record(answered))
    loaded = await store.games.load_game("dup")
    assert loaded is not None and loaded.state.to_dict() == base.to_dict()
    seats = table(GamePlayer)
    async with store.engine.connect() as conn:
        counted = await conn.scalars(sa.select(seats.c.answered).where(seats.c.game_id == "dup"))
        assert list(counted) == [0, 0]  # nobody's answer counted


def test_a_step_of_a_game_going_on_writes_only_what_it_can_change() -> None:
    """While the game goes on, its row's status, result, ranking and end are left as the
    known row holds them (their indexes untouched); the step that ends it writes them."""
    known = Known()
    states = steps("slim")
    first = record(states[0])
    known.keep("slim", written(first, _codec.dumps(states[0].to_dict()), states[0].to_dict(), None))
    going = known.plan(record(states[1]), 5000.0)
    assert going is not None and going.ops[0][0] is GOING_ON
    assert set(going.ops[0][1]) == {*STILL_GOING, "b_id", "b_old"}
    before_end = states[-2]
    known.keep(
        "slim", written(first, _codec.dumps(before_end.to_dict()), before_end.to_dict(), None)
    )
    ending = known.plan(record(states[-1]), 5000.0)
    assert ending is not None and ending.ops[0][0] is STEP


@pytest.mark.postgres
async def test_on_postgres_a_step_is_one_statement_or_nothing(postgres_url: str) -> None:
    """`_pg_steps`: a known step is written by its one statement (the rows are those of
    the full save, above); a row another writer moved on makes it write nothing."""
    store = await open_store(postgres_url)
    try:
        steps_ = store.games._lane
        assert isinstance(steps_, PgSteps)
        states = steps("pg")
        known = Known()
        for state in states[:3]:
            await store.games.save_game(record(state), now=5000.0)
        plan_from = states[2]
        known.keep(
            "pg",
            written(
                record(plan_from), _codec.dumps(plan_from.to_dict()), plan_from.to_dict(), None
            ),
        )
        step = known.plan(record(states[3]), 5000.0)
        assert step is not None and len(step.ops) > 1  # the game row and its answer at least
        assert await steps_.apply(step.ops)  # the store held states[2]: written
        assert not await steps_.apply(step.ops)  # now it holds states[3]: nothing written
        loaded = await store.games.load_game("pg")
        assert loaded is not None and loaded.state.to_dict() == states[3].to_dict()
    finally:
        await store.close()


def _reachable_dicts(value: object) -> int:
    """How many dicts `value` holds, however deep (through tuples)."""
    if isinstance(value, dict):
        return 1 + sum(_reachable_dicts(v) for v in value.values())
    if isinstance(value, tuple):
        return sum(_reachable_dicts(v) for v in value)
    return 0


async def test_what_is_known_of_a_running_game_is_its_text_and_seat_values(store: Store) -> None:
    """Issue 28: the shortcut's copy is kept for every running game, so it holds the
    state's stored text and each seat's changeable values, not the state's dict (three
    times the text) nor whole seat rows; the next step still takes the shortcut."""
    states = steps("small")
    await store.games.save_game(record(states[1]))
    known = store.games._known._games["small"]
    games = table(Game)
    async with store.engine.connect() as conn:
        stored = await conn.scalar(sa.select(games.c.state).where(games.c.id == "small"))
    assert known.state_json == stored  # what the compare-and-set compares
    fields = [getattr(known, f.name) for f in dataclasses.fields(known)]
    assert sum(_reachable_dicts(v) for v in fields) == 0
    assert len(known.seats) == 2 and all(len(seat) == 7 for seat in known.seats)
    await store.games.save_game(record(states[2]))  # the shortcut, from the text
    after = store.games._known._games["small"]
    assert after is not known and after.state_json != known.state_json
