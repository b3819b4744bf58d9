"""The suite's order (tests/support/ordering.py): the known-long modules first, by rank,
every module whole and in its own order, nothing lost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import pytest

from tests.support.ordering import LONG_FIRST, long_first
from tests.support.paths import ROOT


@dataclass
class Named:
    nodeid: str


def test_long_modules_go_first_by_rank_and_the_rest_keep_their_order() -> None:
    first, second = LONG_FIRST[0], LONG_FIRST[1]
    ids = [
        "tests/a_test.py::one",
        f"{second}::x[1]",
        "tests/b_test.py::two",
        f"{first}::only",
        f"{second}::x[2]",
        "tests/a_test.py::three",
    ]
    items = cast(list[pytest.Item], [Named(i) for i in ids])
    long_first(items)
    assert [item.nodeid for item in items] == [
        f"{first}::only",
        f"{second}::x[1]",
        f"{second}::x[2]",
        "tests/a_test.py::one",
        "tests/b_test.py::two",
        "tests/a_test.py::three",
    ]


def test_every_listed_module_exists() -> None:
    """A module renamed away would silently lose its place at the front."""
    missing = [path for path in LONG_FIRST if not (ROOT / path).is_file()]
    assert missing == []
