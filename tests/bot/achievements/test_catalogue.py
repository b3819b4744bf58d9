"""The catalogue, pure (`rules.achievements`): what a finished game, run, room, day or Cup
earns given what the player holds, without a database; and both languages name each."""

from __future__ import annotations

import pytest

from bot.i18n import catalog, t
from rules import Mode
from rules.achievements import (
    Achievement,
    BestScore,
    GameFacts,
    RunKind,
    earned_by_cup,
    earned_by_day_won,
    earned_by_game,
    earned_by_room,
    earned_by_run,
    game_facts,
    matched_best,
)
from tests.bot.storage.builders import CHECKOUT_4, CHECKOUT_5, NO_CHECKOUT, duel, single

A = Achievement
NONE: frozenset[Achievement] = frozenset()


@pytest.mark.parametrize(
    ("facts", "held", "earned"),
    [
        (GameFacts(Mode.TRAINING, False, False, False), NONE, ()),
        (GameFacts(Mode.TRAINING, True, False, False), NONE, (A.FIRST_CHECKOUT,)),
        (GameFacts(Mode.TRAINING, True, True, False), NONE, (A.FIRST_CHECKOUT, A.FIRST_PERFECT)),
        (
            GameFacts(Mode.QUALIFICATION, True, True, False),
            NONE,
            (A.FIRST_CHECKOUT, A.FIRST_PERFECT, A.QUALIFICATION_PERFECT),
        ),
        (
            GameFacts(Mode.QUALIFICATION, True, True, True),
            {A.FIRST_CHECKOUT, A.FIRST_PERFECT},
            (A.QUALIFICATION_PERFECT, A.SOLVER_MATCH),
        ),
        (GameFacts(Mode.DUEL, False, False, True), NONE, (A.SOLVER_MATCH,)),
        (GameFacts(Mode.DUEL, True, True, False), NONE, (A.FIRST_CHECKOUT, A.FIRST_PERFECT)),
        (GameFacts(Mode.QUALIFICATION, False, False, False, 6), NONE, ()),
        (GameFacts(Mode.QUALIFICATION, False, False, False, 7), NONE, (A.STREAK_7,)),
        (GameFacts(Mode.QUALIFICATION, False, False, False, 30), {A.STREAK_7}, (A.STREAK_30,)),
        (
            GameFacts(Mode.QUALIFICATION, False, False, False, 100),
            NONE,
            (A.STREAK_7, A.STREAK_30, A.STREAK_100),
        ),
        (GameFacts(Mode.TRAINING, False, False, False, 100), NONE, ()),  # streaks: Qualification
        (GameFacts(Mode.TRAINING, True, True, True), set(A), ()),  # all held: nothing new
    ],
)
def test_what_a_game_earns(
    facts: GameFacts, held: set[Achievement], earned: tuple[Achievement, ...]
) -> None:
    assert earned_by_game(facts, held) == earned


def test_the_facts_of_played_games() -> None:
    perfect = game_facts(single("g1", 1, CHECKOUT_4), 0)
    assert perfect == GameFacts(Mode.QUALIFICATION, True, True, False)
    late = game_facts(single("g2", 1, CHECKOUT_5, mode=Mode.TRAINING), 0)
    assert late == GameFacts(Mode.TRAINING, True, False, False)
    assert game_facts(single("g3", 1, NO_CHECKOUT), 0) == GameFacts(
        Mode.QUALIFICATION, False, False, False
    )
    running = single("g4", 1, [100])
    assert game_facts(running, 0) is None  # not over: earns nothing yet
    won = duel("d1", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    assert game_facts(won, 0) == GameFacts(Mode.DUEL, True, True, False)
    assert game_facts(won, 1) == GameFacts(Mode.DUEL, False, False, False)


def test_an_answer_as_good_as_the_best_is_a_match_and_an_auto_move_never() -> None:
    state = single("g1", 1, [100, 90, 1, 1, 1, 1, 1], mode=Mode.TRAINING)  # 501→401→311→…
    assert matched_best(state, 0, [BestScore(2, 0, 311)])  # left 311, as the best did
    assert matched_best(state, 0, [BestScore(2, 0, 320)])  # better than the best found
    assert not matched_best(state, 0, [BestScore(2, 0, 250)])
    assert not matched_best(state, 0, [BestScore(2, 1, 311)])  # another seat's best
    assert not matched_best(state, 0, [])
    auto = duel("d1", (1, 2), [(100, None)] * 7)  # seat 1 only ever had the auto-move
    score_after_auto = auto.rounds[0].answers[1]
    assert score_after_auto is not None and score_after_auto.auto
    assert not matched_best(auto, 1, [BestScore(1, 1, score_after_auto.score + 1)])
    assert matched_best(auto, 0, [BestScore(1, 0, 401)])


@pytest.mark.parametrize(
    ("kind", "result", "held", "earned"),
    [
        (RunKind.STORM, 9.99, NONE, ()),
        (RunKind.STORM, 10.0, NONE, (A.STORM_10,)),
        (RunKind.STORM, 31.5, NONE, (A.STORM_10, A.STORM_25)),
        (RunKind.STORM, 31.5, {A.STORM_10}, (A.STORM_25,)),
        (RunKind.STREAK, 10, NONE, (A.PUZZLE_STREAK_10,)),
        (RunKind.STREAK, 25, {A.PUZZLE_STREAK_10, A.PUZZLE_STREAK_25}, ()),
    ],
)
def test_what_a_run_earns(
    kind: RunKind, result: float, held: set[Achievement], earned: tuple[Achievement, ...]
) -> None:
    assert earned_by_run(kind, result, held) == earned


def test_rooms_days_and_cups() -> None:
    assert earned_by_room(10, True, NONE) == (A.ROOM_WIN_10,)
    assert earned_by_room(9, True, NONE) == ()
    assert earned_by_room(12, False, NONE) == ()
    assert earned_by_day_won(NONE) == (A.DAY_WON,)
    assert earned_by_day_won({A.DAY_WON}) == ()
    assert earned_by_cup(NONE) == (A.CUP_CHAMPION,)
    assert earned_by_cup({A.CUP_CHAMPION}) == ()


@pytest.mark.parametrize("locale", ["en", "uk"])
def test_every_achievement_is_named_and_described_in_both_languages(locale: str) -> None:
    texts = catalog()
    for achievement in Achievement:
        for part in ("name", "about"):
            key = f"achievements.{part}.{achievement.value}"
            assert locale in texts.messages[key], key
            assert t(key, locale) and "{" not in t(key, locale)
