"""A private round whose interaction token aged past its time waits for its player
(issue 28): an interaction's token lives 15 minutes, and a private game has no other
way to show a round. A Practice player idle through a long round, or a round held by a
followup 429, leaves a round no token can carry: it waits unseen with its clock not
started, the player is told where things stand, and their next press shows it with a
fresh clock: no void on the re-post schedule, no attempt lost. Each failed first: the
game was voided about eight minutes later ("Discord would not let the bot show ...")."""

from __future__ import annotations

import pytest

import rules
from bot.games._riding import TOKEN_LIFE_S
from tests.bot.games.test_followup_holds import FollowupLimit
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.bot.games.test_private_games import latest, mine, settings  # noqa: F401 (fixture)
from tests.support.sim import answer, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

LONG = rules.GameSet(
    name="long", start_score=501, goal=100, bonus=50, max_rounds=7, time_limit=600, min_rounds=4
)
"""The longest round a private game may have: its post needs the token for 10 minutes
more, so a token older than about 3 minutes cannot carry it."""
HOLD_S = 300.0
"""A followup 429 longer than that: the answer's token is too old once it ends."""


async def start_long(world, command: str, **options: str) -> str:
    await world.store.sets.save_server_set(world.guild.id, LONG)
    world.digits.extend("3489", "2476", "1234", "5678")
    await world.alice.slash(world.channel, command, set="long", **options)
    return await game_id_of(world, world.alice)


async def held_past_the_token(world, monkeypatch, command: str) -> str:
    """Round 1 answered under a followup 429 of HOLD_S: round 2 waits for the hold, and
    by its end the answer's token cannot outlive a round of LONG."""
    game_id = await start_long(world, command)
    FollowupLimit(world.bot.budget.clock, HOLD_S).install(monkeypatch)
    rnd = live_round(world.env, game_id)
    await answer(world.alice, latest(world, world.alice), rnd.digits)
    await world.env.advance_time(HOLD_S + 5)  # the hold ends: the post is tried again
    return game_id


def told(world) -> list[str]:
    return [message_text(m) for m in mine(world, world.alice)]


async def shows_on_the_next_press(world, command: str, game_id: str, number: int) -> None:
    """It waited unseen; `command` (the next press) shows it, its clock starting then."""
    await world.env.advance_time(2 * TOKEN_LIFE_S)  # long past the re-post schedule
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.state.outcome is None, stored.meta.void_reason
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == number and rnd.shown_at is None
    pressed_at = world.bot.service.clock()
    await world.alice.slash(world.channel, command)
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == number and rnd.shown_at is not None
    assert rnd.answer_deadline >= pressed_at + LONG.time_limit  # a fresh clock
    shown = latest(world, world.alice)
    assert f"round {number} of 7" in (shown.embeds[0].title or "")
    assert "waited for you" in message_text(shown), message_text(shown)


async def test_an_idle_practice_round_past_the_tokens_life_waits_for_the_next_press(
    world,
) -> None:
    game_id = await start_long(world, "practice", level="beginner")
    """The bot (no solver here) answers round 1 at its deadline, 10 minutes after alice
    did: her answer's token cannot carry round 2 for 10 minutes more."""
    rnd = live_round(world.env, game_id)
    await answer(world.alice, latest(world, world.alice), rnd.digits)
    await world.env.advance_time(LONG.time_limit + 5)  # the bot answers round 1
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is None
    assert any("Round 2 is waiting for you" in text for text in told(world)), told(world)
    await shows_on_the_next_press(world, "practice", game_id, 2)


@pytest.mark.parametrize("command", ["training", "qualification"])
async def test_a_round_held_past_the_tokens_life_waits_for_the_next_press(
    world, monkeypatch, command
) -> None:
    game_id = await held_past_the_token(world, monkeypatch, command)
    await shows_on_the_next_press(world, command, game_id, 2)
    rnd = live_round(world.env, game_id)
    await answer(world.alice, latest(world, world.alice), rnd.digits)  # the game goes on
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 3


async def test_a_qualification_attempt_is_not_lost_to_an_aged_token(world, monkeypatch) -> None:
    """The waiting attempt is the same one, played to its end: it counts, once."""
    game_id = await held_past_the_token(world, monkeypatch, "qualification")
    await world.env.advance_time(2 * TOKEN_LIFE_S)
    await world.alice.slash(world.channel, "qualification")
    while (rnd := live_round(world.env, game_id)) is not None:
        await answer(world.alice, latest(world, world.alice), rnd.digits)
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.state.outcome is not None
    assert stored.state.outcome.termination is not rules.Termination.VOID
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None


async def test_a_waiting_round_keeps_waiting_through_a_clean_restart(
    world, monkeypatch, make_bot
) -> None:
    """The wait is saved with the game: a restart neither voids it nor times it out."""
    game_id = await held_past_the_token(world, monkeypatch, "training")
    await world.bot.service.close()
    await world.env.restart_bot(make_bot())
    await shows_on_the_next_press(world, "training", game_id, 2)


async def test_an_answer_typed_while_the_round_waits_shows_it_instead(world, monkeypatch) -> None:
    """/answer is a press too: the formula was typed for no round the player has seen,
    so it is not taken; the waiting round is shown through it, its clock starting then
    (it was refused as too late, and the round went on waiting)."""
    game_id = await held_past_the_token(world, monkeypatch, "training")
    await world.env.advance_time(2 * TOKEN_LIFE_S)
    pressed_at = world.bot.service.clock()
    typed = await world.alice.slash(world.channel, "answer", formula="1+2")
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is not None
    assert rnd.answers == [None] and rnd.answer_deadline >= pressed_at + LONG.time_limit
    shown = latest(world, world.alice)
    assert "round 2 of 7" in (shown.embeds[0].title or "")
    assert "was not taken" in message_text(shown), [message_text(m) for m in typed.followups]
