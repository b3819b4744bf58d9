"""Issue 28's "done when" run on the whole bot: simcord, real games, virtual time.

Games run in several channels of two servers (private Trainings and Qualification
attempts, a duel in its thread) while Discord limits the bot as it does
(`tests.support.limits.SimLimits`, every request through the bot's own response
trace): one channel's threads under a 5-minute shared 429, a second channel's
followups under 429s, and a 60 s Cloudflare ban in the middle. Then:

- every game elsewhere keeps moving (rounds answered and resolved throughout);
- no game and no attempt is lost: every game ends with its rounds played, none void,
  each Qualification attempt counted once;
- nothing is used that Discord said not to: a start in the limited channel is told
  "try again in 5 minutes" with no game, thread or attempt made, and told again
  without a request; no request goes into a held followup bucket; during the ban
  only one probe at a time leaves.

Seeded: who answers when, and how long each player takes, come from the seed. The
suite walks one seed; bench/bench_limits.py walks more."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.settings import BotSettings, SoloGames
from rules import CLASSIC
from tests.support.limits import SimLimits
from tests.support.sim import answer_id, button_id, public_message, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

SEED = int(os.environ.get("FD_LIMITS_SEED", "28"))
"""28 in the suite; bench/bench_limits.py runs others."""
THREAD_429_S = 300.0
FOLLOWUP_429_S = 90.0
BAN_AT_S, BAN_S = 100.0, 60.0
DAY = "2026-01-01"


@pytest.fixture
def settings(settings: BotSettings) -> BotSettings:
    return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})


@dataclass
class Player:
    member: Any
    channel: Any
    command: str
    game_id: str | None = None
    answered_at: list[float] = field(default_factory=list)
    """When each of the player's answers went in (the game's clock)."""


def live(world: Any, game_id: str | None) -> Any:
    record = world.bot.service.active.get(game_id) if game_id else None
    return None if record is None else record


def round_button(player: Player, number: int) -> Any:
    """The player's message of round `number` with its Answer button, if shown."""
    wanted = f"fd:ans:{player.game_id}:{number}"
    for message in reversed(player.channel.history(viewer=player.member)):
        try:
            if answer_id(message) == wanted:
                return message
        except AssertionError:
            continue
    return None


async def play_turn(world: Any, player: Player, rng: random.Random) -> None:
    """Answer the open round if it is shown, the player is quick enough this time."""
    record = live(world, player.game_id)
    rnd = record.state.current_round if record is not None else None
    if rnd is None or rnd.shown_at is None or rng.random() < 0.2:
        return
    index = record.state.players.index(str(player.member.id))
    if rnd.answers[index] is not None:
        return
    message = round_button(player, rnd.number)
    if message is None:
        return
    digits = rnd.digits
    shown = await player.member.click(message, custom_id=answer_id(message))
    if shown.modal is not None:
        await player.member.submit_modal(shown, {"formula": "+".join(digits)})
        player.answered_at.append(world.bot.budget.clock())


async def game_id_of(world: Any, guild: Any, member: Any) -> str | None:
    record = await world.store.games.active_game_of(guild.id, member.id)
    return None if record is None else record.state.id


async def test_limits_and_a_ban_cost_no_game_elsewhere(world, monkeypatch) -> None:
    rng = random.Random(SEED)
    env, budget = world.env, world.bot.budget
    limits = SimLimits(env, budget, budget.clock)
    limits.install(monkeypatch)
    other = env.create_guild("Second Club")
    limited = world.guild.create_text_channel("limited")
    followups = world.guild.create_text_channel("followups")
    lounge = other.create_text_channel("lounge")

    def member(guild: Any, name: str) -> Any:
        return guild.add_member(env.create_user(name))

    players = [
        Player(world.alice, world.channel, "training"),
        Player(world.bob, world.channel, "qualification"),
        Player(member(world.guild, "hank"), followups, "training"),
        Player(member(world.guild, "ivy"), limited, "qualification"),
        Player(member(other, "kim"), lounge, "training"),
    ]
    guild_of = {id(p): (other if p.channel is lounge else world.guild) for p in players}
    duelists = [member(other, "dave"), member(other, "erin")]
    frank, gina = member(world.guild, "frank"), member(world.guild, "gina")

    # the limited channel: its threads under a 5-minute shared 429
    limits.limit_threads(limited.id, THREAD_429_S)
    offer = public_message(await frank.slash(limited, "duel", opponent=gina))
    yes = button_id(offer, "fd:duel:yes:")
    refused = await gina.click(offer, custom_id=yes)
    assert "try again in 5 minutes" in reply_text(refused)
    again = await gina.click(offer, custom_id=yes)  # told without a request
    assert "try again in" in reply_text(again)
    threads_asked = [s for s in limits.sent if s.channel_id == limited.id and "threads" in s.path]
    assert len(threads_asked) == 1
    assert await world.store.games.active_game_of(world.guild.id, gina.id) is None

    # the games: a duel in the second server, private games everywhere (the limited
    # channel too: a private game uses no thread and is never refused for one)
    duel_offer = public_message(await duelists[0].slash(lounge, "duel", opponent=duelists[1]))
    await duelists[1].click(duel_offer, custom_id=button_id(duel_offer, "fd:duel:yes:"))
    for player in players:
        await player.member.slash(player.channel, player.command)
        player.game_id = await game_id_of(world, guild_of[id(player)], player.member)
        assert player.game_id is not None, player.command
    duel_id = await game_id_of(world, other, duelists[0])
    assert duel_id is not None
    duel_thread = lounge.threads[-1]
    duel = [Player(d, duel_thread, "duel", duel_id) for d in duelists]

    # the followups channel under 429s from now; the ban in the middle
    limits.limit_followups(followups.id, FOLLOWUP_429_S)
    start = budget.clock()
    banned = False
    while budget.clock() - start < 20 * CLASSIC.time_limit:
        if not banned and budget.clock() - start >= BAN_AT_S:
            limits.ban_for(BAN_S)
            banned = True
        order = players + duel
        rng.shuffle(order)
        for player in order:
            await play_turn(world, player, rng)
        await env.advance_time(rng.uniform(5.0, 25.0))
        if all(live(world, p.game_id) is None for p in order):
            break
    assert banned

    # no game lost: every game over, none void, its rounds all played
    for player in [*players, *duel]:
        assert live(world, player.game_id) is None, f"{player.command} still running"
        record = await world.store.games.load_game(player.game_id or "")
        assert record is not None and record.state.outcome is not None
        assert record.meta.void_reason is None, (player.command, record.meta.void_reason)
        assert player.answered_at, f"{player.command} in {player.channel} never moved"
    # every game elsewhere kept moving while the limits held (the threads' 5 minutes,
    # the followups' 429 of the other channel)
    for player in [*players, *duel]:
        if player.channel is not followups:
            during = [at for at in player.answered_at if at < start + FOLLOWUP_429_S]
            assert during, f"{player.command} in {player.channel} stood still"
    # every attempt counted once
    for player in players:
        if player.command == "qualification":
            guild = guild_of[id(player)]
            assert await world.store.games.count_attempts(
                guild.id, player.member.id, "darts", DAY
            ) == 1  # fmt: skip
    # nothing into a hold: no followup post in the limited channel while held past
    # its first 429, and during the ban at most one request at a time
    held = limits.into("POST", r"^/webhooks/\d+/[^/]+$", start, start + FOLLOWUP_429_S)
    assert len([s for s in held if s.channel_id == followups.id and s.status == 429]) <= 1
    ban = [s for s in limits.sent if limits.ban[0] <= s.at < limits.ban[1]]
    assert len(ban) <= 1 + int(BAN_S).bit_length(), ban
    assert budget.ban.bans >= 1 and not budget.stats().banned
