"""A dead token is not reused (issue 28): after a 401 (50027, Invalid Webhook Token) or a
404 (10015, Unknown Webhook) on an interaction's token, the game drops it: no call goes
through it again; a thread game falls back to the bot token, a private one waits for
its player's next press, as after a restart. Both failed first (every later step of
the game tried the dead token again, a private round's reposts too); the private one
failed again when it waited past the re-post schedule (the game was voided ~8 minutes
on, where it must wait for the press)."""

from __future__ import annotations

import pytest

from bot.games._riding import TOKEN_LIFE_S
from bot.settings import BotSettings, SoloGames
from rules import CLASSIC
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.support.sim import answer, button_id, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

DEAD = [(401, 50027), (404, 10015)]


def webhook_calls(world, since: int) -> int:
    return sum(r.path.startswith("/webhooks/") for r in world.env.http_requests[since:])


def kill_tokens(world, status: int, code: int) -> None:
    world.env.inject_error("*", "/webhooks/*", status=status, code=code, times=None)


@pytest.mark.parametrize(("status", "code"), DEAD)
async def test_a_thread_game_drops_a_dead_token_for_the_bot_token(world, status, code) -> None:
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    game_id = await game_id_of(world, world.alice)
    await answer(world.alice, thread.last_message, "34+89")  # round 2 rides this answer
    kill_tokens(world, status, code)
    since = len(world.env.http_requests)
    await world.env.advance_time(CLASSIC.time_limit + 1)  # its end and the summary
    assert live_round(world.env, game_id) is None
    assert webhook_calls(world, since) == 1  # the one that found it dead
    assert "Time ran out in round 2" in message_text(thread.history()[-2])
    assert "Share" in str(thread.last_message.components)  # by the bot token


@pytest.fixture
def settings(settings: BotSettings, request: pytest.FixtureRequest) -> BotSettings:
    """Thread games (the suites' settings), or what a test names (`indirect`)."""
    solo = getattr(request, "param", SoloGames.THREAD)
    return settings.model_copy(update={"solo_games": solo})


async def round_three_waits(world, status: int, code: int):
    """Private Practice: round 2 shown through alice's token, which then dies: round 2
    ends unseen and round 3 waits, long past the re-post schedule. Round 2's message
    (its Answer button still there: its end could not be shown) and the game's id."""
    await world.alice.slash(world.channel, "practice", level="beginner")
    game_id = await game_id_of(world, world.alice)
    rnd = live_round(world.env, game_id)
    shown = [m for m in world.channel.history(viewer=world.alice) if m.components][-1]
    await answer(world.alice, shown, rnd.digits)
    await world.env.advance_time(CLASSIC.time_limit + 1)  # the bot's move (no solver here)
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is not None  # alice's token
    round_two = [m for m in world.channel.history(viewer=world.alice) if m.components][-1]
    kill_tokens(world, status, code)
    since = len(world.env.http_requests)
    await world.env.advance_time(CLASSIC.time_limit + 1)  # round 2 ends unseen
    await world.env.advance_time(2 * TOKEN_LIFE_S)  # past the re-post schedule's void
    assert webhook_calls(world, since) == 1
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 3 and rnd.shown_at is None  # unseen, untimed
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.state.outcome is None, stored.meta.void_reason
    world.env.backend.faults.clear()
    return round_two, game_id


def shows_round_three(world, game_id: str) -> None:
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 3 and rnd.shown_at is not None
    latest = [m for m in world.channel.history(viewer=world.alice) if m.components][-1]
    assert "round 3 of" in (latest.embeds[0].title or "")
    assert "waited for you" in message_text(latest)  # told at the press: nothing could before


@pytest.mark.parametrize("settings", [SoloGames.PRIVATE], indirect=True)
@pytest.mark.parametrize(("status", "code"), DEAD)
async def test_a_private_game_waits_for_the_next_press_after_a_dead_token(
    world, status, code
) -> None:
    """Practice goes on past a round nobody could be shown: the round's end, the next
    round's post and each of its reposts would have tried the dead token again."""
    _, game_id = await round_three_waits(world, status, code)
    await world.alice.slash(world.channel, "practice")  # the next press shows it
    shows_round_three(world, game_id)


@pytest.mark.parametrize("settings", [SoloGames.PRIVATE], indirect=True)
async def test_a_press_on_the_old_rounds_button_shows_the_waiting_round(world) -> None:
    """The Answer button round 2 kept (its end was never shown) is a press too: it says
    that round is over and shows round 3 (it said only "this round is over")."""
    round_two, game_id = await round_three_waits(world, *DEAD[0])
    pressed = await world.alice.click(round_two, custom_id=button_id(round_two, "fd:ans:"))
    shows_round_three(world, game_id)
    old = next(m for m in world.channel.history(viewer=world.alice) if m.id == round_two.id)
    assert not old.components, pressed
