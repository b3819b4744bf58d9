"""The embeds from hand-made records, without Discord: wording, languages, paging of rounds."""

from __future__ import annotations

import dataclasses

import pytest

import rules
from bot.leaderboards import _render_player, _render_replay
from bot.leaderboards._pages import (
    PAGE_MAX,
    DuelPages,
    GamePages,
    HistoryPages,
    PageRequest,
    QualificationPages,
    parse_custom_id,
)
from bot.storage import GameRecord, PlayerStats
from bot.views import BoardPeriod, game_result, ranking_result, since
from rules import FormulaLanguage

LONG = dataclasses.replace(rules.CLASSIC, name="long", max_rounds=20, min_rounds=4)


def _played(mode: rules.Mode, players: list[str], results: list[rules.Number]) -> GameRecord:
    state = rules.new_game("abcdef0123456789", mode, LONG, players)
    for number, result in enumerate(results):
        state = rules.apply(state, rules.StartRound("1234", float(number)))
        for player in players:
            state = rules.apply(state, rules.Submit(player, "1234", result, number + 0.5))
    return GameRecord(state=state, guild_id=1, channel_id=2, created_at=1_767_225_600.0)


def test_ranking_results_in_both_languages() -> None:
    assert (
        ranking_result(0, 4, 0.0, True, "en", lang=FormulaLanguage.PHP) == "⭐ Perfect in 4 rounds"
    )
    assert ranking_result(0, 5, 0.0, False, "uk", lang=FormulaLanguage.PHP).startswith(
        "🎯 Рахунок 0 за 5\u00a0раунд"
    )
    assert (
        ranking_result(1, 7, 47.5, False, "en", lang=FormulaLanguage.PHP)
        == "🏁 47.5 left after 7 rounds"
    )
    assert (
        ranking_result(2, 3, 0.0, False, "uk", lang=FormulaLanguage.PHP) == "⌛ програно в раунді 3"
    )
    assert (
        ranking_result(0, 1, 0.0, True, "en", lang=FormulaLanguage.PHP) == "⭐ Perfect in 1 round"
    )


def test_history_result_from_each_side_of_a_duel() -> None:
    draw = _played(rules.Mode.DUEL, ["1", "2"], [1] * 20)
    assert game_result(draw, "1", "en") == "🤝 draw"
    won = _played(rules.Mode.DUEL, ["1", "2"], [])
    won = dataclasses.replace(won, state=rules.apply(won.state, rules.Resign("2")))
    assert game_result(won, "1", "en") == "🏆 won"
    assert game_result(won, "2", "uk") == "❌ поразка"
    playing = _played(rules.Mode.TRAINING, ["1"], [1, 1])
    assert game_result(playing, "1", "en") == "▶ playing, round 2"


def test_a_long_game_replays_ten_rounds_a_page() -> None:
    record = _played(rules.Mode.TRAINING, ["1"], [1] * 20)
    assert _render_replay.round_pages(record) == 2
    second = _render_replay.game_embed(record, 1, "en")
    rounds = second.fields[-1]
    assert rounds.name == "Rounds 11–20 of 20"
    assert rounds.value.count("\n") == 9  # type: ignore[union-attr]
    assert second.footer.text == "Page 2 of 2 · January 1, 2026, 12:00\u202fAM UTC"


def test_a_loss_says_whether_it_was_a_resignation_or_a_timeout() -> None:
    resigned = _played(rules.Mode.QUALIFICATION, ["1"], [1])
    resigned = dataclasses.replace(
        resigned, state=rules.apply(resigned.state, rules.StartRound("1234", 10.0))
    )
    resigned = dataclasses.replace(resigned, state=rules.apply(resigned.state, rules.Resign("1")))
    assert game_result(resigned, "1", "en") == "🏳️ resigned in round 2"
    assert game_result(resigned, "1", "uk") == "🏳️ гру здано в раунді 2"
    timeout = _played(rules.Mode.QUALIFICATION, ["1"], [1])
    timeout = dataclasses.replace(
        timeout, state=rules.apply(timeout.state, rules.StartRound("1234", 10.0))
    )
    timeout = dataclasses.replace(
        timeout, state=rules.apply(timeout.state, rules.Expire(10.0 + LONG.time_limit))
    )
    assert game_result(timeout, "1", "en") == "⌛ time ran out in round 2"
    assert ranking_result(2, 1, 501.0, False, "en", "resign", lang=FormulaLanguage.PHP).startswith(
        "🏳️"
    )


def test_a_huge_average_is_shown_in_e_notation() -> None:
    def shown(avg: float) -> str:
        embed = _render_player.stats_embed(
            PlayerStats(1, 1, rounds=1, avg_points=avg),
            "a",
            "en",
            best_language=FormulaLanguage.PHP,
        )
        return next(f.value for f in embed.fields if "points per round" in f.name.lower())  # type: ignore[return-value, union-attr]

    assert shown(float(34**89)).startswith("2.002735595342647E+136 ")
    assert len(shown(float(34**89))) < 40
    assert shown(-(10.0**20)).startswith("-1.0E+20 ")
    assert shown(123.456).startswith("123.5 ")
    assert shown(999_999_999_999_999.0).startswith("999999999999999.0 ")


def test_periods_and_custom_ids() -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 3, 1, 23, 59, tzinfo=UTC)
    assert since(BoardPeriod.TODAY, now) == "2026-03-01"
    assert since(BoardPeriod.WEEK, now) == "2026-02-23"
    assert since(BoardPeriod.ALL, now) is None
    board = QualificationPages(BoardPeriod.WEEK, "my-set_2", "0123456789")
    request = PageRequest(board, 123456789012345678, 3)
    assert request.custom_id == "fd:pg:q:123456789012345678:3:week:my-set_2:0123456789"
    assert len(PageRequest(GamePages("x" * 40), 2**64 - 1, PAGE_MAX).custom_id) <= 100


ROUND_TRIPS = [
    PageRequest(QualificationPages(BoardPeriod.TODAY, "darts", "0123456789"), 1),
    PageRequest(QualificationPages(BoardPeriod.ALL, "a-b_c", ""), 5, 12),  # before versions
    PageRequest(QualificationPages(BoardPeriod.WEEK, "darts", None), 5, 1),  # before `version`
    PageRequest(DuelPages(), 2**64 - 1, PAGE_MAX),
    PageRequest(HistoryPages(1_400_000_000_000_000_001), 7, 2),
    PageRequest(GamePages("0123456789abcdef0123456789abcdef"), 7, 3),
    PageRequest(GamePages("abcd"), 7),
]


@pytest.mark.parametrize("request_", ROUND_TRIPS, ids=lambda r: r.custom_id)
def test_a_page_request_round_trips_through_its_custom_id(request_: PageRequest) -> None:
    assert parse_custom_id(request_.custom_id) == request_
    assert len(request_.custom_id) <= 100


def test_buttons_posted_by_earlier_versions_still_parse() -> None:
    """What Discord still carries on old messages: a board before Set versions existed
    (no version part: every version, as then) and one of pre-version games ("")."""
    old = parse_custom_id("fd:pg:q:42:1:week:darts")
    assert old == PageRequest(QualificationPages(BoardPeriod.WEEK, "darts", None), 42, 1)
    legacy = parse_custom_id("fd:pg:q:42:0:all:darts:")
    assert legacy == PageRequest(QualificationPages(BoardPeriod.ALL, "darts", ""), 42, 0)
    assert parse_custom_id("fd:pg:d:42:3:") == PageRequest(DuelPages(), 42, 3)


@pytest.mark.parametrize(
    "custom_id",
    [
        "fd:pg:q:42:0:yesterday:darts:",  # no such period
        "fd:pg:q:42:0::darts:",
        "fd:pg:q:42:0:today::",  # no Set
        "fd:pg:q:42:0:today:dаrts:",  # a Cyrillic а: no Set can be called that
        "fd:pg:q:42:0:today:darts:XYZ",  # not a version
        "fd:pg:q:42:0:today:darts:0123:456",
        "fd:pg:h:42:0:alice",  # not a user id
        "fd:pg:h:42:0:",
        "fd:pg:h:42:0:99999999999999999999",  # beyond a snowflake
        "fd:pg:h:42:0:١٢٣",  # digits Python would read, Discord never sends
        "fd:pg:g:42:0:",
        "fd:pg:g:42:0:<script>",
        "fd:pg:g:42:0:" + "a" * 41,
        "fd:pg:d:42:0:extra",
        "fd:pg:x:42:0:",  # no such kind
        "fd:pg:q:99999999999999999999:0:today:darts:",  # owner beyond a snowflake
        "fd:pg:d:42:1000001:",  # past any list
        "fd:pg:d:42:99999999999999999999999:",  # an offset SQLite cannot hold
        "fd:pg:d:-1:0:",
        "fd:pg:d:42:0:\n",
        "fd:pg:d:42:0",
        "fd:pg:",
        "fd:pg:h:42:0:1\n",
        "fd:rematch:abc",
    ],
)
def test_a_custom_id_this_bot_never_made_is_refused(custom_id: str) -> None:
    assert parse_custom_id(custom_id) is None


def test_a_replay_page_keeps_every_round_whole_and_names_auto_moves() -> None:
    """Ten rounds of 256-character formulas in a duel: no round lost, no line cut."""
    state = rules.new_game("abcdef0123456789", rules.Mode.DUEL, LONG, ["1", "2"])
    formula = "1+" * 126 + "1234"
    for number in range(10):
        state = rules.apply(state, rules.StartRound("1234", float(number * 1000)))
        state = rules.apply(state, rules.Submit("1", formula, 1, number * 1000 + 1.0))
        state = rules.apply(state, rules.Expire(number * 1000 + LONG.time_limit))
    embed = _render_replay.game_embed(
        GameRecord(state=state, guild_id=1, channel_id=2, created_at=1_767_225_600.0), 0, "en"
    )
    rounds = [f for f in embed.fields if f.name.startswith("Rounds")]  # type: ignore[union-attr]
    lines = [line for field in rounds for line in field.value.split("\n")]  # type: ignore[union-attr]
    assert [line.split("`")[1] for line in lines] == [str(n) for n in range(1, 11)]
    assert all(len(field.value) <= 1024 for field in rounds)  # type: ignore[arg-type]
    assert all(formula in line and line.count("`") % 2 == 0 for line in lines)
    auto = rules.auto_move("1234")[0]
    assert all(f"`{auto}` (auto-move)" in line for line in lines)
    assert len(embed) <= 6000


def test_a_game_before_its_first_round_is_in_round_1_not_0() -> None:
    fresh = _played(rules.Mode.TRAINING, ["1"], [])
    assert game_result(fresh, "1", "uk") == "▶ триває, раунд 1"


def test_stats_round_an_average_half_up_as_players_expect() -> None:
    def shown(avg: float, locale: str) -> str:
        embed = _render_player.stats_embed(
            PlayerStats(1, 1, rounds=1, avg_points=avg),
            "a",
            locale,
            best_language=FormulaLanguage.PHP,
        )
        return str(embed.fields[3].value)

    assert shown(125.25, "en").startswith("125.3 "), shown(125.25, "en")
    assert shown(125.25, "uk").startswith("125,3 ")
    assert shown(0.05, "en").startswith("0.1 ") and shown(2.45, "en").startswith("2.5 ")
