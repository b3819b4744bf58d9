"""A Set's `storm_seconds` (RULES.md "Puzzles"): 180 when left out, a whole number of
30 to 3600 seconds when given, not part of the version, kept through a snapshot."""

from __future__ import annotations

import pytest

from rules.sets import CLASSIC, GameSet, SetsError, parse_sets, validate_set

BASE = {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 7, "time_limit": 120}


def test_left_out_it_is_180_and_the_set_exports_as_before() -> None:
    game_set = validate_set("darts", BASE)
    assert game_set.storm_seconds == 180
    assert "storm_seconds" not in game_set.to_dict()
    assert game_set.version == CLASSIC.version


def test_given_it_is_kept_and_changes_no_version() -> None:
    game_set = validate_set("darts", {**BASE, "storm_seconds": 60})
    assert game_set.storm_seconds == 60
    assert game_set.version == CLASSIC.version
    assert GameSet.from_dict(game_set.to_dict()) == game_set
    assert (
        parse_sets(
            "s:\n  start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n"
            "  time_limit: 120\n  storm_seconds: 300\n"
        )["s"].storm_seconds
        == 300
    )


@pytest.mark.parametrize("value", [29, 3601, "long", 1.5, True])
def test_out_of_range_or_not_a_number_is_refused(value: object) -> None:
    with pytest.raises(SetsError) as caught:
        validate_set("darts", {**BASE, "storm_seconds": value})
    assert [p.field for p in caught.value.problems] == ["storm_seconds"]
