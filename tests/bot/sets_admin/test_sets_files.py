"""/sets import and /sets export: YAML attachments, every problem at once, round trips."""

from __future__ import annotations

import pytest
import yaml

import rules
from tests.bot.sets_admin.helpers import QUICK, only_ephemeral, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")

THREE_PROBLEMS = b"""\
fine:
  start_score: 301
  goal: 100
  bonus: 50
  max_rounds: 5
  time_limit: 60
blitzkrieg:
  start_score: 501
  goal: 100
  bonus: 50
  max_rounds: 7
  time_limit: 5
  functions: [pow, exec]
darts:
  start_score: 501
  goal: 100
  bonus: 50
  max_rounds: 7
  time_limit: 120
"""


async def import_file(actor, channel, name: str, data: bytes):
    return await actor.slash(channel, "sets import", file=(name, data))


async def test_an_import_with_three_problems_lists_all_three_and_saves_nothing(world) -> None:
    result = await import_file(world.a.admin, world.a.channel, "mine.yaml", THREE_PROBLEMS)
    assert only_ephemeral(result)
    text = reply_text(result)
    assert "Nothing was imported: 3 problems" in text
    assert "`blitzkrieg` · Time limit (`time_limit`): must be from 10 to 600, got 5." in text
    assert "`blitzkrieg` · Functions (`functions`): not allowed: exec." in text
    assert "`darts`: the name is taken by a global Set" in text
    assert await world.store.sets.server_sets(world.a.guild.id) == []


async def test_bad_yaml_gets_its_parse_error_with_the_line(world) -> None:
    broken = b"fine:\n  start_score: 301\n  goal: [100\n  bonus: 50\n"
    text = reply_text(await import_file(world.a.admin, world.a.channel, "x.yaml", broken))
    assert "Nothing was imported: 1 problem" in text
    assert "not valid YAML at line 4" in text
    speak(world.env, world.a.admin, "uk")
    text_uk = reply_text(await import_file(world.a.admin, world.a.channel, "x.yaml", broken))
    assert "некоректний YAML у рядку 4" in text_uk
    not_text = await import_file(world.a.admin, world.a.channel, "x.yaml", b"\xff\xfe\x00")
    assert "не текст UTF-8" in reply_text(not_text)


async def test_export_then_import_round_trips_and_updates_in_place(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK, description="Fast: 301")
    marathon = {**QUICK, "name": "marathon", "start_score": 5000, "max_rounds": 50}
    marathon |= {"min_rounds": 40, "attempts": 3, "functions": "sqrt intdiv"}
    await world.a.admin.slash(world.a.channel, "sets add", **marathon)
    original = await world.store.sets.server_sets(world.a.guild.id)
    exported = await world.a.admin.slash(world.a.channel, "sets export")
    assert only_ephemeral(exported)
    assert "2 Sets as a file" in reply_text(exported)
    (attachment,) = exported.response.attachments
    assert attachment.filename == "sets.yaml"
    data = await attachment.read()
    assert rules.parse_sets(data.decode()) == {s.name: s for s in original}

    imported_b = await import_file(world.b.admin, world.b.channel, "sets.yaml", data)
    assert "Imported 2 Sets. New: `marathon`, `quick`" in reply_text(imported_b)
    assert await world.store.sets.server_sets(world.b.guild.id) == original

    await world.a.admin.slash(world.a.channel, "sets remove", name="marathon")
    await world.a.admin.slash(world.a.channel, "sets edit", name="quick", goal=7)
    again = await import_file(world.a.admin, world.a.channel, "sets.yaml", data)
    assert "New: `marathon`. Replaced: `quick`" in reply_text(again)
    assert await world.store.sets.server_sets(world.a.guild.id) == original


async def test_an_import_keeps_the_servers_other_sets_and_accepts_the_sets_key(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    document = {"sets": {"tiny": {"start_score": 10, "goal": 5, "bonus": 0,
                                  "max_rounds": 2, "time_limit": 10}}}  # fmt: skip
    result = await import_file(
        world.a.admin, world.a.channel, "t.yml", yaml.safe_dump(document).encode()
    )
    assert "Imported 1 Set." in reply_text(result)
    names = [s.name for s in await world.store.sets.server_sets(world.a.guild.id)]
    assert names == ["quick", "tiny"]


async def test_a_file_too_big_is_refused_before_parsing(world) -> None:
    big = b"# " + b"x" * (64 * 1024) + b"\n"
    result = await import_file(world.a.admin, world.a.channel, "big.yaml", big)
    assert "The file is too big" in reply_text(result)
