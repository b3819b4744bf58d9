"""`SOLO_GAMES=private`: Training, Qualification and Practice in messages only their
player sees, every one riding the player's interactions, so a whole game costs no
bot-token call (issue 20's 10,000 games per token; counted by route on simcord).

Each test here was seen failing before private games existed (a thread was made, and
round 1 went by the bot token)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games._riding import PRIVATE_ROUND_MAX_S, plays_privately
from bot.play import UNPOSTED
from bot.settings import BotSettings, SoloGames
from rules import CLASSIC
from rules.sets import LIMITS
from tests.bot.games.test_interaction_rounds import bot_token_calls, game_id_of, live_round
from tests.support.sim import answer, button_id, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def settings(settings: BotSettings) -> BotSettings:
    """The suites' settings (tests/bot/conftest.py) with private solo games, the default."""
    return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})


def mine(world, member) -> list:
    """The messages `member` sees in the channel that nobody else does (ephemeral)."""
    everyone = {m.id for m in world.channel.history(viewer=world.carol)}
    return [m for m in world.channel.history(viewer=member) if m.id not in everyone]


def latest(world, member):
    """`member`'s latest private message with buttons (a round's, or the summary's)."""
    return [m for m in mine(world, member) if m.components][-1]


async def play_out(world, member, game_id: str) -> None:
    while (rnd := live_round(world.env, game_id)) is not None:
        await answer(member, latest(world, member), rnd.digits)


@pytest.mark.parametrize("command", ["training", "qualification"])
async def test_a_whole_private_game_costs_no_bot_token_call(world, command) -> None:
    since = len(world.env.http_requests)
    started = await world.alice.slash(world.channel, command)
    assert started.response is not None and started.response.ephemeral
    assert not world.channel.threads  # no thread: the game is in alice's messages
    game_id = await game_id_of(world, world.alice)
    assert "round 1 of 7" in latest(world, world.alice).embeds[0].title
    await play_out(world, world.alice, game_id)
    assert "Share" in str(latest(world, world.alice).components)  # the summary
    assert bot_token_calls(world.env, since) == []
    assert not mine(world, world.bob)  # nobody else saw a round, a formula or the summary
    results = [m for m in mine(world, world.alice) if m.embeds and " · " in m.embeds[0].title]
    assert results and not any(m.components for m in results)
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.meta.private and stored.state.outcome is not None


async def test_a_private_round_that_times_out_is_told_through_the_kept_interaction(world) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    await answer(world.alice, latest(world, world.alice), "34+89")
    since = len(world.env.http_requests)
    await world.env.advance_time(CLASSIC.time_limit + 1)
    # only whether the player left the server (a missed deadline asks): nothing posted
    assert bot_token_calls(world.env, since) == ["GET /guilds/{id}/members/{id}"]
    texts = [message_text(m) for m in mine(world, world.alice)]
    assert any("Time ran out in round 2" in text for text in texts), texts
    assert live_round(world.env, game_id) is None
    round_two = next(m for m in mine(world, world.alice) if "2476" in message_text(m))
    assert not round_two.components  # its Answer button went with the timeout


async def test_private_practice_rounds_cost_no_bot_token_call(world) -> None:
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "practice", level="beginner")
    assert not world.channel.threads
    game_id = await game_id_of(world, world.alice)
    for _ in range(2):
        rnd = live_round(world.env, game_id)
        assert rnd is not None
        await answer(world.alice, latest(world, world.alice), rnd.digits)
        await world.env.advance_time(30)  # the bot thinks, then answers
    assert bot_token_calls(world.env, since) == []
    assert not mine(world, world.bob)


async def test_two_private_games_in_one_channel_take_their_own_answers(world) -> None:
    """/answer finds a private game by its player, never by the shared channel."""
    world.digits.extend("3489", "1234", "2476", "5678")
    await world.alice.slash(world.channel, "training")
    await world.bob.slash(world.channel, "training")
    alice_game = await game_id_of(world, world.alice)
    bob_game = await game_id_of(world, world.bob)
    assert alice_game != bob_game
    alice_digits = live_round(world.env, alice_game).digits
    bob_digits = live_round(world.env, bob_game).digits
    done = await world.bob.slash(world.channel, "answer", formula=bob_digits)
    assert f"`{bob_digits}`" in reply_text(done)
    assert len(world.bot.service.active.get(bob_game).state.rounds) == 2
    assert len(world.bot.service.active.get(alice_game).state.rounds) == 1
    await world.alice.slash(world.channel, "answer", formula=alice_digits)
    assert len(world.bot.service.active.get(alice_game).state.rounds) == 2


async def test_a_start_while_a_private_game_runs_shows_its_round_again(world) -> None:
    """An ephemeral message is gone when Discord's app reloads: /training brings the
    open round back (the same deadline), and no second game starts."""
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    deadline = live_round(world.env, game_id).answer_deadline
    again = await world.alice.slash(world.channel, "training")
    assert again.response is not None and "round 1 of 7" in again.response.embeds[0].title
    assert live_round(world.env, game_id).answer_deadline == deadline
    assert await game_id_of(world, world.alice) == game_id
    done = await answer(world.alice, again.response.message, "34+89")
    assert "123" in reply_text(done)
    assert live_round(world.env, game_id).number == 2


async def test_every_valid_set_fits_an_interaction_token() -> None:
    """A round's message is edited at its deadline by the token that posted it (15
    minutes): the longest round a Set may have must fit, or its games need a thread."""
    longest = replace(CLASSIC, time_limit=LIMITS["time_limit"][1])
    assert plays_privately(longest.time_limit) and longest.time_limit <= PRIVATE_ROUND_MAX_S
    assert not plays_privately(PRIVATE_ROUND_MAX_S + 1)


async def test_a_private_game_goes_on_after_a_restart_from_its_answer_button(
    world, make_bot
) -> None:
    """A restart forgets the kept interaction (a credential is not stored): the round
    the player still sees takes their answer, whose interaction carries the game on."""
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    await answer(world.alice, latest(world, world.alice), "34+89")
    second = latest(world, world.alice)
    await world.env.restart_bot(make_bot())
    since = len(world.env.http_requests)
    done = await answer(world.alice, second, "2*47+6")
    assert "100" in reply_text(done)
    assert live_round(world.env, game_id).number == 3
    assert "round 3 of 7" in latest(world, world.alice).embeds[0].title
    assert bot_token_calls(world.env, since) == []


async def test_resigning_a_private_game_is_told_through_the_kept_interaction(world) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    await answer(world.alice, latest(world, world.alice), "34+89")
    since = len(world.env.http_requests)
    resigned = await world.alice.slash(world.channel, "resign")
    assert "resigned" in reply_text(resigned).lower()
    assert bot_token_calls(world.env, since) == []
    assert "Share" in str(latest(world, world.alice).components)  # the summary, privately
    assert not mine(world, world.bob)


async def test_a_private_round_nobody_can_be_shown_after_a_restart_is_never_lost(
    world, make_bot
) -> None:
    """A crash loses the note that round 2 is up and the kept interaction with it: the
    round cannot be posted again (no token can post an ephemeral message), so it waits
    unseen, its clock not started, and after the re-post bound the Qualification is
    void with its attempt given back: no loss on a round its player never saw."""
    await world.alice.slash(world.channel, "qualification")
    game_id = await game_id_of(world, world.alice)
    rnd = live_round(world.env, game_id)
    await answer(world.alice, latest(world, world.alice), rnd.digits)
    world.bot.service.flow.shows.unsaved.clear()  # the crash: round 2's note never saved
    await world.env.restart_bot(make_bot())
    since = len(world.env.http_requests)
    await world.env.advance_time(20 * 60)
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.state.outcome is not None
    assert stored.state.outcome.termination.value == "void", stored.state.outcome
    assert stored.meta.void_reason == UNPOSTED
    assert [c for c in bot_token_calls(world.env, since) if not c.startswith("GET")] == []
    again = await world.alice.slash(world.channel, "qualification")  # the attempt is back
    assert again.response is not None and "no attempt was used" in message_text(again.response)
    assert "round 1 of 7" in again.followups[-1].embeds[0].title  # told first (issue 28)


async def test_a_start_in_another_channel_says_where_the_private_game_is(world) -> None:
    await world.alice.slash(world.channel, "training")
    other = world.guild.create_text_channel("elsewhere")
    refused = await world.alice.slash(other, "training")
    assert f"<#{world.channel.id}>" in reply_text(refused)
    assert "<#<#" not in reply_text(refused)
    assert "only you can see" in reply_text(refused)
    assert refused.ephemeral


async def test_a_server_may_choose_threads_and_back(world, admin) -> None:
    """`/config games`: a server's own choice beats the bot's SOLO_GAMES; unset, the
    bot's default again. Running games stay where they are."""
    chosen = await admin.slash(world.channel, "config games", place="thread")
    assert "in a thread per game" in reply_text(chosen)
    await world.alice.slash(world.channel, "training")
    assert world.channel.threads  # a thread, as the server chose
    await world.alice.slash(world.channel, "resign")
    back = await admin.slash(world.channel, "config games")
    assert "private messages only the player sees" in reply_text(back)
    assert "the bot's default" in reply_text(back)
    threads = len(world.channel.threads)
    since = len(world.env.http_requests)
    await world.bob.slash(world.channel, "training")
    assert len(world.channel.threads) == threads and bot_token_calls(world.env, since) == []


async def test_a_private_games_summary_shares_a_public_card(world) -> None:
    """The Share button on the private summary posts the spoiler-free card for everyone."""
    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    await answer(world.alice, latest(world, world.alice), "700+1")
    summary = latest(world, world.alice)
    shared = await world.alice.click(summary, custom_id=button_id(summary, "fd:share:"))
    assert f"Shared in <#{world.channel.id}>" in reply_text(shared)
    public = world.channel.history(viewer=world.carol)
    assert public and f"<@{world.alice.id}> shares a game:" in public[-1].content
    assert "7001" not in public[-1].content and "700+1" not in public[-1].content
