"""How accuracy is defined (bot/play/_best.py) and how the summary labels it (issue 21:
a Perfect game read "Accuracy 51 %", and a duel's lines had no label at all)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rules
from bot.games._summary import summary_messages
from bot.play._best import accuracy, round_accuracy
from bot.storage import GameMeta, GameRecord, Reveal
from tests.support.played import PERFECT, play
from tests.support.sim import embed_text


def revealed(record: GameRecord, scores: dict[tuple[int, int], float]) -> GameRecord:
    """`record` with a best answer per (round, seat) leaving the Score given."""
    best = tuple(Reveal(n, seat, "best", 0, 0, score) for (n, seat), score in scores.items())
    return replace(record, meta=GameMeta(best=best))


def checkouts(record: GameRecord, seats: int = 1) -> GameRecord:
    """Every round's best answer a checkout: four Digits usually allow one (701 or -501)."""
    numbers = range(1, len(record.state.rounds) + 1)
    return revealed(record, {(n, s): 0 for n in numbers for s in range(seats)})


def test_a_perfect_game_is_100_percent_whatever_the_rounds_allowed() -> None:
    record = checkouts(play(PERFECT))
    assert record.state.outcome.perfect  # type: ignore[union-attr]
    assert accuracy(record, 0) == 1.0  # the old mean of the rounds was 51 %


def test_rounds_that_keep_a_perfect_in_reach_did_all_a_perfect_asks() -> None:
    # 150 a round (the Goal hit, the Bonus won): 501 -> 351 -> 201, a Perfect in 4 in
    # reach after each, though a checkout was possible every round
    record = checkouts(
        play([("9010", [("90+10", 100)]), ("9010", [("90+10", 100)])], until_over=True)
    )
    assert [round_accuracy(record.state, r) for r in record.meta.best] == [1.0, 1.0]


def test_a_duel_cut_short_by_the_opponent_still_reads_the_pace() -> None:
    rounds = [
        ("9010", [("90+10", 100), ("90+10", 100)]),  # both 501 -> 351
        ("5510", [("5+5+1+0", 11), ("551+0", 551)]),  # 351 -> 340; |100 - 451| = 351 -> 0
    ]
    record = checkouts(play(rounds, mode=rules.Mode.DUEL), seats=2)
    assert record.state.outcome.winner == 1  # type: ignore[union-attr]
    # seat 0: round 1 on pace; round 2 left 340, a Perfect out of reach: 11 of 351 the best took
    assert accuracy(record, 0) == pytest.approx((1.0 + 11 / 351) / 2)
    assert accuracy(record, 1) == 1.0


def test_off_pace_a_round_is_the_part_of_the_best_way_taken() -> None:
    record = revealed(play([("3489", [("34+89", 123)])], until_over=True), {(1, 0): 301})
    # 501 -> 424 where the best left 301: 77 of 200
    assert accuracy(record, 0) == pytest.approx(77 / 200)
    bounced = revealed(play([("1234", [("1234", 1234)])], until_over=True), {(1, 0): 301})
    assert accuracy(bounced, 0) == 0.0  # 501 -> |501 - 1034| = 533: up, not toward it


def test_matching_or_beating_the_best_is_100_percent() -> None:
    record = revealed(play([("3489", [("34+89", 123)])], until_over=True), {(1, 0): 424})
    assert accuracy(record, 0) == 1.0
    assert accuracy(revealed(record, {(1, 0): 500}), 0) == 1.0


def test_no_best_answer_found_is_no_accuracy() -> None:
    assert accuracy(replace(play(PERFECT), meta=GameMeta()), 0) is None


@pytest.mark.parametrize("mode", [rules.Mode.DUEL, rules.Mode.PRACTICE])
@pytest.mark.parametrize(
    ("locale", "label"), [("en", "accuracy 100\u00a0%"), ("uk", "точність 100\u00a0%")]
)
def test_a_duels_accuracy_lines_are_labelled(mode, locale, label) -> None:
    rounds = [("7001", [("700+1", 701), ("700+1", 701)])]
    record = checkouts(play(rounds, mode=mode), seats=2)
    text = embed_text(summary_messages(record, [], locale)[0][0])
    for player in record.state.players:
        assert f"<@{player}>: {label}" in text, text
