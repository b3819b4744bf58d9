"""Games played through the bot's own commands, judged by the real local PHP pool, then
read back by /leaderboard, /stats, /history and /game: the whole path, not hand-made rows.

The bot is `create_bot()` with its default features, so these tests also prove the
leaderboards cog is loaded by the real bot.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import pytest_asyncio
import simcord

from bot.app import create_bot
from bot.settings import BotSettings
from bot.storage import Store, open_store
from evaluator import Evaluator
from tests.support.fixtures import ForcedDigits, simulated
from tests.support.sim import public_message, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")


@dataclass
class Played:
    env: simcord.Env
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    digits: ForcedDigits
    store: Store


@pytest_asyncio.fixture(loop_scope="session")
async def played(
    evaluator: Evaluator, tmp_path: Path, settings: BotSettings, digits: ForcedDigits
) -> AsyncIterator[Played]:
    """Its own store: this directory's `store` fixture lives on another event loop."""
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/games.sqlite3")
    bot = create_bot(settings, store=store, evaluator=evaluator, digits_source=digits)
    async with store, simulated(bot) as env:
        guild = env.create_guild("Darts Club")
        yield Played(
            env=env,
            channel=guild.create_text_channel("games"),
            alice=guild.add_member(env.create_user("alice")),
            bob=guild.add_member(env.create_user("bob")),
            carol=guild.add_member(env.create_user("carol")),
            digits=digits,
            store=store,
        )


def text(result: simcord.InteractionResult) -> str:
    return message_text(shown(result))


def message_text(message: discord.Message) -> str:
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "" if embed.footer else "")
    return "\n".join(parts)


def open_round(thread: simcord.ChannelHandle) -> discord.Message | None:
    """The round message whose Answer button still works, if a round is open."""
    for message in reversed(thread.history()):
        for row in message.components:
            for child in getattr(row, "children", []):
                if (getattr(child, "custom_id", None) or "").startswith("fd:ans:"):
                    return message
    return None


def shown_digits(message: discord.Message) -> str:
    digits = message.embeds[0].fields[0].value.strip("*")  # type: ignore[union-attr]
    assert re.fullmatch(r"\d{4}", digits), digits
    return digits


def game_id(history: str, mode: str) -> str:
    """The id on the history line of the (only) game of that mode."""
    found = re.findall(rf"`([0-9a-zA-Z_-]{{8}})` <t:[^\n]*· {mode} ·", history)
    assert len(found) == 1, (mode, history)
    return str(found[0])


async def play_qualification(world: Played) -> None:
    """Alice answers every round with the Digits as one number, to the last round or 0."""
    await world.alice.slash(world.channel, "qualification")
    thread = world.channel.threads[-1]
    for _ in range(7):
        message = open_round(thread)
        if message is None:
            break
        reply = await world.alice.slash(thread, "answer", formula=shown_digits(message))
        assert reply.acknowledged
    assert open_round(thread) is None, "the Qualification should be over"


async def play_duel(world: Played) -> None:
    """Alice checks out in round 1 (700+1 = 701 takes 501); Bob answers 7001."""
    world.digits.queue.extend(["7001"])
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    message = public_message(challenge)
    yes = next(
        child.custom_id  # type: ignore[union-attr]
        for row in message.components
        for child in row.children  # type: ignore[union-attr]
        if (child.custom_id or "").startswith("fd:duel:yes:")  # type: ignore[union-attr]
    )
    await world.bob.click(message, custom_id=yes)
    thread = world.channel.threads[-1]
    await world.alice.slash(thread, "answer", formula="700+1")
    await world.bob.slash(thread, "answer", formula="7001")
    assert open_round(thread) is None, "the duel should be over"


async def test_the_real_bot_registers_the_leaderboard_commands(played: Played) -> None:
    names = {command.name for command in played.env.bot.tree.get_commands()}  # type: ignore[attr-defined]
    assert {"leaderboard", "stats", "history", "game"} <= names
    group = played.env.bot.tree.get_command("leaderboard")  # type: ignore[attr-defined]
    assert isinstance(group, discord.app_commands.Group)
    assert {c.name for c in group.commands} == {"qualification", "duel"}


async def test_played_games_show_on_boards_stats_history_and_replays(played: Played) -> None:
    world = played
    alice, bob = world.alice, world.bob
    await play_qualification(world)
    await world.bob.slash(world.channel, "qualification")
    resigned = await bob.slash(world.channel, "resign")
    assert resigned.acknowledged
    await play_duel(world)

    board = text(await bob.slash(world.channel, "leaderboard qualification"))
    assert alice.mention in board
    assert bob.mention not in board, "a resigned Qualification is not ranked"
    assert "Page 1 of 1" in board

    ratings = text(await bob.slash(world.channel, "leaderboard duel"))
    assert ratings.index(alice.mention) < ratings.index(bob.mention)
    assert "**1016**" in ratings and "**984**" in ratings

    stats = text(await bob.slash(world.channel, "stats", user=alice))
    assert "Stats of alice" in stats
    assert "2 finished · " in stats  # the Qualification and the duel
    assert "rating **1016** (#1)" in stats
    assert "Best Qualification" in stats and "darts · 2026-01-01" in stats

    bob_history = text(await bob.slash(world.channel, "history"))
    assert "🏳️ resigned in round 1" in bob_history
    assert "⌛" not in bob_history
    assert "❌ lost" in bob_history  # the duel

    history = text(await alice.slash(world.channel, "history"))
    assert "🏆 won" in history

    duel = text(await bob.slash(world.channel, "game", id=game_id(history, "Online Duel")))
    assert "`700+1` = 701 → −501 → **0**" in duel
    assert "`7001` = 7001" in duel
    qualification_id = game_id(history, "Qualification")
    sealed = text(await bob.slash(world.channel, "game", id=qualification_id))
    assert "Qualification · darts" in sealed and "shown when the day ends" in sealed
    assert "`1` **" not in sealed  # today's Digits and formulas stay private
    await world.env.advance_time(24 * 3600)  # the day ends: they become public
    qualification = text(await bob.slash(world.channel, "game", id=qualification_id))
    assert "Qualification · darts" in qualification
    assert "`1` **" in qualification


async def test_a_huge_round_keeps_the_average_readable(played: Played) -> None:
    world = played
    world.digits.queue.extend(["3489"])
    await world.carol.slash(world.channel, "training")
    thread = world.channel.threads[-1]
    judged = await world.carol.slash(thread, "answer", formula="pow(34,89)")
    assert judged.acknowledged
    await world.carol.slash(world.channel, "resign")
    stats = text(await world.carol.slash(world.channel, "stats"))
    average = re.search(r"(?i)average points per round\n(.*)", stats)
    assert average is not None, stats
    assert re.match(r"-?\d\.\d+E\+136 ", average[1]), average[1]
    history = text(await world.carol.slash(world.channel, "history"))
    assert "🏳️ resigned in round" in history
