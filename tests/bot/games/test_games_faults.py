"""Every REST call a game makes, failing once with 503 and with 429 (simcord's inject_error):
the game's state is saved either way, the player is told what Discord lets the bot tell,
and the game goes on at the retry or the player's next interaction.

docs/RELIABILITY.md is the table of these cases and what the player sees.
"""

from __future__ import annotations

import pytest

from tests.support.sim import reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

CALLS = {
    "the interaction's first response (defer, modal)": ("POST", "/interactions/*/callback"),
    "the private reply, edited": ("PATCH", "/webhooks/*/messages/@original"),
    "a followup (the public notice, an answer's verdict)": ("POST", "/webhooks/*"),
    "the game's thread, created": ("POST", "/channels/*/messages/*/threads"),
    "a round's message, posted": ("POST", "/channels/*/messages"),
    "a round's message, edited into its result": ("PATCH", "/channels/*/messages/*"),
}


async def _until(world, attempt, done, tries: int = 3) -> list[str]:
    """Run a player's step until `done()`, as a player would try again; what they saw."""
    seen = []
    for _ in range(tries):
        result = await attempt()
        seen.append(reply_text(result) if result is not None else "")
        await world.env.advance_time(10)  # the bot's own retries run meanwhile
        if await done():
            return seen
    raise AssertionError(f"the step never went through; the player saw {seen}")


CASES = [
    (call, phase, status)
    for status in (503, 429)
    for phase in ("start", "answer")
    for call in CALLS
    # a 429 that reaches the bot is never retried by hand: round 1's post waits for the
    # round's deadline (tests/bot/test_rest_sim.py)
    if (call, phase, status) != ("a round's message, posted", "start", 429)
]
"""503, not 500: discord.py tries a 500 five times itself, so a 500 that reaches the bot
has been retried already, and a 503 is what a bot-token call sees at once."""


@pytest.mark.parametrize(("call", "phase", "status"), CASES)
async def test_a_failing_call_loses_nothing_and_the_game_goes_on(
    world, call, phase, status
) -> None:
    world.digits.extend("3489", "3489", "2476", "2476")
    method, path = CALLS[call]
    if phase == "start":
        world.env.inject_error(method, path, status=status, times=1)
    guild, alice = world.guild.id, world.alice.id

    async def started() -> bool:  # its round is up (noted in the store by the next save)
        game = await world.bot.service.game_of(guild, alice)
        return game is not None and game.meta.round_message_id is not None

    seen = await _until(world, lambda: world.alice.slash(world.channel, "training"), started)
    game = await world.store.games.active_game_of(guild, alice)
    thread = next(t for t in world.channel.threads if t.id == game.channel_id)
    first_digits = game.state.rounds[0].digits
    formula = {"3489": "34+89", "2476": "2*47+6"}[first_digits]
    if phase == "answer":
        world.env.inject_error(method, path, status=status, times=1)

    async def answered() -> bool:
        stored = await world.store.games.load_game(game.state.id)
        return stored is not None and stored.state.rounds[0].answers[0] is not None

    seen += await _until(
        world, lambda: world.alice.slash(thread, "answer", formula=formula), answered
    )
    stored = await world.store.games.load_game(game.state.id)
    assert stored.state.rounds[0].answers[0].formula == formula  # saved, once
    assert len(stored.state.rounds) == 2  # and the game went on
    assert not any("Traceback" in text for text in seen)
    world.env._errors_acknowledged = len(world.env.errors)  # what failed was logged
