"""Training end to end on simcord: slash command, thread, Answer button, modal, summary."""

from __future__ import annotations

import pytest

from tests.support.sim import answer, answer_id, message_text, public_message, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_training_checkout_in_one_round_is_perfect(world) -> None:
    world.digits.extend("7001")
    started = await world.alice.slash(world.channel, "training")
    assert started.ephemeral and "Your game is in <#" in reply_text(started)
    assert "Training" in public_message(started).content
    thread = world.thread()
    round_message = thread.last_message
    embed = round_message.embeds[0]
    assert "round 1 of 7" in embed.title
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Digits"] == "**7001**"
    assert fields["Score"] == "**501**"
    assert "<t:" in fields["Deadline"]

    shown = await world.alice.click(round_message, custom_id=answer_id(round_message))
    assert shown.modal is not None
    submitted = await world.alice.submit_modal(shown, {"formula": "700+1"})
    # the verdict heads the summary this answer carries: one followup, not two (issue 28)
    assert len(submitted.followups) == 1 and "✅ Round 1: `700+1`" in reply_text(submitted)

    messages = thread.history()
    result, summary = messages[-2].embeds[0], messages[-1].embeds[0]
    assert "700+1" in result.description and "501" in result.description
    assert "Checkout" in summary.description
    assert "Perfect" in summary.description
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None


async def test_three_rounds_with_slash_answer_and_a_retry_after_errors(world) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()

    wrong_order = await answer(world.alice, thread.last_message, "43+89")
    assert all(f.ephemeral for f in wrong_order.followups)
    text = reply_text(wrong_order)
    assert "is not a valid formula: the digits read" in text and "3489" in text

    php_error = await world.alice.slash(thread, "answer", formula="34 89")
    assert php_error.ephemeral
    assert "PHP ParseError" in reply_text(php_error)

    ok = await world.alice.slash(thread, "answer", formula="34+89")
    assert "123" in reply_text(ok)
    assert "Score **424**" in message_text(thread.history()[-2])
    await answer(world.alice, thread.last_message, "2*47+6")
    assert "Score **274**" in message_text(thread.history()[-2])
    assert "round 3 of 7" in thread.last_message.embeds[0].title
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert game is not None and game.state.scores == [274]


async def test_timeout_loses_the_game(world) -> None:
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    round_message = thread.last_message
    await world.env.advance_time(100)
    modal = await world.alice.click(round_message, custom_id=answer_id(round_message))
    await world.env.advance_time(19)
    assert thread.last_message.id == round_message.id
    await world.env.advance_time(2)
    summary = message_text(thread.last_message)
    assert "Time ran out in round 1" in summary
    assert not thread.history()[-2].components  # the round's button is gone
    late = await world.alice.submit_modal(modal, {"formula": "1234"})
    assert "Too late" in reply_text(late)
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None


def fail_once(monkeypatch, store, when) -> list[OSError]:
    """The store's next save_game of a record matching `when` fails (a passing hiccup)."""
    real = store.games.save_game
    pending = [OSError("disk I/O error (injected)")]

    async def flaky(record, *, now=None):
        if pending and when(record):
            raise pending.pop()
        return await real(record, now=now)

    monkeypatch.setattr(store.games, "save_game", flaky)
    return pending


async def test_a_failed_save_at_the_deadline_is_retried(world, monkeypatch) -> None:
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    pending = fail_once(monkeypatch, world.store, lambda r: r.state.outcome is not None)
    await world.env.advance_time(120.5)
    assert not pending  # the timeout's save failed
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is not None
    await world.env.advance_time(2)  # the retry after 1 s
    assert "Time ran out in round 1" in message_text(thread.last_message)
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    again = await world.alice.slash(world.channel, "training")
    assert "Your game is in" in reply_text(again)  # not "busy"


async def test_a_failed_save_of_the_next_round_is_retried(world, monkeypatch) -> None:
    """The answer and round 2 are saved together; that round 2 is up rides the next
    answer's save, which fails once: the answer is tried again and counts, and round 2
    is not posted twice (a reload keeps the note)."""
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    ok = await answer(world.alice, thread.last_message, "34+89")
    assert "123" in reply_text(ok)  # the answer counted
    round_two = thread.last_message
    assert "round 2 of 7" in round_two.embeds[0].title
    pending = fail_once(
        monkeypatch, world.store, lambda r: len(r.state.rounds) == 3 and r.state.rounds[1].shown_at
    )
    failed = await answer(world.alice, round_two, "2*47+6")
    assert not pending and "Something went wrong" in reply_text(failed)
    assert thread.last_message.id == round_two.id  # not posted again
    second = await answer(world.alice, round_two, "2*47+6")
    assert "100" in reply_text(second)  # round 2 took its answer, and the game went on
    stored = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert stored is not None and stored.state.scores == [274] and len(stored.state.rounds) == 3
    assert stored.state.rounds[1].shown_at is not None


async def test_strangers_cannot_answer_and_one_game_per_player(world) -> None:
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    round_message = thread.last_message

    clicked = await world.bob.click(round_message, custom_id=answer_id(round_message))
    assert clicked.modal is None and clicked.ephemeral
    assert "Only the players" in reply_text(clicked)
    slashed = await world.bob.slash(thread, "answer", formula="1234")
    assert "Only the players" in reply_text(slashed)

    again = await world.alice.slash(world.channel, "training")
    assert again.ephemeral and "already have a game" in reply_text(again)
    assert len(world.channel.threads) == 1

    resigned = await world.alice.slash(world.channel, "resign")
    assert "resigned" in reply_text(resigned)
    assert "Resigned in round 1" in message_text(thread.last_message)


async def test_ukrainian_player_sees_ukrainian(world) -> None:
    speak(world.env, world.alice, "uk")
    world.digits.extend("3489")
    started = await world.alice.slash(world.channel, "training")
    assert "починає **Тренування**" in public_message(started).content
    thread = world.thread()
    embed = thread.last_message.embeds[0]
    assert "раунд 1 з 7" in embed.title
    assert [f.name for f in embed.fields] == ["Число", "Рахунок", "Кінець раунду"]
    assert embed.fields[2].value.endswith("(120\u00a0с)")
    bad = await answer(world.alice, thread.last_message, "34+8")
    assert "неправильна формула" in reply_text(bad)
    assert "у формулі цифри 3, 4 і 8," in reply_text(bad)
    rules = await world.alice.slash(world.channel, "rules")
    assert "Супер-гра" in "\n".join(message_text(m.message) for m in [rules.response])


async def test_a_discord_error_during_a_game_is_retried(world) -> None:
    """A 503 twice (discord.py tries a 500 five times itself; a 503 reaches the bot)."""
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.inject_error("POST", f"/channels/{thread.id}/messages", status=503, times=2)
    await answer(world.alice, thread.last_message, "34+89")
    await world.env.advance_time(5)
    texts = [message_text(m) for m in thread.history()]
    assert any("Score **424**" in text for text in texts)
    assert "round 2 of 7" in thread.last_message.embeds[0].title
    await answer(world.alice, thread.last_message, "2*47+6")
    assert "Score **274**" in message_text(thread.history()[-2])


async def test_sets_list_and_autocomplete(world) -> None:
    listed = await world.alice.slash(world.channel, "sets list")
    text = message_text(listed.response.message)
    assert "darts" in text and "sprint" in text and "blitz" in text
    choices = await world.alice.autocomplete(world.channel, "training", "set", "spr")
    assert [c["value"] for c in choices] == ["sprint"]
    unknown = await world.alice.slash(world.channel, "training", set="nope")
    assert "no Set called `nope`" in reply_text(unknown)


async def test_an_unexpected_failure_gets_a_polite_message(world, monkeypatch) -> None:
    async def broken(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(world.bot.service, "start_single", broken)
    result = await world.alice.slash(world.channel, "training")
    assert result.ephemeral
    text = reply_text(result)
    assert "Something went wrong" in text and "fire" not in text
    errors = world.env.errors
    assert len(errors) == 1 and "database on fire" in str(errors[0])
