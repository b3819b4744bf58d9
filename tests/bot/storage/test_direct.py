"""The save's statements' `?` values (`_direct._Compiled.values`): in the compiled SQL's
order, the row's own values first, else the statement's fixed ones (`resolved=True`)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.dialects import sqlite

from bot.storage import _advance, _changes
from bot.storage._direct import _Compiled
from bot.storage._models import RoundRow, table

_rounds = table(RoundRow)


def by_name(compiled: _Compiled, row: dict[str, Any]) -> tuple[Any, ...]:
    """What the values are: each `?`'s name looked up in the row, else in the fixed ones."""
    return tuple(row[n] if n in row else compiled.fixed[n] for n in compiled.names)


@pytest.mark.parametrize(
    "statement",
    [_advance.STEP, _advance.GOING_ON, _advance.SEAT, _changes.RESOLVE, _changes.REPLAY],
)
def test_the_values_follow_the_sql_and_fill_the_fixed_ones(statement: Any) -> None:
    compiled = _Compiled(sqlite.dialect(), statement)
    row = {name: f"v-{name}" for name in compiled.names if name not in compiled.fixed}
    assert compiled.values(row) == by_name(compiled, row)
    assert len(compiled.values(row)) == compiled.sql.count("?")
    if compiled.fixed:  # RESOLVE: `resolved=True` is the statement's own (an unnamed bind)
        (name, value), *_ = compiled.fixed.items()
        assert value is True and True in compiled.values(row)
        assert compiled.values({**row, name: 0}) == by_name(compiled, {**row, name: 0})
    with pytest.raises(KeyError):
        compiled.values({})


def test_one_value_and_none_are_tuples_too() -> None:
    one = _Compiled(sqlite.dialect(), _rounds.update().values(digits=sa.bindparam("d")))
    assert one.names == ("d",) and one.values({"d": "1234", "x": 1}) == ("1234",)
    none = _Compiled(sqlite.dialect(), _rounds.update().values(resolved=True))
    assert none.values({}) == by_name(none, {})
