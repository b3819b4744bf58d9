"""The end-of-game summary fits Discord however long the game, and pings only when it should."""

from __future__ import annotations

import re

import pytest

import rules
from bot.games._summary import round_line
from rules import FormulaLanguage
from tests.support.sim import answer, button_id, message_text, public_message, round_messages

session_loop = pytest.mark.asyncio(loop_scope="session")
"""Async tests share the session loop of the evaluator fixture; plain ones need no loop."""

LINE = re.compile(r"^`(\d+)` \*\*\d{4}\*\* · .+$")


def long_formula(digits: str) -> str:
    """A 239-character formula: each digit in 29 pairs of parentheses."""
    return "+".join("(" * 29 + d + ")" * 29 for d in digits)


def pings(world, message) -> set[int]:
    """Whom a message notified: simcord keeps what allowed_mentions let through."""
    stored = world.env.backend.messages[message.channel.id][message.id]
    return set(stored.ping_user_ids)


def summary_messages_of(thread, first_id: int):
    return [m for m in thread.history() if m.id >= first_id]


def check_discord_limits(messages) -> list[str]:
    """Every summary line whole, in order, within every Discord limit."""
    lines = []
    for message in messages:
        assert 1 <= len(message.embeds) <= 10
        assert sum(len(embed) for embed in message.embeds) <= 6000
        for embed in message.embeds:
            assert len(embed.fields) <= 25
            for field in embed.fields:
                assert len(field.value) <= 1024
                if field.name.startswith("Rounds"):
                    for line in field.value.split("\n"):
                        assert LINE.match(line), line
                        assert line.count("`") % 2 == 0, line
                        lines.append(line)
    return lines


@session_loop
async def test_a_fifty_round_game_of_long_formulas_is_summarized_whole(world) -> None:
    marathon = rules.validate_set(
        "marathon",
        {
            "start_score": 100000,
            "goal": 100,
            "bonus": 50,
            "max_rounds": 50,
            "time_limit": 600,
            "min_rounds": 50,
        },  # computed, 667: beyond the 1..50 a Set may have
    )
    await world.store.sets.save_server_set(world.guild.id, marathon)
    await world.alice.slash(world.channel, "training", set="marathon")
    thread = world.thread()
    formula = long_formula("1234")
    assert len(formula) == 239
    for _ in range(50):
        result = await world.alice.slash(thread, "answer", formula=formula)
        assert result.ephemeral
    title = next(m for m in thread.history() if m.embeds and "game over" in m.embeds[0].title)
    summary = summary_messages_of(thread, title.id)
    assert len(summary) > 1
    lines = check_discord_limits(summary)
    assert [int(LINE.match(line).group(1)) for line in lines] == list(range(1, 51))  # type: ignore[union-attr]
    assert all(formula in line for line in lines)
    names = [f.name for m in summary for e in m.embeds for f in e.fields]
    assert names[0].startswith("Rounds 1–") and names[-1].endswith("–50")
    assert "All 50 rounds played" in message_text(summary[0])


def test_a_line_too_long_for_a_field_shortens_its_formulas_with_an_ellipsis() -> None:
    rnd = rules.Round(
        number=7,
        digits="1234",
        started_at=0.0,
        deadline=0.0,
        answers=(  # type: ignore[arg-type]
            rules.Answer("1" * 600 + "+234", 1, 2, 3, 1.0),
            rules.Answer("12+34", 46, 46, 455, 1.0, auto=True),
        ),
    )
    line = round_line(rnd, 2, "en", limit=300, lang=FormulaLanguage.PHP)
    assert len(line) <= 300
    assert line.startswith("`7` **1234** · `1111") and "…` = 1 → −2 → **3**" in line
    assert "`12+34` (auto-move) = 46" in line
    assert "(автохід)" in round_line(rnd, 2, "uk", lang=FormulaLanguage.PHP)


@session_loop
async def test_only_the_first_round_and_the_end_ping_the_players(world) -> None:
    two_rounds = rules.validate_set(
        "twoshot",
        {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 2, "min_rounds": 2,
         "time_limit": 60},
    )  # fmt: skip
    await world.store.sets.save_server_set(world.guild.id, two_rounds)
    world.digits.extend("3489", "7001")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob, set="twoshot")
    offer = public_message(challenge)
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    first = thread.last_message
    assert pings(world, first) == {world.alice.id, world.bob.id}
    before = len(thread.history())
    await answer(world.alice, first, "34+89")
    acknowledged = thread.last_message
    assert acknowledged.id == first.id and len(thread.history()) == before  # an edit, no post
    assert "has answered" in message_text(acknowledged) and "34+89" not in message_text(
        acknowledged
    )
    await answer(world.bob, first, "3+4+8+9")
    second = round_messages(thread)[-1]
    assert "round 2 of 2" in second.embeds[0].title  # type: ignore[operator]
    assert f"<@{world.alice.id}>" in second.content and pings(world, second) == set()
    assert all(not pings(world, m) for m in thread.history() if m.id > first.id)
    await answer(world.alice, second, "700+1")
    await world.env.advance_time(61)
    end = next(m for m in thread.history() if m.embeds and "game over" in m.embeds[0].title)
    assert pings(world, end) == {world.alice.id, world.bob.id}
    summary = message_text(end)
    assert "(auto-move)" in summary and f"`{rules.auto_move('7001')[0]}` (auto-move)" in summary
    assert "`*" not in summary and "`* " not in summary
