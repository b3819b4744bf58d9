"""How a private game the bot voided for Discord's sake reads, and the end of a round
that waits for its player (issue 28, audited on simcord with the default settings).

A game voided because its round could not be shown read in /game as "void: by an admin
(round_not_posted)": its reason, a code of the bot's own, was taken for an admin's words.
A round waiting unseen for its player's press ends after an hour (a Qualification day
stays sealed while a game of it runs): void, no attempt used, told at the next press."""

from __future__ import annotations

import pytest

from bot.play import UNSEEN
from bot.play._waiting import WAITS_AT_MOST_S
from tests.bot.games.test_aged_tokens import held_past_the_token
from tests.bot.games.test_limits_seen import voided_by_a_crash
from tests.bot.games.test_private_games import latest, settings  # noqa: F401 (fixture)
from tests.support.sim import message_text, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def game_page(world, game_id: str) -> str:
    return message_text(shown(await world.carol.slash(world.channel, "game", id=game_id)))


async def test_a_game_voided_because_its_round_was_never_shown_says_so(world, make_bot) -> None:
    game_id = await voided_by_a_crash(world, make_bot, "training")
    page = await game_page(world, game_id)
    assert "void" in page and "admin" not in page, page
    assert "Discord would not let the bot show" in page, page


async def test_a_round_waiting_an_hour_for_its_player_ends_the_game_void(
    world, monkeypatch
) -> None:
    game_id = await held_past_the_token(world, monkeypatch, "qualification")
    await world.env.advance_time(WAITS_AT_MOST_S)
    stored = await world.store.games.load_game(game_id)
    assert stored is not None and stored.meta.void_reason == UNSEEN
    assert "waited an hour for its player" in await game_page(world, game_id)
    again = await world.alice.slash(world.channel, "qualification")  # the next press
    texts = [message_text(m) for m in [again.response, *again.followups] if m is not None]
    assert any("waited an hour for you" in t and "no attempt was used" in t for t in texts), texts
    assert "round 1 of 7" in (latest(world, world.alice).embeds[0].title or "")  # a new one
    assert await world.store.untold.all() == []
