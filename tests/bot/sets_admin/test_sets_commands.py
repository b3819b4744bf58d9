"""/sets add, edit, remove, show, list on simcord: permissions, validation, global names."""

from __future__ import annotations

import pytest
import yaml

from tests.bot.sets_admin.helpers import QUICK, only_ephemeral, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")

ADMIN_COMMANDS = [
    ("sets add", QUICK),
    ("sets edit", {"name": "quick", "time_limit": 30}),
    ("sets remove", {"name": "quick"}),
    ("sets export", {}),
    ("sets import", {"file": ("sets.yaml", b"quick2: {start_score: 1}")}),
]


async def test_a_member_without_manage_server_is_refused_by_the_bot(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    for command, options in ADMIN_COMMANDS:
        refused = await world.a.player.slash(world.a.channel, command, **options)  # type: ignore[arg-type]
        assert only_ephemeral(refused), command
        assert "Manage Server" in reply_text(refused), command
    stored = await world.store.sets.server_sets(world.a.guild.id)
    assert [(s.name, s.time_limit) for s in stored] == [("quick", 60)]
    listed = await world.a.player.slash(world.a.channel, "sets list")
    assert "quick" in reply_text(listed)
    shown = await world.a.player.slash(world.a.channel, "sets show", name="quick")
    assert "pow, abs" in reply_text(shown)


async def test_add_show_list_edit_remove(world) -> None:
    added = await world.a.admin.slash(world.a.channel, "sets add", **QUICK, description="Fast")
    assert only_ephemeral(added)
    assert "Set `quick` added" in reply_text(added)
    shown = reply_text(await world.a.admin.slash(world.a.channel, "sets show", name="quick"))
    assert "quick · this server" in shown and "Fast" in shown
    assert "301" in shown and "60 s" in shown and "pow, abs" in shown
    assert "Min rounds (`min_rounds`)\n3" in shown

    listed = reply_text(await world.a.admin.slash(world.a.channel, "sets list"))
    assert "darts · global" in listed and "quick · this server" in listed

    edited = await world.a.admin.slash(
        world.a.channel, "sets edit", name="quick", start_score=501, max_rounds=4, functions="sqrt"
    )
    text = reply_text(edited)
    assert "Set `quick` updated" in text and "501" in text
    (stored,) = await world.store.sets.server_sets(world.a.guild.id)
    assert (stored.start_score, stored.functions, stored.time_limit) == (501, ("sqrt",), 60)
    assert stored.min_rounds == 4, "a computed min_rounds follows the new numbers"
    assert stored.description == "Fast"

    removed = await world.a.admin.slash(world.a.channel, "sets remove", name="quick")
    assert "Set `quick` removed" in reply_text(removed)
    assert await world.store.sets.server_sets(world.a.guild.id) == []
    again = await world.a.admin.slash(world.a.channel, "sets remove", name="quick")
    assert "no Set called `quick`" in reply_text(again)


async def test_every_problem_of_a_new_set_is_listed_at_once(world) -> None:
    result = await world.a.admin.slash(
        world.a.channel,
        "sets add",
        **{**QUICK, "name": "Bad Name", "min_rounds": 9, "functions": "pow exec system"},
    )
    assert only_ephemeral(result)
    text = reply_text(result)
    assert "not saved: 3 problems" in text
    assert "lowercase letters" in text
    assert "Min rounds (`min_rounds`): (9) is more than max_rounds (3)" in text
    assert "Functions (`functions`): not allowed: exec, system. Allowed: abs, bindec" in text
    assert await world.store.sets.server_sets(world.a.guild.id) == []


async def test_a_global_name_is_never_taken_changed_or_removed(world) -> None:
    taken = await world.a.admin.slash(world.a.channel, "sets add", **{**QUICK, "name": "darts"})
    assert "taken by a global Set" in reply_text(taken)
    edited = await world.a.admin.slash(world.a.channel, "sets edit", name="darts", goal=1)
    assert "`darts` is a global Set" in reply_text(edited)
    removed = await world.a.admin.slash(world.a.channel, "sets remove", name="blitz")
    assert "`blitz` is a global Set" in reply_text(removed)
    assert await world.store.sets.server_sets(world.a.guild.id) == []
    darts = reply_text(await world.a.player.slash(world.a.channel, "sets show", name="darts"))
    assert "darts · global" in darts and "501" in darts


async def test_adding_twice_and_editing_nothing_are_explained(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    twice = await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    assert "already has a Set called `quick`" in reply_text(twice)
    nothing = await world.a.admin.slash(world.a.channel, "sets edit", name="quick")
    assert "at least one field" in reply_text(nothing)
    empty = await world.b.admin.slash(world.b.channel, "sets export")
    assert "no Sets of its own" in reply_text(empty)


async def test_replies_follow_the_users_language(world) -> None:
    speak(world.env, world.a.admin, "uk")
    speak(world.env, world.a.player, "uk")
    refused = await world.a.player.slash(world.a.channel, "sets add", **QUICK)
    assert "Керувати сервером" in reply_text(refused)
    bad = await world.a.admin.slash(
        world.a.channel, "sets add", **{**QUICK, "min_rounds": 9, "functions": "exec"}
    )
    text = reply_text(bad)
    assert "Сет не збережено: 2\u00a0проблеми" in text
    assert "не дозволено: exec" in text and "більше, ніж «Макс. раунди» (3)" in text
    named = "Мін. раунди (`min_rounds`): значення 9 більше"
    assert named in text, "a field is named as /sets show names it"
    added = await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    assert "Сет `quick` додано" in reply_text(added)
    shown = reply_text(await world.a.player.slash(world.a.channel, "sets show", name="quick"))
    assert "цього сервера" in shown and "Час на раунд" in shown and "60\u00a0с" in shown


async def test_name_autocomplete_offers_own_sets_to_edit_and_all_to_show(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    own = await world.a.admin.autocomplete(world.a.channel, "sets edit", "name", "")
    assert [c["value"] for c in own] == ["quick"]
    every = await world.a.player.autocomplete(world.a.channel, "sets show", "name", "")
    assert {c["value"] for c in every} == {"blitz", "darts", "js-darts", "quick", "sprint"}


async def test_a_long_list_is_split_into_messages_discord_accepts(world) -> None:
    document = {
        f"set-{index:02}": {
            "start_score": 301 + index,
            "goal": 100,
            "bonus": 50,
            "max_rounds": 5,
            "time_limit": 60,
            "description": "A long description. " * 20,
        }
        for index in range(25)
    }
    imported = await world.a.admin.slash(
        world.a.channel, "sets import", file=("many.yaml", yaml.safe_dump(document).encode())
    )
    assert "Imported 25 Sets" in reply_text(imported)
    listed = await world.a.player.slash(world.a.channel, "sets list")
    messages = [listed.response, *listed.followups]
    assert len(messages) > 1 and all(m.ephemeral for m in messages)
    for message in messages:
        assert sum(len(e) for e in message.embeds) <= 6000
    text = reply_text(listed)
    assert all(f"set-{index:02} · this server" in text for index in range(25))
    assert "darts · global" in text
