"""A seeded chaos run: games of every mode on simcord, with random faults, then the invariants.

Each fault has a test of its own; what those cannot show is that faults in any order and
combination still keep what the game promises. So one seeded random walk plays players
through Training, Qualification, Duel and Practice (and, on a side walk, rooms and Cups:
chaos_rooms.py, chaos_cup.py) while REST calls fail (5xx, 429), the database fails
statements, the bot restarts (cleanly, or down for minutes), PHP workers and the solver are
killed from outside and the clock jumps forward; then every game is played out and the
invariants say which promise broke (one run: chaos_run.py). A seed replays the same walk,
as far as simcord's virtual time makes the bot deterministic (a killed process dies at a
point real time decides). simcord's clock only moves forward, so a "clock jump" is a jump
forward.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord

from bot.storage import GameRecord, Store
from tests.support.chaos_cup import CupWalk
from tests.support.chaos_faults import (
    REST_FAULTS,
    DatabaseFaults,
    kill_child,
    kill_solver_worker,
)
from tests.support.chaos_invariants import finished_qualifications
from tests.support.chaos_rooms import RoomWalk, button
from tests.support.sim import (
    answer,
    embed_text,
    public_message,
    reply_text,
)

MODES = ("training", "qualification", "duel", "practice")
DAY_S = 24 * 3600
SIDE_MOVES = 0.4
"""How often a step of the walk is followed by a room's or the Cup's move."""


def replay_command(seed: int, steps: int) -> str:
    return f"python -m bench.bench_chaos --seed {seed} --steps {steps}"


def seeded_digits(seed: int) -> Callable[[Any, int], str]:
    """The Digits of unseeded rounds drawn from the run's seed (a `DigitsSource`), so a
    seed replays the games it found broken; with random Digits one run in a few ended no
    game on a checkout and failed its own check that the walk played for real."""
    rng = random.Random(seed)
    return lambda state, number: str(rng.randint(1000, 9999))


@dataclass
class Chaos:
    """One run's world, its random walk and what it saw along the way."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    board: simcord.ChannelHandle
    players: list[simcord.MemberActor]
    watcher: simcord.MemberActor
    store: Store
    make_bot: Callable[[], discord.Client]
    rng: random.Random
    faults: DatabaseFaults
    seen: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    report: dict[str, Counter[str]] = field(default_factory=dict)
    side: random.Random = field(default_factory=random.Random)
    """The rooms' and the Cup's moves draw from their own generator, so the games' walk
    of a seed stays the walk it was before rooms and the Cup joined it."""
    side_moves: float = SIDE_MOVES
    rooms: RoomWalk = field(init=False)
    cup: CupWalk = field(init=False)

    def __post_init__(self) -> None:
        self.rooms = RoomWalk(self)
        self.cup = CupWalk(self)

    async def step(self) -> None:
        action = self.rng.choices(
            [
                self.start, self.answer, self.wait, self.rest_fault, self.db_fault,
                self.restart, self.crash, self.kill_php, self.kill_solver, self.jump,
                self.peek, self.resign,
            ],
            weights=[14, 30, 14, 8, 4, 3, 2, 3, 2, 1, 6, 2],
        )[0]  # fmt: skip
        self.log.append(action.__name__)
        await action()
        if self.side.random() < self.side_moves:
            cup_first = await self.cup.waiting()
            side = self.cup_move if cup_first or self.side.random() < 0.4 else self.room
            self.log.append(side.__name__)
            await side()

    # --- players ---------------------------------------------------------------------

    async def _idle(self) -> list[simcord.MemberActor]:
        idle = []
        for player in self.players:
            if (
                await self.quietly(self.store.games.active_game_of(self.guild.id, player.id))
                is None
            ):
                idle.append(player)
        return idle

    async def quietly(self, call: Any) -> Any:
        """A read the chaos run makes for itself, past any database fault it set."""
        pending, self.faults.pending = self.faults.pending, 0
        try:
            return await call
        finally:
            self.faults.pending = pending

    async def press(
        self, member: simcord.MemberActor, message: discord.Message, prefix: str
    ) -> None:
        """`member` presses the message's button whose custom_id starts with `prefix`."""
        custom_id = button(message, prefix)
        if custom_id is not None:
            self.saw(await member.click(message, custom_id=custom_id))

    def saw(self, result: simcord.InteractionResult | None) -> None:
        if result is not None:
            self.seen.append(reply_text(result))

    async def start(self) -> None:
        idle = await self._idle()
        if not idle:
            return
        player = self.rng.choice(idle)
        mode = self.rng.choice(MODES)
        if mode == "duel":
            others = [p for p in idle if p is not player]
            if not others:
                return
            opponent = self.rng.choice(others)
            challenge = await player.slash(self.channel, "duel", opponent=opponent)
            self.saw(challenge)
            try:
                message = public_message(challenge)
            except AssertionError:
                return  # refused (busy, a fault): nothing was posted
            wanted = "no" if self.rng.random() < 0.1 else "yes"
            for row in message.components:
                for child in row.children:  # type: ignore[union-attr]
                    custom_id = getattr(child, "custom_id", "") or ""
                    if f":{wanted}:" in custom_id:
                        self.saw(await opponent.click(message, custom_id=custom_id))
                        return
            return
        if mode == "practice":
            level = self.rng.choice(["beginner", "perfect"])
            self.saw(await player.slash(self.channel, "practice", level=level))
            return
        self.saw(await player.slash(self.channel, mode))

    def formula(self, digits: str, rng: random.Random | None = None) -> str:
        roll = (rng or self.rng).random()
        if roll < 0.1:
            return digits[::-1] + "+0"  # digits out of order: refused, may try again
        if roll < 0.5:
            return f"{digits[:2]}+{digits[2:]}"
        if roll < 0.7:
            return f"{digits[0]}*{digits[1:3]}+{digits[3]}"
        return digits

    def thread_of(self, record: GameRecord) -> simcord.ChannelHandle | None:
        return next((t for t in self.channel.threads if t.id == record.channel_id), None)

    async def answer(self) -> None:
        games = await self.quietly(self.store.games.active_games())
        if not games:
            return
        record = self.rng.choice(games)
        current = record.state.current_round
        thread = self.thread_of(record)
        if current is None or thread is None:
            return
        waiting = [
            seat
            for seat, player in enumerate(record.state.players)
            if current.answers[seat] is None and any(str(p.id) == player for p in self.players)
        ]
        if not waiting:
            return
        await self._answer_seat(record, thread, self.rng.choice(waiting))

    async def _answer_seat(
        self, record: GameRecord, thread: simcord.ChannelHandle, seat: int
    ) -> None:
        current = record.state.current_round
        assert current is not None
        actor = next(p for p in self.players if str(p.id) == record.state.players[seat])
        formula = self.formula(current.digits)
        live = [m for m in thread.history() if _answers_round(m, record.state.id, current.number)]
        if live and self.rng.random() < 0.85:
            self.saw(await answer(actor, live[-1], formula))
        else:
            self.saw(await actor.slash(thread, "answer", formula=formula))

    async def answer_every_seat(self, game_id: str) -> None:
        """Every player of the game who has not answered its open round answers it."""
        record = await self.store.games.load_game(game_id)
        current = None if record is None else record.state.current_round
        thread = None if record is None else self.thread_of(record)
        if record is None or current is None or thread is None:
            return
        for seat, answered in enumerate(current.answers):
            if answered is None:
                await self._answer_seat(record, thread, seat)

    async def room(self) -> None:
        await self.rooms.step()

    async def cup_move(self) -> None:
        await self.cup.step()

    async def resign(self) -> None:
        games = await self.quietly(self.store.games.active_games())
        humans = [
            (record, p) for record in games for p in self.players
            if str(p.id) in record.state.players
        ]  # fmt: skip
        if not humans:
            return
        record, actor = self.rng.choice(humans)
        thread = self.thread_of(record)
        if thread is not None:
            self.saw(await actor.slash(thread, "resign"))

    async def peek(self) -> None:
        """A player who is not playing looks at every finished Qualification of a period
        that still has a game running: nothing of that period's Digits may show."""
        games = await self.quietly(self.store.games.active_games())
        running = {(r.guild_id, r.period) for r in games if r.period is not None}
        if not running:
            return
        finished = await self.quietly(finished_qualifications(self.store))
        for record in finished:
            if (record.guild_id, record.period) not in running:
                continue
            secret = {rnd.digits for rnd in record.state.rounds}
            owner = _actor(self.players, record.state.players[0])
            shown = everything(await self.watcher.slash(self.channel, "game", id=record.state.id))
            shown += everything(await self.watcher.slash(self.channel, "history", user=owner))
            leaked = sorted(d for d in secret if d in shown)
            if leaked:
                self.leaks.append(f"{record.state.id} of {record.period}: {leaked}")
            return

    # --- the world -------------------------------------------------------------------

    async def wait(self) -> None:
        await self.env.advance_time(self.rng.choice([1, 5, 20, 60, 121, 200]))

    async def jump(self) -> None:
        await self.env.advance_time(self.rng.randint(1800, 4 * 3600))

    async def rest_fault(self) -> None:
        method, path = self.rng.choice(REST_FAULTS)
        status = self.rng.choice([500, 502, 503, 429])
        self.env.inject_error(method, path, status=status, times=self.rng.randint(1, 3))

    async def db_fault(self) -> None:
        self.faults.pending = self.rng.randint(1, 3)

    async def restart(self) -> None:
        held, self.faults.pending = self.faults.pending, 0
        await self._supervise(lambda: self.env.restart_bot(self.make_bot()))
        self.faults.pending = held  # armed faults meet the bot's work after it is back

    async def crash(self) -> None:
        """The process is gone for a while (its timers with it), then starts again; faults
        armed before it meet the bot's work after it (a start is not where they aim)."""
        held, self.faults.pending = self.faults.pending, 0
        await self._crash_and_start()
        self.faults.pending = held

    async def _crash_and_start(self) -> None:
        bot: Any = self.env.bot
        await bot.service.close()
        bot.daily.stop()
        for name in ("RoomsCog", "CupCog"):  # their timers and schedule die with it
            cog = bot.get_cog(name)
            if cog is not None:
                await cog.cog_unload()
        await self.env.advance_time(self.rng.randint(60, 900))
        await self._supervise(lambda: self.env.restart_bot(self.make_bot()))

    async def _supervise(self, start: Callable[[], Any]) -> None:
        """Start again until it comes up, as a process supervisor would."""
        for _ in range(5):
            try:
                await start()
                return
            except Exception as error:  # a start that failed under a fault: try again
                self.log.append(f"start failed: {error!r}")
                self.env.backend.faults.clear()
        raise AssertionError("the bot never came back up")

    async def kill_php(self) -> None:
        kill_child(self.rng, lambda cmdline: "bwrap" in cmdline and "php" in cmdline)

    async def kill_solver(self) -> None:
        kill_solver_worker(self.rng)

    # --- the end ---------------------------------------------------------------------

    async def play_out(self) -> None:
        """No more faults; every game and room runs to its end (nobody answers: deadlines
        do, but in a Cup's legs, whose players show up and answer), and the clock
        passes the next midnight so every played day is posted."""
        self.faults.pending = 0
        self.env.backend.faults.clear()
        for _ in range(400):
            busy = (
                await self.store.games.active_games()
                or await self.store.rooms.open_rooms()
                or await self.store.rooms.owing()  # a reveal or table Discord refused
            )
            await self.cup.play_out()
            if not busy and not await self.cup.undecided():
                break
            await self.env.advance_time(150)
        now = self.env.now().timestamp()
        await self.env.advance_time(DAY_S - now % DAY_S + 2 * 3600)


def everything(result: simcord.InteractionResult) -> str:
    """All a command showed its user: the response and every followup, embeds included."""
    shown = [result.response] if result.response is not None else []
    shown += result.followups
    return "\n".join("\n".join([m.content, *(embed_text(e) for e in m.embeds)]) for m in shown)


def _actor(players: list[simcord.MemberActor], player_id: str) -> simcord.MemberActor:
    return next(p for p in players if str(p.id) == player_id)


def _answers_round(message: discord.Message, game_id: str, number: int) -> bool:
    wanted = f"fd:ans:{game_id}:{number}"
    return any(
        getattr(child, "custom_id", None) == wanted
        for row in message.components
        for child in getattr(row, "children", [])
    )
