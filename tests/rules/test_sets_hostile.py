"""Hostile Sets files: refused before validation, with messages that stay small.

A Sets file comes from any server admin (`/sets import`), so the parser must
not be the thing that hangs the bot. Sizes are asserted, never times.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules._bounded_yaml import MAX_DEPTH
from rules.sets import (
    DESCRIPTION_MAX,
    MAX_PROBLEMS,
    MAX_TEXT,
    SetsError,
    compute_min_rounds,
    parse_sets,
)

SMALL = 600  # characters: a message an admin reads in Discord, never a dump of the input
FIELDS = "start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n  time_limit: 60\n"


def refusal(text: str) -> SetsError:
    with pytest.raises(SetsError) as caught:
        parse_sets(text)
    return caught.value


def alias_bomb() -> str:
    """Nine levels of nine aliases each: 9**9 strings once expanded, under 500 bytes."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in itertools.pairwise("abcdefghi"):
        lines.append(f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]")
    lines.append("x:\n  start_score: *i\n  goal: 100\n  bonus: 50\n  max_rounds: 7")
    return "\n".join(lines) + "\n  time_limit: 60\n"


def test_an_alias_bomb_is_refused_with_a_small_message() -> None:
    bomb = alias_bomb()
    assert len(bomb) < 500
    error = refusal(bomb)
    assert len(str(error)) < SMALL
    assert [p.code for p in error.problems] == ["yaml"]
    assert "aliases" in str(error)


def test_a_single_alias_is_refused_too() -> None:
    error = refusal(f"x: &x\n  {FIELDS}y: *x\n")
    assert "aliases" in str(error)


def test_an_anchor_without_alias_is_fine() -> None:
    assert "x" in parse_sets(f"x: &x\n  {FIELDS}")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000,
        "{a: " * 5000,
        "x: " + "[1, " * 3000,
        "".join(f"{' ' * k}k{k}:\n" for k in range(200)),
    ],
    ids=["flow-lists", "flow-mappings", "under-a-key", "indentation"],
)
def test_deep_nesting_is_refused_with_a_small_message(text: str) -> None:
    error = refusal(text)
    assert len(str(error)) < SMALL
    assert [p.code for p in error.problems] == ["yaml"]
    assert f"nested deeper than {MAX_DEPTH}" in str(error)


def test_nesting_at_the_limit_is_read() -> None:
    # sets › x › its fields › functions › MAX_DEPTH - 5 lists › pow: MAX_DEPTH nodes deep
    deep = "[" * (MAX_DEPTH - 4) + "pow" + "]" * (MAX_DEPTH - 4)
    error = refusal(f"sets:\n  x:\n    {FIELDS.replace(chr(10) + '  ', chr(10) + '    ')}"
                    f"    functions: {deep}\n")  # fmt: skip
    assert "nested deeper" not in str(error)
    assert [p.code for p in error.problems] == ["functions_type"]


def test_the_text_size_is_capped() -> None:
    error = refusal("#" * (MAX_TEXT + 1))
    assert [p.code for p in error.problems] == ["too_large"]
    assert len(str(error)) < SMALL


@pytest.mark.parametrize(
    "value",
    [
        "[" + ", ".join(["7"] * 20000) + "]",
        "'" + "x" * 20000 + "'",
        "{" + "".join(f"k{k}: 1, " for k in range(5000)) + "}",
    ],
    ids=["list", "string", "mapping"],
)
def test_a_huge_value_is_shown_as_a_short_excerpt(value: str) -> None:
    error = refusal(f"x:\n  {FIELDS}  attempts: {value}\n")
    assert len(str(error)) < SMALL
    assert all(len(str(v)) < 100 for p in error.problems for _, v in p.params)


def test_huge_names_are_shown_short() -> None:
    name, field = "n" * 1000, "f" * 1000  # YAML's own limit for a plain key is 1024
    error = refusal(f"{name}:\n  {FIELDS}  {field}: 1\n  functions: [{'z' * 5000}]\n")
    assert len(str(error)) < 2 * SMALL
    assert {p.code for p in error.problems} >= {"name_too_long", "unknown_field"}


def test_problems_are_capped_with_a_count_of_the_rest() -> None:
    text = "".join(f"bad{k}:\n  goal: x\n" for k in range(200))
    error = refusal(text)
    assert len(error.problems) == MAX_PROBLEMS + 1
    last = error.problems[-1]
    assert last.code == "more_problems"
    assert dict(last.params)["count"] > 200  # each bad Set has several problems


def test_description_length_is_capped() -> None:
    fine = parse_sets(f"x:\n  {FIELDS}  description: {'d' * DESCRIPTION_MAX}\n")
    assert len(fine["x"].description) == DESCRIPTION_MAX
    error = refusal(f"x:\n  {FIELDS}  description: {'d' * (DESCRIPTION_MAX + 1)}\n")
    assert [(p.field, p.code) for p in error.problems] == [("description", "description_too_long")]


@pytest.mark.parametrize("max_rounds", [1, 50])
def test_a_computed_min_rounds_out_of_range_is_refused(max_rounds: int) -> None:
    text = f"x:\n  start_score: 501\n  goal: 1\n  bonus: 0\n  max_rounds: {max_rounds}\n"
    error = refusal(text + "  time_limit: 60\n")
    problems = [(p.field, p.code) for p in error.problems]
    assert problems == [("min_rounds", "min_computed_out_of_range")]
    assert dict(error.problems[0].params)["min_rounds"] == 501
    given = parse_sets(text + "  time_limit: 60\n  min_rounds: 1\n")
    assert given["x"].min_rounds == 1  # an admin who gives it takes it


def _min_rounds_by_definition(start: int, goal: int, bonus: int) -> int:
    step = goal + bonus
    return next(
        k
        for k in itertools.count(1)
        if start <= (k - 1) * step + goal or start == k * step or step == 0
    )


@given(st.integers(1, 3000), st.integers(0, 300), st.integers(0, 300))
def test_min_rounds_closed_form_is_the_rules_definition(start: int, goal: int, bonus: int) -> None:
    assert compute_min_rounds(start, goal, bonus) == _min_rounds_by_definition(start, goal, bonus)


def test_min_rounds_of_a_huge_start_is_instant() -> None:
    assert compute_min_rounds(100_000, 1, 0) == 100_000
