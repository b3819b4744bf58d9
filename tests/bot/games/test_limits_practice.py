"""Private Practice as a player sees it, with the bot's real moves (a solver): the
person's answer has the bot answer at once, so the person's interaction carries the
round's end, and on the last round the summary (issue 28: "your answer for round 7
is in ... stays secret" after the summary, with /answer; failed first)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import FormulaDartsBot, create_bot
from bot.solving import ConfirmedSolver
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.bot.games.test_private_games import latest, mine, settings  # noqa: F401 (fixture)
from tests.support.fixtures import solver  # noqa: F401 (fixture)
from tests.support.sim import answer, message_text, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def make_bot(settings, store, evaluator, digits, solver) -> Any:
    def build() -> FormulaDartsBot:
        revealer = ConfirmedSolver(solver, evaluator)
        return create_bot(
            settings, store=store, evaluator=evaluator, digits_source=digits, revealer=revealer
        )

    return build


async def test_the_last_answer_is_not_called_secret_below_the_summary(world) -> None:
    """Nothing lands below the summary, and no answer is called secret: the bot answers
    at once, so every round ends on the person's answer."""
    await world.alice.slash(world.channel, "practice", level="beginner")
    game_id = await game_id_of(world, world.alice)
    for _ in range(8):
        rnd = live_round(world.env, game_id)
        if rnd is None:
            break
        await answer(world.alice, latest(world, world.alice), rnd.digits)
    assert live_round(world.env, game_id) is None
    shown = mine(world, world.alice)
    texts = [message_text(m) for m in shown]
    summary = max(i for i, m in enumerate(shown) if "Share" in str(m.components))
    assert not any("stays secret" in text for text in texts), texts
    assert texts[summary:] == [texts[summary]], texts[summary:]  # nothing below it


async def test_the_last_answer_by_slash_command_is_not_called_secret(world) -> None:
    """/answer on Practice's last round: the bot answers at once and the game ends, yet
    the reply read the round from before the bot's answer ("... is in ... stays
    secret"), after the summary."""
    await world.alice.slash(world.channel, "practice", level="beginner")
    game_id = await game_id_of(world, world.alice)
    replies = []
    for _ in range(8):
        rnd = live_round(world.env, game_id)
        if rnd is None:
            break
        replies.append(await world.alice.slash(world.channel, "answer", formula=rnd.digits))
    assert live_round(world.env, game_id) is None
    texts = [message_text(m) for m in mine(world, world.alice)]
    secret = [t for t in texts if "stays secret" in t]
    assert not secret, (secret, texts[-3:])
    assert not any("stays secret" in reply_text(r) for r in replies)
