"""Real Discord's rules that the simulator shows when asked: permissions checked first,
bot-token calls counted per round, a late post that does not cost the players time,
Discord taking a game's place away, threads, intents and installs."""

from __future__ import annotations

import asyncio

import discord
import pytest

import rules
from bot.games._closing import END_BUTTONS_S
from tests.support.sim import answer, message_text, public_message, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def bot_token_calls(env, since: int) -> list[str]:
    """REST calls under the bot token's global limit (interaction callbacks and webhook
    followups are not)."""
    return [
        f"{r.method} {r.path}"
        for r in env.http_requests[since:]
        if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]


def locked_channel(world, **denied: bool):
    overwrite = discord.PermissionOverwrite(**dict.fromkeys(denied, False))
    return world.guild.create_text_channel("locked", overwrites={world.guild.me: overwrite})


# ------------------------------------------------------------------ permissions first


@pytest.mark.parametrize(
    ("command", "denied", "named"),
    [
        ("training", "create_public_threads", "Create Public Threads"),
        ("training", "send_messages_in_threads", "Send Messages in Threads"),
        ("training", "embed_links", "Embed Links"),
        ("qualification", "create_private_threads", "Create Private Threads"),
        ("qualification", "send_messages_in_threads", "Send Messages in Threads"),
    ],
)
async def test_a_missing_permission_is_named_before_anything_is_created(
    world, command, denied, named
) -> None:
    channel = locked_channel(world, **{denied: True})
    result = await world.alice.slash(channel, command)
    assert result.ephemeral and f"“{named}”" in reply_text(result)
    assert channel.history() == [] and channel.threads == []
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    if command == "qualification":  # no attempt was used
        assert (
            await world.store.games.count_attempts(
                world.guild.id, world.alice.id, "darts", "2026-01-01"
            )
            == 0
        )


async def test_the_missing_permission_is_named_in_ukrainian(world) -> None:
    from tests.support.sim import speak

    speak(world.env, world.alice, "uk")
    channel = locked_channel(world, create_public_threads=True)
    result = await world.alice.slash(channel, "training")
    assert "«Створювати публічні гілки»" in reply_text(result)


async def test_a_rematch_without_a_way_to_post_in_the_parent_is_refused_cleanly(world) -> None:
    world.digits.extend("7001")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    from tests.support.sim import button_id

    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    await answer(world.bob, thread.last_message, "7001")
    summary = thread.last_message
    world.env.backend.set_overwrite(
        world.channel.id,
        _bot_denies(world, send_messages=True),
    )
    clicked = await world.alice.click(summary, custom_id=button_id(summary, "fd:rematch:"))
    assert "“Send Messages”" in reply_text(clicked)
    assert await world.bot.service.challenges.pending_of(world.guild.id, world.alice.id) is None
    again = await world.alice.slash(world.channel, "training")  # not blocked by a challenge
    assert "Your game is in" in reply_text(again)


def _bot_denies(world, **denied: bool):
    from simcord.backend.models.channel import Overwrite, OverwriteType  # type: ignore[attr-defined]

    deny = discord.Permissions(**dict.fromkeys(denied, True))
    return Overwrite(
        target_id=world.guild.me.id, type=OverwriteType.MEMBER, allow=0, deny=deny.value
    )


# --------------------------------------------------------------- a REST budget a round


async def test_a_single_player_round_costs_two_bot_token_calls(world) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    since = len(world.env.http_requests)
    await answer(world.alice, thread.last_message, "34+89")
    calls = bot_token_calls(world.env, since)
    assert len(calls) <= 2, calls
    assert "Score **424**" in message_text(thread.history()[-2])


async def test_a_duel_round_costs_three_bot_token_calls(world) -> None:
    world.digits.extend("3489", "2476")
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    from tests.support.sim import button_id

    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    first = thread.last_message
    since = len(world.env.http_requests)
    await answer(world.alice, first, "3*4+89")
    await answer(world.bob, first, "34+89")
    calls = bot_token_calls(world.env, since)
    assert len(calls) <= 3, calls
    assert "round 2 of 7" in thread.last_message.embeds[0].title


# ------------------------------------------------------------- clocks that are fair


async def test_a_round_posted_late_gives_the_players_the_time_back(world) -> None:
    """The round's post fails once (a 503: discord.py retries a 500 itself, so a 500 that
    reaches the bot is final) and appears after the retry's backoff; answers count until
    the shown deadline plus that delay."""
    world.digits.extend("3489", "2476")
    world.env.inject_error("POST", "/channels/*/messages", status=503, times=1)
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    record = world.bot.service.game_in_channel(thread.id)  # the post's time rides the answer
    rnd = record.state.rounds[0]
    delay = rnd.opened_at - rnd.started_at
    assert delay > 0 and thread.last_message.created_at.timestamp() == pytest.approx(rnd.shown_at)
    await world.env.advance_time(120 - delay / 2)  # past the shown deadline, within the delay
    late_but_fair = await answer(world.alice, thread.last_message, "34+89")
    assert "123" in reply_text(late_but_fair)
    stored = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert stored.state.rounds[0].answers[0].elapsed == pytest.approx(120 - delay / 2)


async def test_an_answer_counts_when_discord_took_it(world, monkeypatch) -> None:
    """PHP and the bot may be slow; the answer's time is the interaction's timestamp."""
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    real = world.bot.evaluator.evaluate

    async def slow(*args, **kwargs):
        await asyncio.sleep(30)
        return await real(*args, **kwargs)

    monkeypatch.setattr(world.bot.service.evaluator, "evaluate", slow)
    await world.env.advance_time(60)
    await answer(world.alice, thread.last_message, "34+89")
    await world.env.advance_time(31)  # PHP answers 30 s later
    stored = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert stored.state.rounds[0].answers[0].elapsed == pytest.approx(60, abs=0.5)


# ---------------------------------------------------------- every interaction acked first


async def test_a_slow_database_does_not_fail_the_interaction(world, monkeypatch) -> None:
    real = world.store.games.active_game_of

    async def slow(*args, **kwargs):
        await asyncio.sleep(4)  # beyond Discord's 3 s for the first response
        return await real(*args, **kwargs)

    monkeypatch.setattr(world.store.games, "active_game_of", slow)
    await world.alice.slash(world.channel, "training")
    await world.bob.slash(world.channel, "duel", opponent=world.carol)
    await world.env.advance_time(30)  # the slow reads end; the interactions were acked at once
    posted = [m.content for m in world.channel.history()]
    assert any("starts a **Training** game" in text for text in posted)
    assert any("challenges" in text for text in posted)
    assert world.env.errors == []


# ----------------------------------------------------- when Discord takes things away


async def test_a_round_that_cannot_be_posted_voids_the_game_and_uses_no_attempt(world) -> None:
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50013, times=None)
    await world.alice.slash(world.channel, "qualification")
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    assert (
        await world.store.games.count_attempts(
            world.guild.id, world.alice.id, "darts", "2026-01-01"
        )
        == 0
    )
    history = await world.store.games.history(world.guild.id, world.alice.id)
    assert history[0].state.outcome.termination is rules.Termination.VOID
    assert history[0].meta.void_reason == "forbidden"
    world.env.backend.faults.clear()
    again = await world.alice.slash(world.channel, "qualification")
    assert "Qualification" in reply_text(again) and "used" not in reply_text(again)


async def test_a_deleted_thread_voids_its_game_and_stops_its_timer(world) -> None:
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    assert not world.bot.service.flow.timers.armed(
        (await world.store.games.history(world.guild.id, world.alice.id))[0].state.id
    )
    since = len(world.env.http_requests)
    await world.env.advance_time(600)
    assert bot_token_calls(world.env, since) == []  # nothing retries into 404s


async def test_the_bot_removed_from_a_server_voids_its_games(world) -> None:
    await world.alice.slash(world.channel, "training")
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    stored = await world.store.games.load_game(game.state.id)
    assert stored.state.outcome.termination is rules.Termination.VOID
    assert stored.meta.void_reason == "bot_removed"


async def test_a_player_who_left_makes_the_duel_void_at_the_deadline(world) -> None:
    challenge = await world.alice.slash(world.channel, "duel", opponent=world.bob)
    offer = public_message(challenge)
    from tests.support.sim import button_id

    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    await answer(world.alice, thread.last_message, "1234")
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    world.guild.remove_member(world.bob)
    await world.env.advance_time(121)  # a first miss is not asked about (a REST call)
    await world.env.advance_time(121)  # the second in a row is
    stored = await world.store.games.load_game(game.state.id)
    assert stored.state.outcome.termination is rules.Termination.VOID
    assert stored.meta.void_reason == "player_left"
    assert await world.store.boards.duel_leaderboard(world.guild.id) == []  # no Elo


# ---------------------------------------------------------------------------- threads


async def test_a_thread_that_already_exists_is_reused(world) -> None:
    """A retried create whose first try had landed: Discord answers 160004."""
    from bot.games._places import public_thread

    budget = world.bot.announcer.budget
    notice = await world.bot.get_channel(world.channel.id).send("a game starts")
    first = await public_thread(notice, "a game", budget)
    again = await public_thread(notice, "a game", budget)
    assert first == again == notice.id
    assert [t.id for t in world.channel.threads] == [notice.id]


async def test_too_many_active_threads_is_a_clear_message(world) -> None:
    world.env.inject_error("POST", "/channels/*/messages/*/threads", status=400, code=160006)
    started = await world.alice.slash(world.channel, "training")
    assert "limit of active threads" in reply_text(started)
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    assert world.env.errors == []


async def test_threads_archive_themselves_an_hour_after_their_last_message(world) -> None:
    await world.alice.slash(world.channel, "training")
    created = next(r for r in world.env.http_requests if r.path.endswith("/threads"))
    assert created.json["auto_archive_duration"] == 60


# ------------------------------------------------------------- start-up and restarts


async def test_commands_are_synced_only_when_they_changed(world, make_bot) -> None:
    def syncs() -> int:
        return sum(r.method == "PUT" and "/commands" in r.path for r in world.env.http_requests)

    before = syncs()
    await world.env.restart_bot(make_bot())
    assert syncs() == before
    assert "training" in world.alice.available_commands(world.channel)


async def test_a_crash_loop_does_not_ping_the_players_on_every_start(world, make_bot) -> None:
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    for _ in range(3):  # down long enough for the round to be replayed, three times
        await world.bot.service.close()
        await world.env.advance_time(200)
        await world.env.restart_bot(make_bot())
    rounds = [m for m in thread.history() if m.embeds and "round 1 of 7" in m.embeds[0].title]
    replays = rounds[1:]
    assert len(replays) == 3 and "played again" in message_text(replays[-1])
    assert [bool(m.components) for m in rounds] == [False, False, False, True]  # issue 21
    stored = world.env.backend.messages[thread.id]
    pinged = [m for m in replays if world.alice.id in stored[m.id].ping_user_ids]
    assert len(pinged) <= 1, "only the first replay within ten minutes may ping"


async def test_recovery_waits_for_the_gateway(world, make_bot) -> None:
    """The replayed round's deadline starts when it is posted, after READY."""
    await world.alice.slash(world.channel, "training")
    await world.bot.service.close()
    await world.env.advance_time(600)
    await world.env.restart_bot(make_bot())
    record = await world.bot.service.game_of(world.guild.id, world.alice.id)  # noted in memory
    rnd = record.state.rounds[-1]
    assert rnd.shown_at is not None and rnd.shown_at >= rnd.started_at


async def test_the_bot_asks_only_for_the_guilds_intent_and_ignores_mentions(world) -> None:
    intents = world.bot.intents
    assert intents.guilds and not intents.message_content and not intents.members
    assert intents.value == discord.Intents(guilds=True).value
    await world.alice.send(world.channel, f"{world.bot.user.mention} hello")
    assert world.env.errors == []


async def test_commands_are_installed_on_servers_only(world) -> None:
    registered = world.env.backend.commands[None].values()
    assert registered and all(c.get("integration_types") == [0] for c in registered)


def _archived(world, thread) -> bool:  # type: ignore[no-untyped-def]
    return bool(world.env.backend.channels[thread.id].thread_metadata.archived)


async def test_a_finished_games_thread_is_archived_when_its_buttons_lapse(world) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")  # a checkout: the game is over
    await world.env.advance_time(END_BUTTONS_S - 5)
    assert not _archived(world, thread)  # Rematch and Share have their minutes
    await world.env.advance_time(10)
    assert _archived(world, thread)
    patch = [r for r in world.env.http_requests if r.method == "PATCH" and r.json]
    assert any(r.path.endswith(f"/channels/{thread.id}") for r in patch)


async def test_a_thread_is_archived_on_time_across_a_restart(world, make_bot) -> None:
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    await world.env.advance_time(60)
    await world.env.restart_bot(make_bot())  # the schedule was in the old process only
    await world.env.advance_time(END_BUTTONS_S)
    assert _archived(world, thread)
