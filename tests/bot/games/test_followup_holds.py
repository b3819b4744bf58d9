"""A followup's 429 honoured (issue 28): the channel's followups are held for its
Retry-After, no request goes into it meanwhile, and a private round that cannot be
posted waits unseen with its clock not started, as after a refused post; it goes out
once the 429 is over, and the game goes on with nothing lost.

simcord raises a fault at once; discord.py's webhook code meets Discord's 429 with
its headers, so the fault here is one (`FollowupLimit`) with Retry-After and shared
scope, as Discord sends for a channel's followups. Failed first: every repost of the
round sent another request into the 429 (5 where 1 is right), each counted toward
Discord's invalid-request ban."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord.http

from bot.settings import BotSettings, SoloGames
from rules import CLASSIC
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.support.sim import answer

pytestmark = pytest.mark.asyncio(loop_scope="session")

LIMIT_S = 300.0
"""The 429's Retry-After: longer than a round's whole time."""


@pytest.fixture
def settings(settings: BotSettings) -> BotSettings:
    return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})


class _Limited:
    """Enough of aiohttp's response for discord.HTTPException: Discord's 429 headers."""

    status = 429
    reason = "Too Many Requests"

    def __init__(self, retry_after: float) -> None:
        self.headers = {
            "Retry-After": f"{retry_after:.0f}",
            "X-RateLimit-Scope": "shared",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
        }


class FollowupLimit:
    """Discord's 429 on every followup post (a webhook execute) until `until`."""

    def __init__(self, clock: Any, seconds: float) -> None:
        self.clock = clock
        self.until = clock() + seconds
        self.met = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        passing = simcord.http.FakeWebhookAdapter.request
        limit = self

        async def request(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            followup = "/webhooks/" in route.url and "/messages" not in route.url
            if route.method == "POST" and followup and limit.on():
                limit.met += 1
                left = limit.until - limit.clock()
                data = {"message": "You are being rate limited.", "retry_after": left, "code": 0}
                raise discord.HTTPException(_Limited(left), data)  # type: ignore[arg-type]
            return await passing(adapter, route, *args, **kwargs)

        monkeypatch.setattr(simcord.http.FakeWebhookAdapter, "request", request)

    def on(self) -> bool:
        return self.clock() < self.until


def shown_rounds(world: Any) -> list[str]:
    return [
        m.embeds[0].title or ""
        for m in world.channel.history(viewer=world.alice)
        if m.embeds and m.components
    ]


async def test_a_followup_429_longer_than_a_round_holds_the_round_unseen_until_it_ends(
    world, monkeypatch
) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    limit = FollowupLimit(world.bot.budget.clock, LIMIT_S)
    limit.install(monkeypatch)
    assert CLASSIC.time_limit < LIMIT_S

    round_1 = [m for m in world.channel.history(viewer=world.alice) if m.components][-1]
    await answer(world.alice, round_1, "34+89")
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is None  # its clock not started
    assert limit.met == 1

    await world.env.advance_time(LIMIT_S - 1)  # no request made into the hold
    assert limit.met == 1, "a request went into the 429 its bucket was held for"
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is None  # not lost unseen

    await world.env.advance_time(3)  # the 429 over: it goes out then
    assert not limit.on()
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 2 and rnd.shown_at is not None
    assert any("round 2 of" in title for title in shown_rounds(world))
    await answer(world.alice, [m for m in world.channel.history(viewer=world.alice)
                               if m.components][-1], "24+76")  # fmt: skip
    rnd = live_round(world.env, game_id)
    assert rnd is not None and rnd.number == 3  # the game goes on
