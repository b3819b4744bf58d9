"""Server Sets in games: played with their numbers and functions, per server, as snapshots."""

from __future__ import annotations

import discord
import pytest

from tests.bot.sets_admin.helpers import QUICK, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def text_of(message: discord.Message) -> str:
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_a_new_set_is_played_in_training(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    world.digits.extend("5001")
    started = await world.a.player.slash(world.a.channel, "training", set="quick")
    assert "quick: 3 rounds, 60 s each" in reply_text(started)
    thread = world.a.thread()
    first = text_of(thread.last_message)
    assert "round 1 of 3" in first and "Score: **301**" in first and "5001" in first
    # 501 is 401 away from the Goal: points |100 - 401| = 301, the whole Score
    done = await world.a.player.slash(thread, "answer", formula="500+1")
    assert "= **501**" in reply_text(done)
    summary = text_of(thread.last_message)
    assert "Checkout in 1 round:" in summary and "Perfect" in summary


async def test_an_extra_function_works_only_in_the_set_that_allows_it(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    await world.a.admin.slash(world.a.channel, "sets add", **{**QUICK, "name": "nopow"})
    await world.a.admin.slash(world.a.channel, "sets edit", name="nopow", functions="abs")
    world.digits.extend("1234", "1234", "1234", "1234")

    await world.a.player.slash(world.a.channel, "training", set="darts")
    darts = world.a.thread()
    refused = await world.a.player.slash(darts, "answer", formula="abs(1-234)")
    assert "`abs` at column 1 is not an allowed function here" in reply_text(refused)
    await world.a.player.slash(darts, "resign")

    await world.a.player.slash(world.a.channel, "training", set="quick")
    quick = world.a.thread()
    accepted = await world.a.player.slash(quick, "answer", formula="abs(1-234)")
    assert "= **233**" in reply_text(accepted)
    await world.a.player.slash(quick, "resign")

    await world.a.player.slash(world.a.channel, "training", set="nopow")
    nopow = world.a.thread()
    no_pow = await world.a.player.slash(nopow, "answer", formula="pow(1,2)+34")
    assert "`pow` at column 1 is not an allowed function here" in reply_text(no_pow)
    assert "= **35**" in reply_text(
        await world.a.player.slash(nopow, "answer", formula="abs(1-2)+34")
    )


async def test_a_servers_sets_are_invisible_to_another_server(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **{**QUICK, "name": "secret"})
    listed_b = reply_text(await world.b.player.slash(world.b.channel, "sets list"))
    assert "darts" in listed_b and "secret" not in listed_b
    shown_b = await world.b.player.slash(world.b.channel, "sets show", name="secret")
    assert "no Set called `secret`" in reply_text(shown_b)
    training_b = await world.b.player.slash(world.b.channel, "training", set="secret")
    assert "There is no Set called `secret` here" in reply_text(training_b)
    choices_b = await world.b.player.autocomplete(world.b.channel, "training", "set", "sec")
    assert choices_b == []
    for command in ("sets edit", "sets remove"):
        options = {"name": "secret", "goal": 1} if command == "sets edit" else {"name": "secret"}
        refused = await world.b.admin.slash(world.b.channel, command, **options)
        assert "no Set called `secret`" in reply_text(refused)
    (kept,) = await world.store.sets.server_sets(world.a.guild.id)
    assert (kept.name, kept.goal) == ("secret", 100)
    assert "secret" in reply_text(await world.a.player.slash(world.a.channel, "sets list"))


async def test_editing_or_removing_a_set_leaves_a_running_game_unchanged(world) -> None:
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    world.digits.extend("1234", "1234")
    await world.a.player.slash(world.a.channel, "training", set="quick")
    thread = world.a.thread()

    edited = await world.a.admin.slash(
        world.a.channel, "sets edit", name="quick", time_limit=30, goal=50, max_rounds=4
    )
    assert "Games already running keep the version they started with" in reply_text(edited)
    await world.env.advance_time(45)  # past the new 30 s, within the game's 60 s
    answered = await world.a.player.slash(thread, "answer", formula="1234")
    assert "= **1234**" in reply_text(answered)
    # goal 100: points |100 - |1234 - 100|| = 1034, Score |301 - 1034| = 733 (goal 50 gives 833)
    assert "Score **733**" in text_of(thread.history()[-2])
    assert "round 2 of 3" in text_of(thread.last_message)

    await world.a.admin.slash(world.a.channel, "sets remove", name="quick")
    game = await world.store.games.active_game_of(world.a.guild.id, world.a.player.id)
    assert game is not None
    snapshot = game.state.game_set
    assert (snapshot.time_limit, snapshot.goal, snapshot.max_rounds) == (60, 100, 3)
    assert "= **1234**" in reply_text(await world.a.player.slash(thread, "answer", formula="1234"))
    assert "round 3 of 3" in text_of(thread.last_message)
    await world.a.player.slash(thread, "resign")

    gone = await world.a.player.slash(world.a.channel, "training", set="quick")
    assert "There is no Set called `quick` here" in reply_text(gone)


async def test_new_numbers_after_todays_qualification_start_its_board_over(world) -> None:
    """An edit of the words keeps today's Qualification; new numbers make a new version:
    the admin is told the board starts over, and the player has an attempt again."""
    await world.a.admin.slash(world.a.channel, "sets add", **QUICK)
    calm = await world.a.admin.slash(world.a.channel, "sets edit", name="quick", time_limit=45)
    assert "board starts over" not in reply_text(calm)  # nobody has played it today
    await world.a.player.slash(world.a.channel, "qualification", set="quick")
    await world.a.player.slash(world.a.thread(), "resign")
    used = await world.a.player.slash(world.a.channel, "qualification", set="quick")
    assert "You have used today's Qualification attempt for `quick`" in reply_text(used)

    words = await world.a.admin.slash(
        world.a.channel, "sets edit", name="quick", description="Even faster"
    )
    assert "Set `quick` updated" in reply_text(words)
    assert "board starts over" not in reply_text(words)
    numbers = await world.a.admin.slash(world.a.channel, "sets edit", name="quick", time_limit=30)
    assert "new version: today's Qualification board starts over" in reply_text(numbers)

    again = await world.a.player.slash(world.a.channel, "qualification", set="quick")
    assert "used" not in reply_text(again)
    assert await world.store.games.active_game_of(world.a.guild.id, world.a.player.id) is not None
