"""Storm, Streak and the daily puzzle end to end on simcord, in English and Ukrainian, in
PHP and JavaScript Sets, with a pool the real solver filled and real PHP/node judging:
every message rides the player's own interactions (no bot-token call), a correction, a
Skip, the Storm's end, the summary listing every puzzle, the boards, the daily puzzle's
seal and its spoiler-free card, and a restart in the middle of a Storm."""

from __future__ import annotations

import re

import discord
import pytest

import rules
from bot.puzzles import PuzzleRuns
from tests.bot.games.test_interaction_rounds import bot_token_calls
from tests.bot.puzzles.conftest import Fill
from tests.support.sim import button_id, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")

GLOBAL = rules.load_sets()


def mine(world, member) -> list[discord.Message]:
    """What `member` sees in the channel that nobody else does (ephemeral)."""
    everyone = {m.id for m in world.channel.history(viewer=world.carol)}
    return [m for m in world.channel.history(viewer=member) if m.id not in everyone]


def latest(world, member) -> discord.Message:
    return [m for m in mine(world, member) if m.components][-1]


async def shown_puzzle(world, message: discord.Message):
    """The stored puzzle a message's Answer button is for (its run's current one)."""
    custom_id = button_id(message, "fd:pz:answer:")
    run_id = custom_id.split(":")[3]
    run = await world.store.puzzles.run(run_id)
    assert run is not None and run.puzzle_id is not None
    puzzle = await world.store.puzzles.puzzle(run.puzzle_id)
    assert puzzle is not None and f"**{puzzle.digits}**" in message.content
    return puzzle


async def answer(member, message: discord.Message, formula: str):
    opened = await member.click(message, custom_id=button_id(message, "fd:pz:answer:"))
    if opened.modal is None:
        return opened
    return await member.submit_modal(opened, {"formula": formula})


def runs_of(world) -> PuzzleRuns:
    return world.bot.puzzles


async def test_a_storm_is_played_corrected_skipped_and_ended_in_english(
    world, fill: Fill, make_bot
) -> None:
    await fill(GLOBAL["darts"], 3)
    since = len(world.env.http_requests)
    started = await world.alice.slash(world.channel, "storm")
    assert started.response is not None and started.response.ephemeral
    first = latest(world, world.alice)
    assert "Storm" in first.content and "Score **" in first.content
    puzzle = await shown_puzzle(world, first)

    wrong = await answer(world.alice, first, "1+1")
    assert "is not valid" in reply_text(wrong) and "Correct it" in reply_text(wrong)
    again = latest(world, world.alice)
    assert (await shown_puzzle(world, again)) == puzzle  # the same puzzle, to correct
    solved = await answer(world.alice, again, puzzle.best_formula)
    assert "grade **1.00**" in reply_text(solved) and "Best: `" in reply_text(solved)

    assert bot_token_calls(world.env, since) == []  # all on alice's own interactions
    await world.env.restart_bot(make_bot())  # the run is in the store: nothing is lost
    since = len(world.env.http_requests)
    second = latest(world, world.alice)
    skipped = await world.alice.click(second, custom_id=button_id(second, "fd:pz:skip:"))
    assert "skipped · grade **0**" in reply_text(skipped)

    third = latest(world, world.alice)
    await world.env.advance_time(181)
    late = await answer(world.alice, third, "1")
    text = reply_text(late)
    assert "Storm's time ran out" in text and "Storm over" in text
    assert "total **1.00** · solved **1** of 2" in text
    assert text.count("· best `") == 2 and "no answer" in text  # every puzzle listed
    assert bot_token_calls(world.env, since) == []  # all on alice's own interactions
    assert not mine(world, world.bob)

    board = await world.bob.slash(world.channel, "puzzles", kind="storm", window="week")
    assert board.response is not None and f"<@{world.alice.id}> · **1.00** · solved 1" in (
        board.response.content
    )


async def test_a_streak_in_ukrainian_in_a_javascript_set(world, fill: Fill) -> None:
    await fill(GLOBAL["js-darts"], 3)
    speak(world.env, world.bob, "uk")
    started = await world.bob.slash(world.channel, "streak", set="js-darts")
    assert started.response is not None
    first = latest(world, world.bob)
    assert "Серія задач" in first.content and "Рахунок **" in first.content
    puzzle = await shown_puzzle(world, first)
    wrong = await answer(world.bob, first, "Math.sqrt(")
    assert "неправильна формула" in reply_text(wrong)
    solved = await answer(world.bob, latest(world, world.bob), puzzle.best_formula)
    assert "оцінка **1,00**" in reply_text(solved) and "Найкраща відповідь" in reply_text(solved)

    nxt = latest(world, world.bob)
    assert "розвʼязано: 1" in nxt.content
    stopped = await world.bob.click(nxt, custom_id=button_id(nxt, "fd:pz:stop:"))
    text = reply_text(stopped)
    assert "Серію задач завершено" in text and "довжина **1**" in text
    assert "1. **" in text and "найкраща `" in text and "поза заліком" in text
    board = await world.bob.slash(world.channel, "puzzles", kind="streak", window="all")
    assert board.response is not None and "поспіль" in board.response.content


async def test_the_daily_puzzle_is_sealed_once_and_shared_without_spoilers(
    world, fill: Fill
) -> None:
    await fill(GLOBAL["darts"], 4)
    await world.alice.slash(world.channel, "puzzle")
    alices = latest(world, world.alice)
    puzzle = await shown_puzzle(world, alices)
    assert "Daily puzzle" in alices.content and "one attempt" in alices.content
    done = await answer(world.alice, alices, puzzle.best_formula)
    text = reply_text(done)
    assert "grade **1.00**" in text and "shown when the day ends" in text
    assert puzzle.best_formula not in text.replace(f"`{puzzle.best_formula}` →", "")

    again = await world.alice.slash(world.channel, "puzzle")
    assert "one attempt a day" in reply_text(again)

    speak(world.env, world.bob, "uk")
    await world.bob.slash(world.channel, "puzzle")
    bobs = latest(world, world.bob)
    assert (await shown_puzzle(world, bobs)) == puzzle  # the same for everyone here
    assert "Задача дня" in bobs.content

    summary = latest(world, world.alice)
    shared = await world.alice.click(summary, custom_id=button_id(summary, "fd:pz:share:"))
    card = shared.response
    assert card is not None and not card.ephemeral
    assert "grade **1.00**" in card.content and puzzle.digits not in card.content
    assert puzzle.best_formula not in card.content
    twice = await world.alice.click(summary, custom_id=button_id(summary, "fd:pz:share:"))
    assert "shared it already" in reply_text(twice)

    board = await world.carol.slash(world.channel, "puzzles", kind="daily")
    assert board.response is not None and f"<@{world.alice.id}> · grade **1.00**" in (
        board.response.content
    )
    assert re.search(r"\d+\u00a0s", board.response.content)


async def test_an_empty_pool_is_told_in_the_players_language(world) -> None:
    speak(world.env, world.carol, "uk")
    refused = await world.carol.slash(world.channel, "storm", set="blitz")
    assert "ще готуються" in reply_text(refused)
    assert [s.name for s in await world.store.puzzles.wanted()] == ["blitz"]
