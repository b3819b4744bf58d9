"""The share card spoils nothing: no Digits, formula or Result of any round, in either language."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date
from zoneinfo import ZoneInfo

import pytest
from babel.dates import format_date
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from bot.common import fmt
from bot.i18n import catalog
from bot.share import EMOJI, Mark, round_mark, share_card
from bot.storage import GameRecord
from rules import FormulaLanguage
from tests.support.played import BOUNCING, PERFECT, START, play

CLASSIC = rules.CLASSIC
DUEL = [
    ("3489", [("34+89", 123), ("3*4+89", 101)]),
    ("2476", [("2*47+6", 100), None]),
    ("9010", [("90+10", 100), ("9*0+10", 10)]),
    ("3240", [("324+0", 324), ("3*240", 720)]),
]
HAND_MADE = {
    "perfect": play(PERFECT),
    "bouncing qualification": play(BOUNCING, mode=rules.Mode.QUALIFICATION, period="2025-11-30"),
    "timeout": play([*PERFECT[:2], ("9010", [None])]),
    "duel": play(DUEL, mode=rules.Mode.DUEL),  # type: ignore[arg-type]
    "resigned duel": play(DUEL[:3], mode=rules.Mode.DUEL, resign_after=2),  # type: ignore[arg-type]
}


def emoji_count(text: str) -> int:
    return sum(text.count(emoji) for emoji in EMOJI.values())


def spoilers(record: GameRecord) -> set[str]:
    """Every round's Digits, formulas and Results, as the game's messages print them."""
    found = set()
    for rnd in record.state.rounds:
        found.add(rnd.digits)
        for answer in rnd.answers:
            if answer is not None:
                found.update(
                    {answer.formula, fmt(answer.result, FormulaLanguage.PHP), str(answer.result)}
                )
    return found


@pytest.mark.parametrize("locale", ["en", "uk"])
@pytest.mark.parametrize("name", list(HAND_MADE))
def test_the_card_holds_no_digits_formula_or_result(name: str, locale: str) -> None:
    record = HAND_MADE[name]
    for player in record.state.players:
        card = share_card(record, player, locale)
        text = card.text()
        assert [s for s in spoilers(record) if s in text] == []
        assert "3489" not in text
        assert "34+89" not in text
        assert emoji_count("\n".join(card.rows)) == len(record.state.rounds)
        assert len(card.marks) == len(record.state.rounds)


def test_the_hand_made_games_hold_the_spoilers_looked_for() -> None:
    assert {"3489", "34+89", "123"} <= spoilers(HAND_MADE["perfect"])
    assert {"pow(9,9)*99", "38354628411"} <= spoilers(HAND_MADE["bouncing qualification"])


def test_the_hand_made_games_show_the_marks_their_points_earn() -> None:
    cards = {name: share_card(record, "111", "en") for name, record in HAND_MADE.items()}
    assert cards["perfect"].rows == ("🟡🎯🎯✅",)
    assert cards["bouncing qualification"].rows == ("🟡🔴🔴🔴🎯🟡🟡",)
    assert cards["timeout"].rows == ("🟡🎯❌",)
    assert share_card(HAND_MADE["duel"], "222", "en").rows == ("🟢🤖🔴🔴",)
    assert cards["resigned duel"].rows == ("🟡🎯❌",)


@pytest.mark.parametrize(
    ("name", "player", "en", "uk"),
    [
        (
            "perfect",
            "111",
            "⭐ Perfect! ✅ Checkout in 4\u00a0rounds",
            "⭐ Супер-гра! ✅ Рахунок 0 за 4\u00a0раунди",
        ),
        (
            "bouncing qualification",
            "111",
            "🏁 Finished at 335 after 7\u00a0rounds",
            "🏁 Завершено з Рахунком 335 за 7\u00a0раундів",
        ),
        ("timeout", "111", "⌛ Lost: time ran out in round 3", "⌛ Поразка: час вийшов у раунді 3"),
        (
            "duel",
            "111",
            "⭐ Perfect! 🏆 Won: checkout in 4\u00a0rounds",
            "⭐ Супер-гра! 🏆 Перемога: Рахунок 0 за 4\u00a0раунди",
        ),
        (
            "duel",
            "222",
            "🥈 Lost: the opponent checked out in 4\u00a0rounds",
            "🥈 Поразка: у суперника Рахунок 0 за 4\u00a0раунди",
        ),
        ("resigned duel", "111", "🏳️ Lost: resigned in round 3", "🏳️ Поразка: гру здано в раунді 3"),
        ("resigned duel", "222", "🏆 Won: the opponent resigned", "🏆 Перемога: суперник здає гру"),
    ],
)
def test_the_outcome_is_told_from_the_sharing_players_side(
    name: str, player: str, en: str, uk: str
) -> None:
    assert share_card(HAND_MADE[name], player, "en").outcome == en
    assert share_card(HAND_MADE[name], player, "uk").outcome == uk


def test_draws_say_so() -> None:
    both_zero = play(
        [("3489", [("34+89", 123), ("34+89", 123)])],
        mode=rules.Mode.DUEL,
        game_set=rules.GameSet("one", 77, 100, 50, 3, 60, 1),
    )
    assert share_card(both_zero, "111", "en").outcome.startswith("⭐ Perfect! 🤝 Draw: both")
    rounds = [("1234", [("12+34", 46), ("1+2+34", 37)])] * 2
    drawn = play(
        rounds, mode=rules.Mode.DUEL, game_set=rules.GameSet("two", 501, 100, 50, 2, 60, 4)
    )
    assert share_card(drawn, "222", "uk").outcome == "🤝 Нічия, Рахунок 427 після 2\u00a0раундів"


def test_a_void_game_says_void_not_won_or_lost() -> None:
    """The outcome is a `match` on every Termination: a void game (never shared, but a
    pure function of any record) once fell through to "Lost" or "Checkout"."""
    state = rules.new_game("v" * 32, rules.Mode.DUEL, rules.CLASSIC, ["111", "222"])
    state = rules.apply(rules.apply(state, rules.StartRound("3489", 0.0)), rules.Void())
    record = dataclasses.replace(HAND_MADE["duel"], state=state)
    assert share_card(record, "222", "en").outcome == "🚫 Void: the game does not count"
    assert share_card(record, "111", "uk").outcome.startswith("🚫 Гру анульовано")


@pytest.mark.parametrize(
    ("result", "mark"),
    [
        (100, Mark.BONUS),  # the Goal
        (300, Mark.BONUS),  # |100 - 200| = 100: the rules give the bonus here too
        (-100, Mark.BONUS),
        (95, Mark.NEAR),
        (90, Mark.NEAR),  # misses by 10 = G/10
        (89, Mark.MID),
        (109.5, Mark.NEAR),
        (110.5, Mark.MID),  # 89.5 points: misses by 10.5
        (50, Mark.MID),  # misses by 50 = G/2
        (49, Mark.FAR),
        (290, Mark.NEAR),  # |100 - 190| = 90 points: near, though the Result is far
        (1234, Mark.FAR),
        (3.5, Mark.FAR),
        (1.8e308, Mark.FAR),
    ],
)
def test_the_legend_thresholds_come_from_the_goal(result: rules.Number, mark: Mark) -> None:
    points, score = rules.apply_points(501, result, 100, 50, numbers=CLASSIC.language_rules)
    answer = rules.Answer("x", result, points, score, 1.0)
    assert round_mark(answer, CLASSIC) is mark


def test_no_answer_auto_move_and_checkout_come_first() -> None:
    assert round_mark(None, CLASSIC) is Mark.NO_ANSWER
    assert round_mark(rules.Answer("45+89", 134, 66, 435, 120.0, auto=True), CLASSIC) is Mark.AUTO
    assert round_mark(rules.Answer("1*50", 150, 50, 0, 3.0), CLASSIC) is Mark.CHECKOUT
    zero_goal = rules.GameSet("zero", 501, 0, 10, 7, 60, 1)
    assert round_mark(rules.Answer("0*1", 0, 10, 491, 3.0), zero_goal) is Mark.BONUS
    assert round_mark(rules.Answer("1*1", 1, 1, 490, 3.0), zero_goal) is Mark.FAR


def test_the_legend_lists_the_marks_used_in_a_fixed_order() -> None:
    card = share_card(HAND_MADE["timeout"], "111", "en")
    assert card.legend == "🎯 Goal (bonus) · 🟡 halfway · ❌ no answer"
    uk = share_card(HAND_MADE["duel"], "222", "uk")
    assert uk.legend == "🟢 близько · 🔴 далеко · 🤖 автохід"


def test_the_date_is_the_period_or_the_start_in_the_servers_zone() -> None:
    late = dataclasses.replace(play(PERFECT), created_at=START - 1800)  # 23:30 UTC on Nov 29
    assert "November 29, 2025" in share_card(late, "111", "en").title
    assert "30 листопада 2025" in share_card(late, "111", "uk", tz=ZoneInfo("Europe/Kyiv")).title
    qualified = dataclasses.replace(late, period="2025-12-01")
    assert "December 1, 2025" in share_card(qualified, "111", "en", tz=UTC).title


def test_fifty_rounds_fit_one_discord_message_in_rows_of_ten() -> None:
    longest = rules.validate_set(
        "x" * 32,
        {
            "start_score": 100_000, "goal": 100, "bonus": 50, "max_rounds": 50,
            "time_limit": 600, "min_rounds": 50,
        },  # a computed min_rounds (667) is refused: more than max_rounds allows
    )  # fmt: skip
    rounds = [("1234", [("1234", 1234)])] * 49 + [("9999", [None])]
    record = play(rounds, mode=rules.Mode.QUALIFICATION, game_set=longest, period="2025-09-30")
    for locale in ("en", "uk"):
        card = share_card(record, "111", locale)
        text = card.text()
        assert len(card.rows) == 5
        assert all(emoji_count(row) == 10 for row in card.rows)
        assert len(text) <= 2000
        assert len(text.encode("utf-16-le")) // 2 <= 2000


def test_a_set_name_cannot_start_markdown() -> None:
    record = play(PERFECT, game_set=dataclasses.replace(CLASSIC, name="_x_"))
    assert "\\_x\\_" in share_card(record, "111", "en").title


RESULTS = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
)
ANSWERS = st.one_of(st.none(), RESULTS)
PHP_NUMBER = re.compile(r"\d+(?:\.\d+)?(?:E[+-]\d+)?")
"""A number as `fmt` prints it: 7, 274.5, 1.0E+25."""


@st.composite
def games(draw: st.DrawFn) -> GameRecord:
    duel = draw(st.booleans())
    game_set = rules.validate_set(
        "spoiler",
        {
            "start_score": draw(st.integers(1, 2000)),
            "goal": draw(st.integers(0, 500)),
            "bonus": draw(st.integers(0, 200)),
            "max_rounds": draw(st.integers(1, 12)),
            "time_limit": 60,
            "min_rounds": 1,  # given: the computed one may exceed what a Set allows
        },
    )
    rounds = []
    for _ in range(game_set.max_rounds):
        digits = str(draw(st.integers(1000, 9999)))
        answers = [draw(ANSWERS) for _ in range(2 if duel else 1)]
        rounds.append(
            (digits, [None if r is None else (f"{digits[:2]}+{digits[2:]}", r) for r in answers])
        )
    mode = rules.Mode.DUEL if duel else rules.Mode.QUALIFICATION
    return play(rounds, mode=mode, game_set=game_set, period="2025-11-30", until_over=True)


@settings(max_examples=150, deadline=None)
@given(record=games(), locale=st.sampled_from(["en", "uk"]))
def test_the_only_numbers_on_any_card_are_its_date_rounds_and_final_score(
    record: GameRecord, locale: str
) -> None:
    """Whatever was played: take out the date, the rounds played and the final Score,
    and no digit is left (but the 0 of "Score 0")."""
    day = format_date(date(2025, 11, 30), format="long", locale=locale)
    for index, player in enumerate(record.state.players):
        card = share_card(record, player, locale)
        assert emoji_count("".join(card.rows)) == len(record.state.rounds)
        text = card.text().replace(day, "")
        allowed = {
            str(len(record.state.rounds)),
            fmt(record.state.scores[index], FormulaLanguage.PHP),
            "0",
        }
        assert set(PHP_NUMBER.findall(text)) <= allowed, text


def test_every_mark_has_an_emoji_and_a_legend_in_both_languages() -> None:
    assert set(EMOJI) == set(Mark)
    assert len(set(EMOJI.values())) == len(Mark)
    for mark in Mark:
        texts = catalog().messages[f"share.legend.{mark.value}"]
        assert set(texts) == {"en", "uk"}
