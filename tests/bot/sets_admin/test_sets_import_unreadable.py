"""/sets import of a file with values YAML cannot build: each one a translated problem
with its line, nothing saved, never "Something went wrong" (issue 21)."""

from __future__ import annotations

import pytest

from tests.bot.sets_admin.helpers import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIELDS = b"  start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n  time_limit: 60\n"
HOSTILE = (
    b"dates:\n" + FIELDS + b"  description: 2001-13-45\n"
    b"2001-02-30:\n" + FIELDS
    + b"digits:\n" + FIELDS + b"  attempts: " + b"9" * 5000 + b"\n"
    + b"sixty:\n" + FIELDS + b"  min_rounds: 1" + b":59" * 2000 + b"\n"
)  # fmt: skip


async def test_unreadable_values_are_listed_with_their_lines(world) -> None:
    result = await world.a.admin.slash(world.a.channel, "sets import", file=("h.yaml", HOSTILE))
    text = reply_text(result)
    assert "went wrong" not in text
    assert "Nothing was imported: 4 problems" in text
    assert "line 8, column 1: 2001-02-30 reads as a date or time, but there is no such one" in text
    assert "line 7, column 16: 2001-13-45 reads as a date or time" in text
    assert "line 20, column 13: a number of 5000 characters; at most 100 characters." in text
    assert "line 27, column 15: a number of 6001 characters" in text
    assert len(text) < 3000
    assert await world.store.sets.server_sets(world.a.guild.id) == []
    speak(world.env, world.a.admin, "uk")
    result_uk = await world.a.admin.slash(world.a.channel, "sets import", file=("h.yaml", HOSTILE))
    text_uk = reply_text(result_uk)
    assert "рядок 8, позиція 1: 2001-02-30 читається як дата чи час, але такої немає" in text_uk
    assert "рядок 20, позиція 13: число задовге (5000), щонайбільше 100\u00a0символів." in text_uk


async def test_a_tag_its_value_does_not_fit_is_a_problem(world) -> None:
    data = b"x:\n" + FIELDS + b"  attempts: !!int abc\n"
    text = reply_text(
        await world.a.admin.slash(world.a.channel, "sets import", file=("t.yaml", data))
    )
    assert "went wrong" not in text
    assert "line 7, column 13: abc cannot be read as !!int." in text
