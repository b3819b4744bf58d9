"""Every suite's simulated Discord waits for the bot's real work, however slow the machine
makes it: a reaction, a start and a restart that wait on work slower than simcord's own
budget (5 s, fixed for starts) settle instead of failing the test.

The work is a thread that takes longer than that budget, as a solve or a PHP call does
beside other work (a loaded run failed 14 tests so); through `run_in_executor`, as the
solver and the charts run theirs."""

from __future__ import annotations

import asyncio
import time

import discord

from bot.play import Timers
from tests.support.fixtures import simulated

SIMCORD_BUDGET_S = 5.0
"""simcord's default settle, and the one it always gives a start or restart."""
SLOW_S = SIMCORD_BUDGET_S + 1.0


async def real_work() -> None:
    await asyncio.get_running_loop().run_in_executor(None, time.sleep, SLOW_S)


class SlowBot(discord.Client):
    """Answers a message after slow real work; `slow_start` does such work when ready, as a
    restarted bot resuming a round and its solve does."""

    def __init__(self, *, slow_start: bool = False) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents)
        self.slow_start = slow_start
        self.started = False

    async def on_ready(self) -> None:
        if self.slow_start:
            await real_work()
        self.started = True

    async def on_message(self, message: discord.Message) -> None:
        if message.author == self.user:
            return
        await real_work()
        await message.channel.send(f"done: {message.content}")


class TimedBot(discord.Client):
    """Sets a game timer a second away, then does slow real work (a round's solve)."""

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents)
        self.timers = Timers(time.time, "test")
        self.fired = False

    async def on_message(self, message: discord.Message) -> None:
        if message.author == self.user:
            return
        self.timers.at("round", time.time() + 1.0, self.fire)
        await real_work()

    async def fire(self) -> None:
        self.fired = True


async def test_a_reaction_and_a_restart_wait_for_slow_real_work() -> None:
    async with simulated(SlowBot()) as env:
        guild = env.create_guild("Slow Club")
        channel = guild.create_text_channel("general")
        member = guild.add_member(env.create_user("ann"))
        await member.send(channel, "hello")
        assert channel.last_message is not None
        assert channel.last_message.content == "done: hello"
        restarted = SlowBot(slow_start=True)
        await env.restart_bot(restarted)
        assert restarted.started


async def test_game_timers_stand_still_while_real_work_runs() -> None:
    """Real work takes no game time: a timer a second away has not fired after six real
    seconds of a solve; the test's clock fires it."""
    async with simulated(TimedBot()) as env:
        bot = env.bot
        assert isinstance(bot, TimedBot)
        guild = env.create_guild("Timed Club")
        channel = guild.create_text_channel("general")
        await guild.add_member(env.create_user("ann")).send(channel, "go")
        assert not bot.fired
        await env.advance_time(1.0)
        assert bot.fired
