"""Scalars YAML reads as values it cannot build: every one a Set problem, never a traceback.

YAML 1.1 reads `2001-13-45` as a date and `1:59:59` as a number (base 60); an
admin who meant text, or who sends hostile text, must get a problem with the
line and a code, all of them at once (issue 21).
"""

from __future__ import annotations

import pytest

from rules._bounded_yaml import MAX_NUMBER
from rules.sets import SetsError, parse_sets

FIELDS = "  start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n  time_limit: 60\n"
HUGE = {
    "decimal": "1" * 5000,
    "hex": "0x" + "f" * 5000,
    "binary": "0b" + "1" * 20000,
    "octal": "0" + "7" * 5000,
    "base 60": "1" + ":59" * 3000,
    "underscores": "1_" * 3000 + "1",
}


def problems(text: str) -> list[tuple[str, dict[str, object]]]:
    with pytest.raises(SetsError) as caught:
        parse_sets(text)
    for problem in caught.value.problems:
        assert len(str(problem)) < 400
    return [(p.code, dict(p.params)) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("scalar", "column"),
    [
        ("2001-13-45", 16),
        ("2001-02-30", 16),
        ("2001-01-01 25:00:00", 16),
        ("2001-01-01 23:60:00", 16),
    ],
)
def test_an_impossible_date_is_a_problem(scalar: str, column: int) -> None:
    found = problems(f"x:\n{FIELDS}  description: {scalar}\n")
    assert found == [("yaml_bad_date", {"line": 7, "column": column, "value": scalar})]


def test_an_impossible_date_as_a_set_name_is_a_problem() -> None:
    found = problems(f"2001-02-30:\n{FIELDS}")
    assert found == [("yaml_bad_date", {"line": 1, "column": 1, "value": "2001-02-30"})]


def test_a_time_zone_past_a_day_is_a_problem() -> None:
    found = problems(f"x:\n{FIELDS}  description: 2001-01-01 00:00:00 +99:00\n")
    assert [code for code, _ in found] == ["yaml_bad_date"]


@pytest.mark.parametrize("written", list(HUGE.values()), ids=list(HUGE))
def test_an_integer_too_long_to_build_is_a_problem(written: str) -> None:
    found = problems(f"x:\n{FIELDS}  attempts: {written}\n")
    assert found == [
        (
            "yaml_number_too_long",
            {"line": 7, "column": 13, "value": written[:39] + "…", "length": len(written),
             "max": MAX_NUMBER},
        )
    ]  # fmt: skip


def test_an_integer_too_long_as_a_name_is_a_problem() -> None:
    assert [code for code, _ in problems(f"? {HUGE['hex']}\n: 1\n")] == ["yaml_number_too_long"]


def test_a_long_integer_under_the_limit_is_a_range_problem() -> None:
    found = problems(f"x:\n{FIELDS}  attempts: {'9' * MAX_NUMBER}\n")
    assert [code for code, _ in found] == ["out_of_range"]


@pytest.mark.parametrize(
    ("written", "tag"),
    [("!!int abc", "!!int"), ("!!int ''", "!!int"), ("!!float x", "!!float"),
     ("!!bool maybe", "!!bool"), ("!!timestamp nope", None)],
)  # fmt: skip
def test_an_explicit_tag_its_text_does_not_fit_is_a_problem(written: str, tag: str | None) -> None:
    (code, params), *rest = problems(f"x:\n{FIELDS}  attempts: {written}\n")
    assert rest == []
    if tag is None:
        assert code == "yaml_bad_date"
    else:
        assert (code, params["tag"]) == ("yaml_bad_value", tag)


def test_every_unreadable_value_is_reported_at_once_in_order() -> None:
    text = (
        f"x:\n{FIELDS}  description: 2001-13-45\n"
        f"y:\n{FIELDS}  attempts: {HUGE['base 60']}\n"
        f"2001-02-30:\n{FIELDS}"
    )
    found = problems(text)
    assert [(code, params["line"]) for code, params in found] == [
        ("yaml_bad_date", 7),
        ("yaml_number_too_long", 14),
        ("yaml_bad_date", 15),
    ]


def test_a_real_date_is_still_read_as_one_and_refused_as_text() -> None:
    found = problems(f"x:\n{FIELDS}  description: 2001-02-28\n")
    assert [code for code, _ in found] == ["description_type"]
