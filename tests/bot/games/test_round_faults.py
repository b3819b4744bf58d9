"""Discord's faults never cost a player (issue 20): a round's clock starts only when its
message is up, Discord's retries never hold a game's lock, a thread Discord will not
make leaves nothing behind, a summary goes out without its chart rather than not at
all, and a thread the bot may not archive is left to archive itself."""

from __future__ import annotations

import asyncio

import discord
import pytest

import rules
from bot.games import _delivery
from bot.games._closing import END_BUTTONS_S
from bot.play._telling import TELL_AGAIN_S
from tests.support.sim import answer, answer_id, message_text, reply_text, round_messages

pytestmark = pytest.mark.asyncio(loop_scope="session")

ROUND_POST_TRIES = 1
"""A 500 that reaches the bot is one discord.py already tried five times (bot/games/_discord.py):
the bot does not try it again by hand, the game's flow posts the round again later."""
"""with_retry's attempts at one post (bot/games/_discord.py)."""
DAY = "2026-01-01"  # simcord's virtual clock starts on this UTC day


async def active(world, member):
    return await world.store.games.active_game_of(world.guild.id, member.id)


def texts(thread) -> str:
    return "\n".join(message_text(m) for m in thread.history())


# ------------------------------------------------- a round's clock starts when it is up


async def test_a_first_round_posted_late_gets_its_whole_time(world) -> None:
    """Every try of round 1's post fails: it is posted again later, and timed from then.
    Before: the deadline ran from the start and the day's attempt was lost unseen."""
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=ROUND_POST_TRIES)
    await world.alice.slash(world.channel, "qualification")
    thread = world.thread()
    assert round_messages(thread) == []
    await world.env.advance_time(30)  # the post is tried again
    (posted,) = round_messages(thread)
    record = await active(world, world.alice)
    rnd = record.state.current_round
    assert rnd.shown_at == pytest.approx(posted.created_at.timestamp())
    assert rnd.answer_deadline - rnd.shown_at == pytest.approx(120)  # its whole time, from then
    await world.env.advance_time(rnd.answer_deadline - world.bot.service.clock() - 5)
    assert world.bot.service.clock() > rnd.started_at + 120  # an early clock would be out
    assert "Time ran out" not in texts(thread)
    late = await answer(world.alice, posted, rnd.digits)
    assert "✅" in reply_text(late)
    assert (await world.store.games.load_game(record.state.id)).state.rounds[0].answers[
        0
    ] is not None


async def test_a_later_round_posted_late_gets_its_whole_time(world) -> None:
    """The next round's post fails through the interaction and by the bot token."""
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.inject_error("POST", "/webhooks/*", status=500, times=1)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=ROUND_POST_TRIES)
    await answer(world.alice, thread.last_message, "34+89")
    assert "round 2 of 7" not in texts(thread)
    await world.env.advance_time(30)  # posted again after 15 s
    record = await active(world, world.alice)
    rnd = record.state.current_round
    assert rnd.number == 2 and rnd.answer_deadline - world.bot.service.clock() > 100
    assert "round 2 of 7" in thread.last_message.embeds[0].title
    await answer(world.alice, thread.last_message, "2*47+6")
    assert "Score **274**" in texts(thread)


async def test_a_round_discord_never_shows_voids_the_game_and_gives_the_attempt_back(
    world,
) -> None:
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    await world.alice.slash(world.channel, "qualification")
    thread = world.thread()
    await world.env.advance_time(900)  # every re-post failed
    assert await active(world, world.alice) is None
    (game,) = await world.store.games.history(world.guild.id, world.alice.id)
    assert game.state.outcome.termination is rules.Termination.VOID
    assert game.meta.void_reason == "round_not_posted"
    assert game.state.rounds[0].answers == [None]  # no loss on a round nobody saw
    assert await world.store.games.count_attempts(world.guild.id, world.alice.id, "darts", DAY) == 0
    assert "stopped" not in texts(thread)
    world.env.backend.faults.clear()  # Discord answers again
    await world.env.advance_time(301)
    assert "would not let the bot show this game's round" in texts(thread)
    again = await world.alice.slash(world.channel, "qualification")
    assert "used" not in reply_text(again)


async def test_a_replayed_rounds_old_message_loses_its_button(world, make_bot) -> None:
    """Issue 21: after downtime the round is posted again; the old one is not answerable."""
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    old = thread.last_message
    await world.bot.service.close()
    await world.env.advance_time(200)
    await world.env.restart_bot(make_bot())
    first, again = round_messages(thread)[0], thread.last_message
    assert again.id != old.id and "played again" in message_text(again)
    assert [m.id for m in round_messages(thread)] == [again.id]  # only the new one has Answer
    assert "Replaced by the message below" in message_text(
        next(m for m in thread.history() if m.id == old.id)
    )
    del first


# ------------------------------------------------- Discord's retries never hold the lock


async def test_discords_retries_never_run_under_a_games_lock(world, monkeypatch) -> None:
    held: list[str] = []
    real = _delivery.with_retry  # type: ignore[attr-defined]

    async def watching(call, what, budget=None, **options):
        locks = world.bot.service.active._locks
        held.extend(what for game_id, lock in locks.items() if lock.locked())
        return await real(call, what, budget, **options)

    monkeypatch.setattr(_delivery, "with_retry", watching)
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await world.env.advance_time(125)  # a timeout: its edit and summary
    await world.bob.slash(world.channel, "training")
    await world.bob.slash(world.thread(), "answer", formula="34+89")
    await world.bob.slash(world.channel, "resign")
    assert held == []
    del thread


# --------------------------------------------------------------- a thread not made


async def test_a_thread_discord_rate_limits_leaves_no_notice_and_uses_nothing(
    world, monkeypatch
) -> None:
    async def limited(self, **kwargs):
        raise discord.RateLimited(120.0)

    monkeypatch.setattr(discord.PartialMessage, "create_thread", limited)
    result = await world.alice.slash(world.channel, "training")
    assert "try again in 2 minutes" in reply_text(result)
    assert world.channel.history() == [] and world.channel.threads == []
    assert await active(world, world.alice) is None
    monkeypatch.undo()
    refused = await world.alice.slash(world.channel, "training")
    assert "try again in 2 minutes" in reply_text(refused)  # the 429 held this channel's threads
    await world.env.advance_time(121)
    again = await world.alice.slash(world.channel, "training")
    assert "Your game is in" in reply_text(again)


async def test_a_private_thread_discord_rate_limits_uses_no_attempt(world, monkeypatch) -> None:
    async def limited(self, **kwargs):
        raise discord.RateLimited(120.0)

    monkeypatch.setattr(discord.TextChannel, "create_thread", limited)
    result = await world.alice.slash(world.channel, "qualification")
    assert "try again in 2 minutes" in reply_text(result)
    assert await world.store.games.count_attempts(world.guild.id, world.alice.id, "darts", DAY) == 0


async def test_the_thread_rate_limit_is_told_in_ukrainian(world, monkeypatch) -> None:
    from tests.support.sim import speak

    async def limited(self, **kwargs):
        raise discord.RateLimited(120.0)

    monkeypatch.setattr(discord.PartialMessage, "create_thread", limited)
    speak(world.env, world.alice, "uk")
    result = await world.alice.slash(world.channel, "training")
    assert "Спробуйте ще раз за 2 хвилини" in reply_text(result)


# ------------------------------------------------------------- permissions at the end


class OneChart:
    """A chart renderer that always draws the same picture."""

    async def render(self, *args) -> bytes:
        del args
        return b"\x89PNG\r\n\x1a\n" + bytes(64)


async def test_without_attach_files_the_summary_goes_without_its_chart(world, monkeypatch) -> None:
    """The upload is refused (403 Missing Permissions, either way it is tried)."""
    monkeypatch.setattr(world.bot.announcer, "charts", OneChart())
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.inject_error("POST", "/webhooks/*", status=403, code=50013, times=1)
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50013, times=1)
    await answer(world.alice, thread.last_message, "700+1")
    summary = thread.last_message
    assert "Checkout" in message_text(summary) and not summary.attachments
    assert await active(world, world.alice) is None


async def test_without_attach_files_the_chart_is_not_even_tried(world, monkeypatch) -> None:
    """Attach Files is asked of the thread's permissions first: no upload that 403s
    (a 403 counts toward Discord's invalid-request ban), the summary goes without it."""
    from simcord.backend.models.channel import Overwrite, OverwriteType  # type: ignore[attr-defined]

    deny = discord.Permissions(attach_files=True)
    world.env.backend.set_overwrite(
        world.channel.id,
        Overwrite(target_id=world.guild.me.id, type=OverwriteType.MEMBER, allow=0,
                  deny=deny.value),
    )  # fmt: skip
    monkeypatch.setattr(world.bot.announcer, "charts", OneChart())
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    since = len(world.env.http_requests)
    await answer(world.alice, thread.last_message, "700+1")
    summary = thread.last_message
    assert "Checkout" in message_text(summary) and not summary.attachments
    assert summary.embeds[0].image.url is None
    posts = [r for r in world.env.http_requests[since:] if r.method == "POST"
             and "/messages" not in r.path and not r.path.endswith("/callback")]  # fmt: skip
    assert len(posts) == 1, [r.path for r in posts]  # the summary, the verdict heading it
    assert world.bot.budget.invalid_recent() == 0


async def test_the_archive_is_scheduled_even_when_the_summary_failed(world) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.inject_error("POST", "/webhooks/*", status=500, times=None)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    await answer(world.alice, thread.last_message, "700+1")
    await world.env.advance_time(30)  # the summary and its first retry failed
    world.env.backend.faults.clear()
    since = len(world.env.http_requests)
    # the summary's next try lands (TELL_AGAIN_S) and its buttons get their time from then
    await world.env.advance_time(TELL_AGAIN_S + END_BUTTONS_S)
    assert any(
        r.method == "PATCH" and r.path == f"/channels/{thread.id}"
        for r in world.env.http_requests[since:]
    )


async def test_without_manage_threads_no_archive_is_tried(world) -> None:
    from simcord.backend.models.channel import Overwrite, OverwriteType  # type: ignore[attr-defined]

    deny = discord.Permissions(manage_threads=True)
    world.env.backend.set_overwrite(
        world.channel.id,
        Overwrite(target_id=world.guild.me.id, type=OverwriteType.MEMBER, allow=0,
                  deny=deny.value),
    )  # fmt: skip
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    since = len(world.env.http_requests)
    await world.env.advance_time(END_BUTTONS_S + 1)
    assert not any(r.method == "PATCH" for r in world.env.http_requests[since:])


async def test_a_busy_optional_lane_leaves_the_archive_to_discord(world) -> None:
    """Issue 20: an archive is optional traffic; behind a backlog it is not queued (the
    thread auto-archives after its hour), so it never spends the token's rate later."""
    from bot.games._discord import PauseKind

    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    await world.env.advance_time(END_BUTTONS_S - 1)
    world.bot.budget.pause(20.0, PauseKind.LONG)  # a backlog when the archive is due
    since = len(world.env.http_requests)
    await world.env.advance_time(60)
    assert not any(r.method == "PATCH" for r in world.env.http_requests[since:])
    assert world.bot.closer.left_to_discord == 1


# ---------------------------------------------------------------- /answer acknowledged


async def test_answer_outside_its_thread_is_acknowledged_before_the_database(
    world, monkeypatch
) -> None:
    await world.alice.slash(world.channel, "training")
    real = world.store.games.active_game_of

    async def slow(*args, **kwargs):
        await asyncio.sleep(4)  # beyond Discord's 3 s for the first response
        return await real(*args, **kwargs)

    monkeypatch.setattr(world.store.games, "active_game_of", slow)
    result = await world.alice.slash(world.channel, "answer", formula="1234")
    await world.env.advance_time(5)
    assert "✅" in reply_text(result)
    assert world.env.errors == []


# ------------------------------------------------------------------ right after a restart


async def test_an_answer_right_after_a_restart_finds_its_game(world, make_bot) -> None:
    """The running games are loaded in setup_hook; only the replayed posts wait for ready."""
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await world.bot.service.close()
    bot = make_bot()

    async def not_yet() -> None:  # the recovery after ready has not run yet
        await asyncio.sleep(3600)

    bot._recover_when_ready = not_yet
    await world.env.restart_bot(bot)
    shown = await world.alice.click(thread.last_message, custom_id=answer_id(thread.last_message))
    assert shown.modal is not None, reply_text(shown)
