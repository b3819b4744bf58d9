"""Sets: the shipped file validates, and a bad file reports every problem at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.sets import (
    BUILTIN_FILE,
    CLASSIC,
    SetsError,
    compute_min_rounds,
    dump_sets,
    load_sets,
    parse_sets,
    validate_set,
)


def test_shipped_sets_are_valid_and_classic_matches_the_rules() -> None:
    sets = load_sets()
    darts = sets["darts"]
    assert (darts.start_score, darts.goal, darts.bonus) == (501, 100, 50)
    assert (darts.max_rounds, darts.time_limit, darts.min_rounds) == (7, 120, 4)
    assert darts.functions == CLASSIC.functions
    assert {"darts", "sprint", "blitz"} <= set(sets)
    assert sets["blitz"].time_limit < sets["darts"].time_limit
    assert sets["sprint"].start_score < sets["darts"].start_score


@pytest.mark.parametrize(
    ("start", "goal", "bonus", "expected"),
    [
        (501, 100, 50, 4),
        (301, 100, 50, 3),
        (100, 100, 50, 1),
        (150, 100, 50, 1),
        (151, 100, 50, 2),
        (300, 100, 50, 2),
        (250, 100, 50, 2),
        (251, 100, 50, 3),
    ],
)
def test_min_rounds_formula(start: int, goal: int, bonus: int, expected: int) -> None:
    assert compute_min_rounds(start, goal, bonus) == expected


def test_min_rounds_computed_when_absent() -> None:
    sets = parse_sets(
        "x:\n  start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n  time_limit: 60\n"
    )
    assert sets["x"].min_rounds == 4


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "sets.yaml"
    path.write_text(
        "ok:\n  start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n  time_limit: 60\n"
        "bad:\n  start_score: 0\n  goal: -1\n  bonus: 50\n  max_rounds: 99\n  time_limit: 5\n"
        "  functions: [pow, system]\n  colour: red\n"
        "Bad Name:\n  goal: 1\n"
    )
    with pytest.raises(SetsError) as caught:
        load_sets(path)
    text = str(caught.value)
    problems = caught.value.problems
    fields = {(p.set_name, p.field) for p in problems}
    assert {
        ("bad", "start_score"),
        ("bad", "goal"),
        ("bad", "max_rounds"),
        ("bad", "time_limit"),
        ("bad", "functions"),
        ("bad", "colour"),
        ("Bad Name", None),
        ("Bad Name", "start_score"),
    } <= fields
    assert all(p.source == str(path) for p in problems)
    assert "system" in text
    assert "from 10 to 600" in text
    assert not any(p.set_name == "ok" for p in problems)


def test_yaml_syntax_error_names_the_line() -> None:
    with pytest.raises(SetsError, match="line 3, column 2"):
        parse_sets("a:\n  goal: 1\n b: 2\n")


def test_dump_then_parse_round_trips() -> None:
    sets = load_sets(BUILTIN_FILE)
    assert parse_sets(dump_sets(sets.values())) == sets


def test_validate_single_set_rejects_unknown_function() -> None:
    fields = {
        "start_score": 301,
        "goal": 100,
        "bonus": 50,
        "max_rounds": 5,
        "time_limit": 30,
        "functions": ["pow", "eval"],
    }
    with pytest.raises(SetsError, match="eval"):
        validate_set("sprint2", fields)
    fields["functions"] = ["pow", "abs", "intdiv"]
    assert validate_set("sprint2", fields).functions == ("pow", "abs", "intdiv")


@pytest.mark.parametrize("name", ["dаrts", "ｄａｒｔｓ", "darts٣", "Darts", "dar ts", "dárts"])
def test_set_names_are_plain_ascii_so_none_can_pass_for_another(name: str) -> None:
    fields = {"start_score": 301, "goal": 100, "bonus": 50, "max_rounds": 5, "time_limit": 30}
    with pytest.raises(SetsError, match="lowercase letters"):
        validate_set(name, fields, reserved={"darts"})
