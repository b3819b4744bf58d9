"""Followups budgeted like everything else (issue 28): every game followup and
interaction edit goes through one layer (`Followups`) that gives a call up at its cap
instead of waiting out a followup's 429 for its whole `retry_after`, and counts them;
an answered round costs one followup post and one edit, its verdict heading the next
round's message instead of landing below it."""

from __future__ import annotations

import time
from typing import Any

import discord
import discord.http
import pytest

from bot.games._discord import RestBudget, response_trace
from bot.games._followups import Followups
from bot.games._riding import KeptVia
from bot.play import RestBusy
from bot.settings import BotSettings, SoloGames
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.support.discord_rest import LONG_429, DiscordRest
from tests.support.sim import answer, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def settings(settings: BotSettings) -> BotSettings:
    return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})


def mine(world: Any, member: Any) -> list[discord.Message]:
    everyone = {m.id for m in world.channel.history(viewer=world.carol)}
    return [m for m in world.channel.history(viewer=member) if m.id not in everyone]


def webhook_calls(world: Any, since: int) -> list[str]:
    return [
        f"{r.method} {'edit' if '/messages/' in r.path else 'post'}"
        for r in world.env.http_requests[since:]
        if r.path.startswith("/webhooks/")
    ]


async def test_an_answered_round_costs_one_followup_and_one_edit_in_order(world) -> None:
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    for number in (1, 2):
        rnd = live_round(world.env, game_id)
        assert rnd is not None
        shown = [m for m in mine(world, world.alice) if m.components][-1]
        since = len(world.env.http_requests)
        await answer(world.alice, shown, rnd.digits)
        assert sorted(webhook_calls(world, since)) == ["PATCH edit", "POST post"]
        last = mine(world, world.alice)[-1]  # nothing lands below the next round
        assert f"round {number + 1} of 7" in (last.embeds[0].title or "")
        assert last.content.startswith(f"✅ Round {number}: `{rnd.digits}`"), last.content
    assert world.bot.announcer.followups.posts >= 2
    assert world.bot.announcer.followups.late == 0
    texts = [message_text(m) for m in mine(world, world.alice)]
    assert sum("✅ Round 1" in text for text in texts) == 1


async def test_a_followup_under_a_long_429_is_given_up_at_its_cap(monkeypatch) -> None:
    """discord.py's webhook code waits out a followup's 429 for its whole retry_after
    (here 60 s); the layer gives it up at its cap, and the token works after."""
    async with DiscordRest() as server:
        monkeypatch.setattr(discord.http.Route, "BASE", server.route_base)
        client = discord.Client(intents=discord.Intents.none())
        await client.http.static_login("test-token")
        try:
            session = client.http._HTTPClient__session  # type: ignore[attr-defined]
            webhook = discord.Webhook.partial(1, "token", session=session)
            kept = KeptVia(webhook, lambda: 0.0, 0.0, 7)
            followups = Followups(RestBudget(time.monotonic), cap_s=1.0)
            server.fail("PATCH", r"/webhooks/1/token/messages/\d+", [LONG_429])
            with pytest.raises(RestBusy):
                await followups.edit(lambda: kept.edit(5, content="x"), "round 2")
            assert followups.late == 1 and followups.edits == 1
            await followups.edit(lambda: kept.edit(5, content="y"), "round 2")  # its lock let go
            assert server.count("PATCH", r"/webhooks/1/token/messages/5") == 2
        finally:
            await client.http.close()


async def test_a_followup_429_the_trace_saw_holds_its_token_and_the_deadline_refuses(
    monkeypatch,
) -> None:
    """In production discord.py sleeps a followup's 429 out inside the call; the trace
    sees it and holds the interaction's bucket, so the call given up at its cap says how
    long (`retry_after_s`) and the next call through that token sends nothing into the
    429. A call past the game's deadline (`until`) is not made at all."""
    async with DiscordRest() as server:
        monkeypatch.setattr(discord.http.Route, "BASE", server.route_base)
        budget = RestBudget(time.monotonic)
        client = discord.Client(intents=discord.Intents.none(), http_trace=response_trace(budget))
        await client.http.static_login("test-token")
        try:
            session = client.http._HTTPClient__session  # type: ignore[attr-defined]
            webhook = discord.Webhook.partial(1, "token", session=session)
            kept = KeptVia(webhook, time.monotonic, time.monotonic(), 7)
            followups = Followups(budget, cap_s=1.0)
            server.fail("POST", r"/webhooks/1/token$", [LONG_429])
            with pytest.raises(RestBusy) as late:
                await followups.post(lambda: kept.post(content="round 2"), "round 2", kept)
            assert late.value.retry_after_s is not None and late.value.retry_after_s > 30
            with pytest.raises(RestBusy):  # held: refused without a request
                await followups.post(lambda: kept.post(content="round 2"), "round 2", kept)
            assert server.count("POST", r"/webhooks/1/token$") == 1
            assert followups.held == 1
            other = KeptVia(discord.Webhook.partial(1, "other", session=session),
                            time.monotonic, time.monotonic(), 8)  # fmt: skip
            with pytest.raises(RestBusy):  # its deadline passed: not made
                await followups.post(
                    lambda: other.post(content="x"), "round 3", other, time.monotonic() - 1
                )
            assert server.count("POST", r"/webhooks/1/other$") == 0
            await followups.post(lambda: other.post(content="y"), "round 3", other)  # free
            assert server.count("POST", r"/webhooks/1/other$") == 1
        finally:
            await client.http.close()
