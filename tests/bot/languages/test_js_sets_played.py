"""A JavaScript Set (the global `js-darts`) played end to end on simcord in every mode:
Training, Qualification, Online Duel and Practice, through the real bot, the real node
pool and a SQLite store. Every Result the bot accepts is what a cold node computes, its
Scores are RULES.md's scoring as node computes it, and every number reads as JavaScript
prints it (`String(x)`); PHP's `darts` beside it reads as PHP prints it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

import rules
from bot.app import create_bot
from bot.solving import ConfirmedSolver
from tests.bot.languages.node_stand_in import node_scores, node_text
from tests.support.fixtures import ForcedDigits, simulated, solver  # noqa: F401 (fixture)
from tests.support.sim import answer, button_id, embed_text, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")
JS = "js-darts"


@pytest_asyncio.fixture(loop_scope="session")
async def js_world(settings, store, evaluator, solver) -> AsyncIterator[Any]:
    digits = ForcedDigits()
    revealer = ConfirmedSolver(solver, evaluator)  # the real solver, each answer confirmed by node
    bot = create_bot(
        settings, store=store, evaluator=evaluator, digits_source=digits, revealer=revealer,
        closest=revealer,
    )  # fmt: skip
    bot.service.flow.reveals.wait_s = 60.0
    async with simulated(bot) as env:
        guild = env.create_guild("Web Devs")
        channel = guild.create_text_channel("games")
        people = [guild.add_member(env.create_user(name)) for name in ("alice", "bob")]
        yield env, channel, people, digits


def _all_text(thread) -> str:
    return "\n".join(message_text(m) for m in thread.history())


async def test_training_in_javascript_refuses_what_node_refuses_and_shows_its_numbers(
    js_world, store
) -> None:
    _env, channel, (alice, _), digits = js_world
    digits.extend("1649", "1023", "7083", "7310", "9876", "1234", "1234")
    started = await alice.slash(channel, "training", set=JS)
    assert "Your game is in" in reply_text(started)
    thread = channel.threads[-1]
    assert "js-darts" in message_text(thread.last_message)

    hexadecimal = await answer(alice, thread.last_message, "0x1+649")
    assert "`0x1` at column 1 is not allowed: JavaScript would read it" in reply_text(hexadecimal)
    nan = await answer(alice, thread.last_message, "Math.sqrt(-1649)")
    assert "JavaScript's result is NaN, not a finite number." in reply_text(nan)
    unary = await alice.slash(thread, "answer", formula="-1**649")
    assert "JavaScript SyntaxError: Unary operator used immediately before" in reply_text(unary)
    php_way = await alice.slash(thread, "answer", formula="sqrt(16)+49")
    assert "`Math.sqrt(…)`" in reply_text(php_way)

    played = ["Math.sqrt(16)+49", "1+023", "7^08+3", "7/3-1-0", "9**87+6", "1234", "1234"]
    for formula in played:
        await answer(alice, thread.last_message, formula)
    record = await store.games.load_game(
        (await store.games.history(channel.guild.id, alice.id, limit=1))[0].state.id
    )
    answers = [rnd.answers[0] for rnd in record.state.rounds]
    assert [a.formula for a in answers if a] == played
    texts = []
    for answer_, formula in zip(answers, played, strict=True):
        assert answer_ is not None
        text, value = node_text(formula)
        assert answer_.result == value and isinstance(answer_.result, float), formula
        texts.append(text)
    assert texts[:4] == ["53", "20", "12", "1.3333333333333335"]  # legacy octal 023, 08 is 8
    final = node_scores([a.result for a in answers if a])
    assert rules.CLASSIC.goal == record.state.game_set.goal
    summary = message_text(thread.last_message)
    assert "All 7 rounds played" in summary or "7 rounds" in summary
    body = _all_text(thread)
    # IEEE doubles as node computes them: points |100 - |r - 100|| = 1.3333333333333286
    assert "`7/3-1-0` = 1.3333333333333335 → −1.3333333333333286 → **414.6666666666667**" in body
    assert "Points **1.3333333333333286**" in body
    assert f"`9**87+6` = {texts[4]}" in body and "e+83" in texts[4]
    assert "E+83" not in body, "no PHP-printed number in a JavaScript game"
    assert f"**{final}**" in body, "the Score is node's own arithmetic"
    assert "js-darts" in summary


async def test_a_qualification_in_javascript_ranks_node_scores_on_the_board(
    js_world, store
) -> None:
    _env, channel, (_, bob), _ = js_world
    await bob.slash(channel, "qualification", set=JS)
    thread = channel.threads[-1]
    results = []
    for _ in range(7):
        digits = thread.last_message.embeds[0].fields[0].value.strip("*")
        a, b, c, d = digits
        formula = f"Math.sqrt({a}{b})+{c}{d}"  # `cd` is legacy octal when it starts with 0
        ok = await answer(bob, thread.last_message, formula)
        text, value = node_text(formula)
        assert f"= {text}" in reply_text(ok) or text in reply_text(ok)
        results.append(value)
    record = (await store.games.history(channel.guild.id, bob.id, limit=1))[0]
    assert record.state.outcome is not None
    assert [r.answers[0].result for r in record.state.rounds] == results
    final = node_scores(results)
    board = await bob.slash(channel, "leaderboard qualification", set=JS)
    shown = "\n".join(embed_text(e) for e in board.response.embeds) if board.response else ""
    shown += "\n".join(embed_text(e) for m in board.followups for e in m.embeds)
    assert "js-darts · JavaScript" in shown
    assert f"{final} left after 7 rounds" in shown, shown


async def test_a_duel_in_javascript_and_its_summary(js_world, store) -> None:
    _env, channel, (alice, bob), digits = js_world
    digits.extend("7310", "5310")
    challenge = await alice.slash(channel, "duel", opponent=bob, set=JS)
    message = channel.last_message
    await bob.click(message, custom_id=button_id(message, "fd:duel:yes:"))
    thread = channel.threads[-1]
    await answer(alice, thread.last_message, "7/3-1-0")
    await answer(bob, thread.last_message, "7^3+10")  # + binds first: 7 ^ 13
    await answer(alice, thread.last_message, "5^3+10")
    await answer(bob, thread.last_message, "0.5+310")
    await alice.slash(thread, "resign")
    body = _all_text(thread)
    assert challenge is not None
    assert node_text("7^3+10")[0] == "10" and "`7^3+10` = 10 → −10 → **491**" in body
    after = node_scores([node_text("7/3-1-0")[1]])
    assert f"`7/3-1-0` = 1.3333333333333335 → −1.3333333333333286 → **{after}**" in body
    assert "`5^3+10` = 8" in body
    record = (await store.games.history(channel.guild.id, alice.id, limit=1))[0]
    assert record.state.outcome is not None and record.state.game_set.name == JS


async def test_practice_in_javascript_plays_node_confirmed_answers(js_world, store) -> None:
    env, channel, (alice, _), digits = js_world
    digits.extend("3489", "2476", "5183")
    started = await alice.slash(channel, "practice", level="perfect", set=JS)
    assert "Your game is in" in reply_text(started)
    thread = channel.threads[-1]
    await env.advance_time(30)  # the bot thinks at most a fifth of the time limit
    await answer(alice, thread.last_message, "34+89")
    record = (await store.games.history(channel.guild.id, alice.id, limit=1))[0]
    first = record.state.rounds[0]
    mine, bots = first.answers
    assert mine is not None and bots is not None and not bots.auto
    assert bots.result == node_text(bots.formula)[1]
    assert isinstance(bots.result, float) and isinstance(mine.result, float)
    assert re.search(r"Math\.|\+|\*|-", bots.formula)
    await alice.slash(thread, "resign")


async def test_php_beside_it_reads_as_php(js_world, store) -> None:
    _env, channel, (alice, _), digits = js_world
    digits.extend("9876")
    await alice.slash(channel, "training", set="darts")
    thread = channel.threads[-1]
    await answer(alice, thread.last_message, "pow(9,87)+6")
    body = _all_text(thread)
    assert "E+83" in body and "e+83" not in body
    await alice.slash(thread, "resign")
