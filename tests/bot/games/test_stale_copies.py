"""An old copy of a round (a private game's round shown again by /training) says it is
old and loses its Answer button when it is clicked after its round or game is over."""

from __future__ import annotations

import pytest

from bot.settings import BotSettings, SoloGames
from tests.support.sim import answer, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def settings(settings: BotSettings) -> BotSettings:
    return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})


def _copy(world, message_id: int):
    return next(m for m in world.channel.history(viewer=world.alice) if m.id == message_id)


async def test_an_old_copy_of_a_round_says_so_and_loses_its_button(world) -> None:
    world.digits.extend("3489", "2476", "1234")
    first = await world.alice.slash(world.channel, "training")
    again = await world.alice.slash(world.channel, "training")  # the same round, shown again
    await answer(world.alice, again.response.message, "34+89")  # round 1 answered there
    old = first.response.message
    clicked = await world.alice.click(old, label="Answer")
    shown = _copy(world, old.id)
    assert not shown.components, "the old copy keeps a live-looking Answer button"
    assert "old copy" in message_text(shown).lower(), message_text(shown)
    assert clicked.response is not None


async def test_a_copy_of_a_game_that_ended_says_so_too(world) -> None:
    world.digits.extend("3489", "2476")
    first = await world.alice.slash(world.channel, "training")
    await world.alice.slash(world.channel, "training")
    await world.alice.slash(world.channel, "resign")
    await world.alice.click(first.response.message, label="Answer")
    shown = _copy(world, first.response.message.id)
    assert not shown.components and "old copy" in message_text(shown).lower()
