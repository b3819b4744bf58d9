"""A Set's language through /sets: add it, show and list it, edit it, export and import it,
and functions checked against the language's own vetted list, in English and Ukrainian."""

from __future__ import annotations

import pytest

import rules
from tests.bot.sets_admin.helpers import QUICK, only_ephemeral, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")
NO_FUNCTIONS = {k: v for k, v in QUICK.items() if k != "functions"}
JS_QUICK = {**NO_FUNCTIONS, "name": "quick-js", "language": "javascript"}


async def test_a_javascript_set_is_added_shown_listed_and_played_by_its_rules(world) -> None:
    added = await world.a.admin.slash(world.a.channel, "sets add", **JS_QUICK)
    assert only_ephemeral(added) and "`quick-js`" in reply_text(added)
    (stored,) = await world.store.sets.server_sets(world.a.guild.id)
    assert stored.language is rules.FormulaLanguage.JAVASCRIPT
    assert stored.functions == rules.game_set.JS_DEFAULT_FUNCTIONS  # its defaults, not PHP's
    shown = reply_text(await world.a.player.slash(world.a.channel, "sets show", name="quick-js"))
    assert "quick-js · JavaScript" in shown and "Language (`language`)\nJavaScript" in shown
    assert "Math.sqrt" in shown
    listed = reply_text(await world.a.player.slash(world.a.channel, "sets list"))
    assert "js-darts · JavaScript · global" in listed and "quick-js · JavaScript" in listed
    assert "\ndarts · global" in listed, "a PHP Set reads as before"
    php = reply_text(await world.a.player.slash(world.a.channel, "sets show", name="darts"))
    assert "Language (`language`)\nPHP" in php


async def test_functions_are_checked_against_the_languages_list_in_both_languages(world) -> None:
    refused = await world.a.admin.slash(
        world.a.channel, "sets add", **JS_QUICK, functions="Math.sqrt, sqrt, pow"
    )
    text = reply_text(refused)
    assert "Functions (`functions`): not allowed: sqrt, pow. Allowed: Math.abs" in text
    assert "Math.trunc" in text and "hexdec" not in text
    speak(world.env, world.a.admin, "uk")
    ukrainian = reply_text(
        await world.a.admin.slash(world.a.channel, "sets add", **JS_QUICK, functions="pow")
    )
    assert "Функції (`functions`): не дозволено: pow. Дозволено: Math.abs" in ukrainian
    wrong = await world.a.admin.slash(
        world.a.channel, "sets add", **{**QUICK, "name": "php-quick", "functions": "Math.sqrt"}
    )
    assert "не дозволено: math.sqrt" in reply_text(wrong), "PHP's list for a PHP Set"
    assert await world.store.sets.server_sets(world.a.guild.id) == []


async def test_an_edit_to_another_language_takes_its_functions_and_export_keeps_it(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    edited = await world.a.admin.slash(
        world.a.channel, "sets edit", name="quick", language="javascript"
    )
    assert "quick · JavaScript" in reply_text(edited)
    (stored,) = await world.store.sets.server_sets(world.a.guild.id)
    assert stored.language is rules.FormulaLanguage.JAVASCRIPT
    assert stored.functions == rules.game_set.JS_DEFAULT_FUNCTIONS
    exported = await world.a.admin.slash(world.a.channel, "sets export")
    data = await exported.response.attachments[0].read()
    assert "language: javascript" in data.decode()
    imported = await world.b.admin.slash(world.b.channel, "sets import", file=("s.yaml", data))
    assert "New: `quick`" in reply_text(imported)
    assert await world.store.sets.server_sets(world.b.guild.id) == [stored]
    back = await world.a.admin.slash(world.a.channel, "sets edit", name="quick", language="php")
    assert "quick · this server" in reply_text(back) and "JavaScript" not in reply_text(back)
    (php,) = await world.store.sets.server_sets(world.a.guild.id)
    fields = {k: v for k, v in NO_FUNCTIONS.items() if k != "name"}
    assert php.functions == rules.DEFAULT_FUNCTIONS
    assert php.version == rules.validate_set("quick", fields, "add").version  # PHP's as before
