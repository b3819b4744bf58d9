"""The fair-play signals on built games (no Discord): which rounds matched the stored best
answers, which of those used a formula unlike the player's own non-matching ones, answer
times, and where a player stands against the server's players; and the bounded reads."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace

import pytest

import rules
from bot.moderation._fairplay import MIN_ROUNDS, features, profile, report
from bot.storage import GameMeta, GameRecord, Reveal, Store, open_store
from tests.bot.storage.builders import DARTS, GUILD, START, record
from tests.support.postgres import fresh_database

PLAIN = "12+34"
"""A player's usual sort of answer: it never matches the best here."""
SOLVED = "pow(2,5)*sqrt(9)"
"""A solver's sort of answer: functions the player's own answers never use."""


def played(
    player: str,
    rounds: Sequence[tuple[str, bool]],
    *,
    seconds: float = 20.0,
    guild: int = GUILD,
    best_known: bool = True,
) -> GameRecord:
    """A finished Training game of `player`: one round per (formula, matched?), each
    answered after `seconds`, with the best answer stored for each round (as good as the
    answer when it matched, one better when not)."""
    state = rules.new_game(uuid.uuid4().hex, rules.Mode.TRAINING, DARTS, [player])
    now = START
    for formula, _ in rounds:
        state = rules.apply(state, rules.StartRound("1234", now))
        state = rules.apply(state, rules.Submit(player, formula, 1, now + seconds))
        now += 200.0
    if state.outcome is None:
        state = rules.apply(state, rules.Resign(player))
    best: list[Reveal] = []
    for number, (_, hit) in enumerate(rounds if best_known else [], start=1):
        answer = state.rounds[number - 1].answers[0]
        assert answer is not None
        best.append(Reveal(number, 0, "best", 2, 2, float(answer.score) - (0 if hit else 1)))
    return replace(record(state, guild=guild), meta=GameMeta(best=tuple(best)))


def test_a_formula_s_functions_and_operators() -> None:
    assert features("sqrt(16) ** 2 + 3") == {"sqrt()", "**", "+"}
    assert features("12+34") == {"+"}
    assert features("(1234)") == frozenset()


def test_a_match_with_functions_the_player_never_uses_is_unlike_their_usual_ones() -> None:
    game = played("1", [(PLAIN, False)] * 3 + [(SOLVED, True), ("34+12", True)])
    mine = profile([game], "1")
    assert (mine.games, mine.answered, mine.checked, mine.matched, mine.usual) == (1, 5, 5, 2, 3)
    assert mine.unlike == 1  # the `+` match is like their own answers, pow/sqrt/`*` not
    assert mine.matched_share == pytest.approx(0.4) and mine.unlike_share == pytest.approx(0.2)


def test_a_match_much_longer_than_their_median_is_unlike_their_usual_ones() -> None:
    game = played("1", [("1+2", False)] * 3 + [("1+2+3+4+5+6+7", True), ("1+23", True)])
    assert profile([game], "1").unlike == 1


def test_with_no_answer_of_their_own_to_compare_every_operator_is_unusual() -> None:
    assert profile([played("1", [(PLAIN, True)] * 4)], "1").unlike == 4
    assert profile([played("1", [("1234", True)])], "1").unlike == 0  # nothing used at all


def test_rounds_without_a_known_best_count_for_time_only_and_void_games_not_at_all() -> None:
    unknown = played("1", [(PLAIN, False)] * 2, best_known=False, seconds=5)
    voided = played("1", [(SOLVED, True)] * 3)
    voided = replace(voided, meta=replace(voided.meta, void_reason="admin: test"))
    mine = profile([unknown, voided, played("2", [(SOLVED, True)])], "1")
    assert (mine.games, mine.answered, mine.checked, mine.matched) == (1, 2, 0, 0)
    assert mine.matched_share is None and mine.median_time == 5


def test_a_player_whose_rounds_all_match_with_unusual_formulas_stands_out() -> None:
    others = [
        played(player, [(PLAIN, False)] * 4 + [("12+35", True)], seconds=30 + index)
        for index, player in enumerate(("2", "3", "4"))
    ]
    few = played("5", [(SOLVED, True)] * 2)  # too few rounds to compare with
    mine = [
        played("1", [(PLAIN, False)] * 2 + [(SOLVED, True)] * 4, seconds=4),
        played("1", [(SOLVED, True)] * 6, seconds=4),
        played("1", [(SOLVED, True)] * 6, seconds=4),
    ]
    signals = report(mine, [*others, few, mine[0]], "1")
    assert signals.player.matched_share == pytest.approx(16 / 18)
    assert signals.player.unlike_share == pytest.approx(16 / 18)
    assert (signals.matched.median, signals.matched.beyond, signals.matched.of) == (0.2, 3, 3)
    assert (signals.unlike.median, signals.unlike.beyond, signals.unlike.of) == (0.0, 3, 3)
    assert (signals.time.value, signals.time.median, signals.time.beyond) == (4, 31, 3)


def test_an_ordinary_player_does_not_stand_out() -> None:
    server = [
        played(player, [(PLAIN, False)] * 4 + [(PLAIN, True)], seconds=30)
        for player in ("1", "2", "3")
    ]
    signals = report(server[:1], server, "1")
    assert signals.unlike.value == 0 and signals.unlike.beyond == 0
    assert signals.matched.beyond == 0 and signals.time.beyond == 0


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def both_stores(request: pytest.FixtureRequest, store: Store) -> AsyncIterator[Store]:
    """The SQLite store, or one on a fresh real PostgreSQL (as tests/bot/storage runs)."""
    if request.param == "sqlite":
        yield store
        return
    async with fresh_database(request.getfixturevalue("postgres_server")) as url:
        opened = await open_store(url)
        try:
            yield opened
        finally:
            await opened.close()


async def test_the_reads_are_bounded_finished_and_carry_the_best_found_later(
    both_stores: Store,
) -> None:
    store = both_stores
    games = [played("1", [(PLAIN, False)] * 2) for _ in range(3)]
    for index, game in enumerate(games):
        await store.games.save_game(replace(game, created_at=START + index), now=START + index)
    running = rules.apply(
        rules.new_game(uuid.uuid4().hex, rules.Mode.TRAINING, DARTS, ["1"]),
        rules.StartRound("1234", START),
    )
    await store.games.save_game(record(running), now=START + 10)
    await store.games.save_game(played("2", [(PLAIN, False)], guild=GUILD + 1), now=START)
    newest = games[-1]
    bare = replace(newest, meta=GameMeta())  # its best found after: in `best_answers`
    await store.games.save_game(bare, now=START + 2)
    for reveal in newest.meta.best:
        await store.best.keep(newest.state.id, reveal)

    own = await store.fairplay.player_finished(GUILD, 1, 2)
    assert [r.state.id for r in own] == [newest.state.id, games[1].state.id]
    assert own[0].meta.best == newest.meta.best
    server = await store.fairplay.server_finished(GUILD, 10)
    assert {r.state.id for r in server} == {g.state.id for g in games}
    assert len(await store.fairplay.server_finished(GUILD, 1)) == 1
    assert await store.fairplay.player_finished(GUILD, 3, 10) == []


def test_the_bots_own_seat_in_practice_is_not_one_of_the_servers_players() -> None:
    state = rules.new_game(uuid.uuid4().hex, rules.Mode.PRACTICE, DARTS, ["2", "practice"])
    for number in range(MIN_ROUNDS):
        state = rules.apply(state, rules.StartRound("1234", 200.0 * number))
        state = rules.apply(state, rules.Submit("2", PLAIN, 1, 200.0 * number + 10))
        state = rules.apply(state, rules.Submit("practice", SOLVED, 2, 200.0 * number + 1))
    state = rules.apply(state, rules.Resign("2"))
    best = []
    for played_round in state.rounds:
        answer = played_round.answers[1]
        assert answer is not None
        best.append(Reveal(played_round.number, 1, "best", 2, 2, float(answer.score)))
    practice = replace(record(state), meta=GameMeta(best=tuple(best)))
    signals = report([practice], [practice], "2")
    assert signals.player.answered == MIN_ROUNDS and signals.matched.of == 0
    assert profile([practice], "practice").games == 0
