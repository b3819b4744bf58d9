"""One seeded chaos run (the walk is tests/support/chaos.py): a fresh simulated Discord
around the bot, the walk, the play-out, then every invariant and a report of what it
played. `SideWalk` says how much of it is rooms and Cups."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.storage import Store
from tests.support.chaos import SIDE_MOVES, Chaos, replay_command
from tests.support.chaos_cup import CUPS
from tests.support.chaos_cup_invariants import cup_problems, cups_seen, uncalled
from tests.support.chaos_faults import DatabaseFaults
from tests.support.chaos_invariants import all_games, invariants
from tests.support.chaos_room_invariants import room_problems, rooms_seen, shown_lost


@dataclass(frozen=True)
class SideWalk:
    """How much of the walk is rooms and Cups: the suite keeps it short (its time is
    bounded), bench_chaos plays the defaults."""

    moves: float = SIDE_MOVES
    cups: int = CUPS
    legs: int = 3


async def run_chaos(
    seed: int, steps: int, *, store: Store, make_bot: Callable[[], discord.Client],
    side: SideWalk = SideWalk(),
) -> tuple[Chaos, list[str]]:  # fmt: skip
    """One seeded run on a fresh simulated Discord around `make_bot()`'s bot: the walk, the
    play-out, and the invariants it broke (empty when it kept every one)."""
    from tests.support.fixtures import simulated

    async with simulated(make_bot()) as env:  # its restarts wait for real work too
        guild = env.create_guild("Chaos Club")
        channel = guild.create_text_channel("games")
        board = guild.create_text_channel("board")
        managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
        admin = guild.add_member(env.create_user("admin"), roles=[managers])
        await admin.slash(channel, "config channel", channel=board)
        players = [guild.add_member(env.create_user(f"player{i}")) for i in range(5)]
        chaos = Chaos(
            env=env, guild=guild, channel=channel, board=board, players=players,
            watcher=guild.add_member(env.create_user("watcher")), store=store,
            make_bot=make_bot, rng=random.Random(seed), faults=DatabaseFaults(store),
            side=random.Random(f"{seed} rooms and Cup"), side_moves=side.moves,
        )  # fmt: skip
        chaos.cup.cups_at_most, chaos.cup.legs = side.cups, side.legs
        await chaos.cup.create(admin)
        try:
            for number in range(steps):
                try:
                    await chaos.step()
                except Exception as error:
                    raise AssertionError(
                        f"step {number} ({chaos.log[-1]}) of seed {seed} failed after"
                        f" {chaos.log[-8:-1]}; replay: {replay_command(seed, steps)}"
                    ) from error
            await chaos.play_out()
            broken = await invariants(chaos)
            rooms, cups = await rooms_seen(chaos), await cups_seen(chaos)
            broken += [line for room in rooms for line in room_problems(room)]
            broken += [line for cup in cups for line in cup_problems(cup)]
            games = await all_games(store)
            chaos.report = {
                "actions": Counter(chaos.log),
                "modes": Counter(g.state.mode.value for g in games),
                "endings": Counter(
                    g.state.outcome.termination.value for g in games if g.state.outcome
                ),
                "faults": Counter({"database statements failed": chaos.faults.raised}),
                "rooms": Counter(str(room.end) for room in rooms),
                "room rounds": sum(
                    (shown_lost(room) for room in rooms),
                    Counter({"played": sum(len(room.rounds) for room in rooms)}),
                ),
                "cup": Counter(
                    [str(cup.phase) for cup in cups]
                    + [str(m.decision) for cup in cups for m in cup.matches]
                    + ["leg"] * sum(sum(m.legs_won) for cup in cups for m in cup.matches)
                    + ["legs played"] * sum(cup.legs for cup in cups)
                    + ["match never called"] * sum(uncalled(cup) for cup in cups)
                ),
            }
        finally:
            chaos.faults.close()
            env._errors_acknowledged = len(env.errors)  # the faults were meant to be logged
        return chaos, broken
