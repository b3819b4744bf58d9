"""Command names Discord accepts, and command mentions that resolve on simcord.

Discord clicks a mention only when it carries the command's default name, and
never localizes one (see bot/i18n/_commands.py), so text in every language
mentions the command by that name; plain text names it as the reader's client shows it.
"""

from __future__ import annotations

import re
import unicodedata
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import Catalog, command_text
from tests.support.sim import answer, message_text, reply_text, speak

session_loop = pytest.mark.asyncio(loop_scope="session")
MENTION = re.compile(r"</([^:>]+):(\d+)>")
UK = discord.Locale.ukrainian

Synced = list[app_commands.AppCommand]


def valid_name(name: str) -> bool:
    """Discord's rule for a chat command's names: lowercase, ^[-_\\p{L}\\p{N}]{1,32}$."""
    return (
        0 < len(name) <= 32
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )


def named_things(synced: Synced) -> list[tuple[str, dict[str, str], dict[str, str]]]:
    """(path, names by locale, descriptions by locale) of every command, group and option."""
    found = []

    def visit(path: str, item: Any) -> None:
        names = {"": item.name} | {str(k): v for k, v in item.name_localizations.items()}
        descriptions = {"": item.description}
        descriptions |= {str(k): v for k, v in item.description_localizations.items()}
        found.append((path, names, descriptions))
        for option in getattr(item, "options", []):
            visit(f"{path} {option.name}", option)

    for command in synced:
        visit(command.name, command)
    return found


def test_the_formatter() -> None:
    assert command_text("sets import", "sets import", 42) == "</sets import:42>"
    assert command_text("resign", "здатися", 42) == "</resign:42>"
    assert command_text("resign", "здатися", None) == "/здатися"
    assert command_text("resign", "resign", None) == "/resign"


@session_loop
async def test_every_name_and_description_follows_discords_rules(world) -> None:
    synced = await world.bot.tree.fetch_commands()
    problems = []
    for path, names, descriptions in named_things(synced):
        problems += [f"{path} [{loc}] name {n!r}" for loc, n in names.items() if not valid_name(n)]
        problems += [
            f"{path} [{loc}] description of {len(d)}"
            for loc, d in descriptions.items()
            if not 0 < len(d) <= 100
        ]
        assert UK.value in names, f"{path} has no Ukrainian name"
    choices = [
        name
        for command in synced
        for option in command.options
        for choice in getattr(option, "choices", [])
        for name in [choice.name, *choice.name_localizations.values()]
    ]
    problems += [f"choice {name!r}" for name in choices if not 0 < len(name) <= 100]
    assert named_things(synced) and problems == []
    assert not valid_name("Сети") and not valid_name("сети список") and valid_name("мін_раунди")


@session_loop
async def test_names_a_ukrainian_would_type(world) -> None:
    synced = {c.name: c for c in await world.bot.tree.fetch_commands()}
    assert synced["answer"].name_localizations[UK] == "відповісти"
    add = next(o for o in synced["sets"].options if o.name == "add")
    options = {o.name: o.name_localizations[UK] for o in getattr(add, "options", [])}
    assert options["max_rounds"] == "макс_раунди" and options["min_rounds"] == "мін_раунди"
    assert options["start_score"] == "початковий_рахунок"
    assert options["time_limit"] == "час_на_раунд"
    assert synced["leaderboard"].name_localizations[UK] == "лідери"


def resolves(mention: re.Match[str], synced: Synced) -> bool:
    """A mention's id is its top-level command's, and its words name a real (sub)command."""
    words, command_id = mention.group(1).split(), int(mention.group(2))
    command = next((c for c in synced if c.id == command_id), None)
    if command is None or command.name != words[0]:
        return False
    options: list[object] = list(command.options)
    for word in words[1:]:
        group = next((o for o in options if isinstance(o, app_commands.AppCommandGroup)), None)
        matching = [o for o in options if getattr(o, "name", None) == word]
        if group is None or not matching:
            return False
        options = list(getattr(matching[0], "options", []))
    return True


def ukrainian_name(synced: Synced, path: str) -> str:
    """The name a Ukrainian client shows, from what Discord was given at the sync."""
    words = path.split()
    item: Any = next(c for c in synced if c.name == words[0])
    shown = [item.name_localizations[UK]]
    for word in words[1:]:
        item = next(o for o in item.options if o.name == word)
        shown.append(item.name_localizations[UK])
    return "/" + " ".join(shown)


async def busy_and_forbidden(world) -> str:
    """A refused second game and a formula with a function the Set lacks, as the user saw them."""
    await world.alice.slash(world.channel, "training")
    busy = reply_text(await world.alice.slash(world.channel, "training"))
    bad = reply_text(await answer(world.alice, world.thread().last_message, "abs(3489)"))
    rules = message_text((await world.alice.slash(world.channel, "rules")).response.message)
    return "\n".join([busy, bad, rules])


@session_loop
async def test_english_text_mentions_the_synced_commands(world) -> None:
    synced = await world.bot.tree.fetch_commands()
    world.digits.extend("3489")
    text = await busy_and_forbidden(world)
    mentions = list(MENTION.finditer(text))
    named = {m.group(1) for m in mentions}
    assert {"resign", "sets list", "training", "answer"} <= named
    assert [m.group(0) for m in mentions if not resolves(m, synced)] == []
    resign = next(c for c in synced if c.name == "resign")
    assert f"</resign:{resign.id}>" in text


@session_loop
async def test_ukrainian_text_mentions_the_synced_commands_too(world) -> None:
    """Only a mention with the default name can be clicked (see bot/i18n/_commands.py)."""
    synced = await world.bot.tree.fetch_commands()
    speak(world.env, world.alice, "uk")
    world.digits.extend("3489")
    text = await busy_and_forbidden(world)
    mentions = list(MENTION.finditer(text))
    assert {"resign", "sets list", "training", "answer", "qualification", "duel"} <= {
        m.group(1) for m in mentions
    }
    assert [m.group(0) for m in mentions if not resolves(m, synced)] == []
    assert ukrainian_name(synced, "resign") == "/здатися"
    assert "/здатися" not in text and "/сети" not in text, "a command is a mention, not text"


def test_without_an_id_or_in_a_footer_a_command_is_plain_text() -> None:
    fresh = Catalog.load()  # no sync has told it any id
    assert fresh.commands_in("{/resign}", "en") == "/resign"
    assert fresh.commands_in("{/sets import}", "uk") == "/сети імпортувати"
    assert fresh.commands_in("{/sets import:plain}", "uk") == "/сети імпортувати"
    fresh.command_ids.use([SimpleNamespace(name="sets", id=7)])
    assert fresh.commands_in("{/sets import}", "en") == "</sets import:7>"
    assert fresh.commands_in("{/sets import:plain}", "en") == "/sets import"
    assert fresh.commands_in("{/sets import}", "uk") == "</sets import:7>"
    assert fresh.commands_in("{/sets import:plain}", "uk") == "/сети імпортувати"
