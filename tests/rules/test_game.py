"""Game state machines: every end condition of RULES.md, as tables of moves."""

from __future__ import annotations

import json

import pytest

import rules
from rules import (
    CLASSIC,
    AlreadyAnswered,
    DeadlinePassed,
    Expire,
    GameOver,
    GameState,
    Mode,
    NotAPlayer,
    Resign,
    RoundStillOpen,
    StartRound,
    Submit,
    Termination,
    apply,
    new_game,
    ranking_key,
)

T0 = 1_700_000_000.0


def single(mode: Mode = Mode.TRAINING) -> GameState:
    return new_game("g1", mode, CLASSIC, ["alice"])


def duel() -> GameState:
    return new_game("d1", Mode.DUEL, CLASSIC, ["alice", "bob"])


def play_single(results: list[int | float], game_set: rules.GameSet = CLASSIC) -> GameState:
    state = new_game("g", Mode.TRAINING, game_set, ["alice"])
    now = T0
    for result in results:
        state = apply(state, StartRound("3489", now))
        state = apply(state, Submit("alice", "f", result, now + 5))
        now += 10
    return state


def test_seed_game_two_rounds() -> None:
    state = play_single([123, 100])
    assert state.scores == [274]
    assert state.outcome is None
    assert [r.answers[0].points for r in state.rounds if r.answers[0]] == [77, 150]


@pytest.mark.parametrize(
    ("results", "termination", "winner", "perfect", "rounds"),
    [
        # 501 - 501 = 0 at once.
        ([701], Termination.CHECKOUT, 0, True, 1),
        # 501 -> 351 -> 201 -> 51; result 149 gives |100 - 49| = 51 points: 0 in round 4.
        ([100, 100, 100, 149], Termination.CHECKOUT, 0, True, 4),
        # 501 -> 424 -> 274 -> 124 -> 100 (176 gives 24) -> 50 (|100 - 150|) -> 0 in round 6.
        ([123, 100, 100, 176, 100, 50], Termination.CHECKOUT, 0, False, 6),
        # One point a round for seven rounds: finished, not a checkout, not a loss.
        ([1, 1, 1, 1, 1, 1, 1], Termination.MAX_ROUNDS, 0, False, 7),
    ],
)
def test_single_endings(
    results: list[int], termination: Termination, winner: int | None, perfect: bool, rounds: int
) -> None:
    state = play_single(results)  # type: ignore[arg-type]
    assert state.outcome == rules.Outcome(termination, winner, rounds, perfect)
    assert not rules.is_loss(state.outcome)


def test_game_goes_on_until_an_ending() -> None:
    state = play_single([123, 100, 100, 176])
    assert state.scores == [100]
    assert state.outcome is None


def test_score_bounces_up_like_the_original_formula() -> None:
    state = play_single([123, 100, 100, 100, 1234])  # 501,424,274,124,|124-150|=26, then 1034
    assert state.scores == [abs(26 - 1034)]


def test_timeout_loses_a_single_game() -> None:
    state = apply(single(), StartRound("3489", T0))
    with pytest.raises(RoundStillOpen):
        apply(state, Expire(T0 + 119))
    state = apply(state, Expire(T0 + 120))
    assert state.outcome == rules.Outcome(Termination.TIMEOUT, None, 1)
    assert rules.is_loss(state.outcome)
    with pytest.raises(GameOver):
        apply(state, StartRound("1234", T0 + 200))


def test_answer_after_deadline_is_refused() -> None:
    state = apply(single(), StartRound("3489", T0))
    with pytest.raises(DeadlinePassed):
        apply(state, Submit("alice", "34+89", 123, T0 + 120.5))


def test_first_valid_formula_is_final_in_a_duel() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, Submit("alice", "34+89", 123, T0 + 1))
    with pytest.raises(AlreadyAnswered):
        apply(state, Submit("alice", "3*4+89", 101, T0 + 2))


def test_stranger_cannot_answer() -> None:
    state = apply(duel(), StartRound("3489", T0))
    with pytest.raises(NotAPlayer):
        apply(state, Submit("mallory", "34+89", 123, T0 + 1))


def test_duel_round_waits_for_both_then_resolves() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, Submit("alice", "34+89", 123, T0 + 1))
    assert state.scores == [501, 501]  # secret until the round ends
    state = apply(state, Submit("bob", "3*4+89", 101, T0 + 2))
    assert state.scores == [424, 402]
    assert state.rounds[0].resolved


def test_duel_auto_move_at_deadline() -> None:
    state = apply(duel(), StartRound("4589", T0))
    state = apply(state, Submit("alice", "45+89", 134, T0 + 3))
    state = apply(state, Expire(T0 + 120))
    bob = state.rounds[0].answers[1]
    assert bob is not None
    assert (bob.formula, bob.result, bob.auto) == ("45+89", 134, True)
    assert state.scores == [501 - 66, 501 - 66]


def test_auto_move_with_leading_zero_half() -> None:
    assert rules.auto_move("4508") == ("45+0+8", 53)


@pytest.mark.parametrize(
    ("alice", "bob", "winner", "termination"),
    [
        (701, 123, 0, Termination.CHECKOUT),
        (123, 701, 1, Termination.CHECKOUT),
        (701, 701, None, Termination.CHECKOUT),
    ],
)
def test_duel_checkout_win_and_draw(
    alice: int, bob: int, winner: int | None, termination: Termination
) -> None:
    state = apply(duel(), StartRound("7001", T0))
    state = apply(state, Submit("alice", "a", alice, T0 + 1))
    state = apply(state, Submit("bob", "b", bob, T0 + 1))
    assert state.outcome == rules.Outcome(termination, winner, 1, True)


def test_duel_max_rounds_is_a_draw() -> None:
    state = duel()
    for n in range(7):
        state = apply(state, StartRound("1111", T0 + n * 200))
        if n == 0:  # somebody played (a duel of auto-moves alone is void)
            state = apply(state, Submit("alice", "11+11", 22, T0 + 1))
        state = apply(state, Expire(T0 + n * 200 + 120))
    assert state.outcome == rules.Outcome(Termination.MAX_ROUNDS, None, 7)
    assert not rules.is_loss(state.outcome, 0)


def test_duel_resign_gives_the_opponent_the_win() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, Resign("bob"))
    assert state.outcome == rules.Outcome(Termination.RESIGN, 0, 1)
    assert rules.is_loss(state.outcome, 1)


def test_single_resign_is_a_loss() -> None:
    state = apply(apply(single(), StartRound("3489", T0)), Resign("alice"))
    assert state.outcome is not None
    assert rules.is_loss(state.outcome)


def test_an_action_apply_does_not_know_is_refused_not_taken_for_a_resignation() -> None:
    """`apply` dispatches by `match` and `assert_never`: anything that is not one of the
    `Action`s raises (the old last `else` resigned whatever had a `player`)."""
    from types import SimpleNamespace

    state = apply(single(), StartRound("3489", T0))
    with pytest.raises(AssertionError):
        apply(state, SimpleNamespace(player="alice"))  # type: ignore[arg-type]
    assert state.outcome is None


def test_state_round_trips_through_json() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, Submit("alice", "7/2", 3.5, T0 + 1))
    state = apply(state, Submit("bob", "34+89", 123, T0 + 2))
    state = apply(state, StartRound("1234", T0 + 10))
    text = json.dumps(state.to_dict())
    back = GameState.from_dict(json.loads(text))
    assert back == state
    assert isinstance(back.scores[0], float)
    assert isinstance(back.scores[1], int)


def test_apply_leaves_the_old_state_alone() -> None:
    before = single()
    after = apply(before, StartRound("3489", T0))
    assert before.rounds == []
    assert len(after.rounds) == 1


def test_ranking_order() -> None:
    perfect = play_single([701])
    slow_checkout = play_single([123, 100, 100, 176, 100, 50])
    finished_low = play_single([1] * 7)
    timeout = apply(apply(single(), StartRound("3489", T0)), Expire(T0 + 120))
    finished_high = play_single([100] * 6 + [1234])  # type: ignore[arg-type]
    assert finished_low.scores[0] < finished_high.scores[0]
    ordered = sorted(
        [timeout, finished_high, slow_checkout, finished_low, perfect], key=ranking_key
    )
    assert ordered == [perfect, slow_checkout, finished_low, finished_high, timeout]


def test_ranking_ties_by_answer_time() -> None:
    fast = apply(apply(single(), StartRound("7001", T0)), Submit("alice", "700+1", 701, T0 + 3))
    slow = apply(apply(single(), StartRound("7001", T0)), Submit("alice", "700+1", 701, T0 + 30))
    assert ranking_key(fast) < ranking_key(slow)


def test_replay_round_keeps_digits_and_answers_with_a_fresh_deadline() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, Submit("alice", "34+89", 123, T0 + 5))
    with pytest.raises(RoundStillOpen):
        apply(state, rules.ReplayRound(T0 + 60))
    replayed = apply(state, rules.ReplayRound(T0 + 500))
    rnd = replayed.rounds[-1]
    assert (rnd.digits, rnd.started_at, rnd.deadline) == ("3489", T0 + 500, T0 + 620)
    assert rnd.answers[0] == state.rounds[-1].answers[0]
    assert rnd.answers[1] is None
    replayed = apply(replayed, Submit("bob", "3*4+89", 101, T0 + 530))
    assert replayed.scores == [424, 402]


# ------------------------------------------------ the legality query beside apply(Submit)


def _timed_out() -> GameState:
    state = apply(single(), StartRound("3489", T0))
    return apply(state, Expire(T0 + 120))


def _answered_round_one() -> GameState:
    state = apply(single(), StartRound("3489", T0))
    state = apply(state, Submit("alice", "34+89", 123, T0 + 5))
    return apply(state, StartRound("2476", T0 + 10))


def _between_rounds() -> GameState:
    state = apply(single(), StartRound("3489", T0))
    return apply(state, Submit("alice", "34+89", 123, T0 + 5))


def _duel_half_answered() -> GameState:
    state = apply(duel(), StartRound("3489", T0))
    return apply(state, Submit("alice", "34+89", 123, T0 + 5))


@pytest.mark.parametrize(
    ("make", "player", "now", "number", "problem"),
    [
        (lambda: apply(single(), StartRound("3489", T0)), "alice", T0 + 1, None, None),
        (lambda: apply(single(), StartRound("3489", T0)), "alice", T0 + 1, 1, None),
        (lambda: apply(single(), StartRound("3489", T0)), "mallory", T0 + 1, 1, "not_a_player"),
        (lambda: apply(single(), StartRound("3489", T0)), "alice", T0 + 121, 1, "deadline_passed"),
        (_timed_out, "alice", T0 + 121, 1, "deadline_passed"),
        (_timed_out, "alice", T0 + 121, None, "deadline_passed"),
        (_answered_round_one, "alice", T0 + 11, 1, "round_over"),
        (_answered_round_one, "alice", T0 + 11, 2, None),
        (_answered_round_one, "alice", T0 + 11, 3, "no_open_round"),
        (_between_rounds, "alice", T0 + 6, 1, "round_over"),
        (_between_rounds, "alice", T0 + 6, None, "no_open_round"),
        (_duel_half_answered, "alice", T0 + 6, 1, "already_answered"),
        (_duel_half_answered, "bob", T0 + 6, 1, None),
        (lambda: apply(single(), Resign("alice")), "alice", T0, None, "game_over"),
        (single, "alice", T0, None, "no_open_round"),
    ],
)
def test_submit_problem_names_each_cause(make, player, now, number, problem) -> None:
    state = make()
    found = rules.submit_problem(state, player, now, number)
    assert (None if found is None else found.code) == problem
    if problem is None or state.outcome is not None or number is not None:
        return
    with pytest.raises(rules.RulesError) as refused:  # apply refuses with the same error
        apply(state, Submit(player, "f", 1, now))
    assert refused.value.code == problem


def test_apply_refuses_what_submit_problem_names() -> None:
    state = _duel_half_answered()
    with pytest.raises(AlreadyAnswered):
        apply(state, Submit("alice", "1234", 1234, T0 + 7))
    with pytest.raises(DeadlinePassed):
        apply(state, Submit("bob", "1234", 1234, T0 + 200))


def test_an_old_round_that_timed_out_unanswered_is_too_late_not_over() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, Submit("alice", "34+89", 123, T0 + 5))
    state = apply(state, Expire(T0 + 120))  # bob gets the auto-move
    state = apply(state, StartRound("2476", T0 + 121))
    bob = rules.submit_problem(state, "bob", T0 + 122, 1)
    alice = rules.submit_problem(state, "alice", T0 + 122, 1)
    assert bob is not None and bob.code == "deadline_passed"
    assert alice is not None and alice.code == "round_over"


# ------------------------------------------------ a late post does not cost the players


def test_a_round_shown_late_times_answers_from_the_post_and_extends_the_deadline() -> None:
    state = apply(single(), StartRound("3489", T0))
    state = apply(state, rules.RoundShown(T0 + 4))  # the post took 4 s to appear
    state = apply(state, rules.RoundShown(T0 + 9))  # told once
    rnd = state.rounds[0]
    assert rnd.shown_at == T0 + 4 and rnd.deadline == T0 + 120
    assert rnd.answer_deadline == T0 + 124
    assert rules.submit_problem(state, "alice", T0 + 123, 1) is None
    with pytest.raises(RoundStillOpen):
        apply(state, Expire(T0 + 122))
    answered = apply(state, Submit("alice", "34+89", 123, T0 + 14))
    assert answered.rounds[0].answers[0].elapsed == 10.0  # type: ignore[union-attr]
    assert rules.submit_problem(state, "alice", T0 + 124.5, 1).code == "deadline_passed"  # type: ignore[union-attr]
    timed_out = apply(state, Expire(T0 + 124))
    assert timed_out.outcome.termination is Termination.TIMEOUT  # type: ignore[union-attr]


def test_a_post_dated_before_the_start_counts_as_the_start() -> None:
    state = apply(single(), StartRound("3489", T0))
    state = apply(state, rules.RoundShown(T0 - 3))  # Discord's clock runs behind ours
    assert state.rounds[0].opened_at == T0 and state.rounds[0].answer_deadline == T0 + 120


def test_void_ends_a_game_without_a_result() -> None:
    state = apply(duel(), StartRound("3489", T0))
    state = apply(state, rules.Void())
    assert state.outcome == rules.Outcome(Termination.VOID, None, 1)
    assert state.current_round is None
    assert not rules.is_loss(state.outcome, 0) and not rules.is_loss(state.outcome, 1)
    with pytest.raises(GameOver):
        apply(state, StartRound("1234", T0 + 1))
    assert ranking_key(apply(apply(single(), StartRound("1234", T0)), rules.Void()))[0] == 2


def test_apply_leaves_the_state_it_was_given_as_it_was() -> None:
    """Each step is a new state: the service keeps the old one until the new one is saved."""
    state = new_game("g", Mode.DUEL, CLASSIC, ["a", "b"])
    state = apply(state, StartRound("1234", T0))
    state = apply(state, Submit("a", "12+34", 46, T0 + 5))
    before = json.dumps(state.to_dict())
    after = apply(state, Submit("b", "1+2+3+4", 10, T0 + 6))
    after = apply(after, StartRound("5678", T0 + 10))
    after.rounds[0].answers[0].formula = "changed"  # type: ignore[union-attr]  # nothing of `after` is shared with `state`
    after.players[0], after.scores[0] = "x", 0
    assert json.dumps(state.to_dict()) == before
