"""The midnight wave (issue 20): many servers' posts at once, but a bounded number at a
time; their calls in the REST budget's daily lane, behind the games' and the optional
lane's; nothing claimed or sent while the budget stops optional traffic; the day's
closest formulas solved before midnight, so the posts ask the solver nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

import rules
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts
from bot.daily._ahead import AHEAD_S, SMALL
from bot.games import Lane, RestBudget, RestBusy
from bot.storage import GameRecord, Store
from solver.result import Candidate
from tests.bot.daily import seeds
from tests.bot.daily.seeds import seed_day

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY_S = 24 * 3600


def at(*moment: int) -> float:
    return datetime(*moment, tzinfo=UTC).timestamp()  # type: ignore[arg-type, misc]


MIDNIGHT = at(2026, 1, 2)


class Gated:
    """A channel whose posts wait for the test to let them through, counting how many
    are in flight at once."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.in_flight = 0
        self.most = 0
        self.posted: list[int] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            await self.gate.wait()
        finally:
            self.in_flight -= 1
        self.posted.append(content.guild_id)
        return channel_id

    async def find(self, channel_id: int, marker: str, since: float) -> None:
        return None


def directory(store: Store) -> SetsDirectory:
    return SetsDirectory(store, {"darts": seeds.DARTS})


async def test_the_posts_of_many_servers_go_out_together_but_never_more_than_the_bound(
    store,
) -> None:
    for guild in range(1, 21):
        await store.servers.update(guild, at(2026, 1, 1, 12), channel_id=100 + guild)
    channel = Gated()
    daily = DailyPosts(store, directory(store), channel, clock=lambda: MIDNIGHT + 10, concurrency=4)
    running = asyncio.create_task(daily.run_due())
    for _ in range(200):  # each post reads and claims in the store first
        await asyncio.sleep(0.01)
        if channel.in_flight == 4:
            break
    assert channel.in_flight == 4  # four at once, not one server after another
    channel.gate.set()
    assert (await running).made == 20
    assert channel.most == 4
    assert sorted(channel.posted) == list(range(1, 21))


async def test_nothing_is_claimed_or_sent_while_optional_traffic_is_stopped(store) -> None:
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    allowed = [False]
    channel = Gated()
    channel.gate.set()
    daily = DailyPosts(
        store, directory(store), channel, clock=lambda: MIDNIGHT + 10,
        may_post=lambda: allowed[0],
    )  # fmt: skip
    due = await daily.run_due()
    assert (due.made, due.waiting) == (0, True)  # looked at again in RETRY_S
    assert channel.posted == []
    key = (1, "darts", "2026-01-01")
    assert not await store.servers.post_done(key)
    assert await store.servers.claim_post(key, "another", MIDNIGHT + 20, 300.0)  # not held
    await store.servers.finish_post(key, "another", None, MIDNIGHT + 20)
    allowed[0] = True
    assert (await daily.run_due()).made == 0  # the other process made it meanwhile


async def test_the_daily_lane_waits_for_the_games_and_the_optional_lane_and_stops_with_it() -> None:
    loop = asyncio.get_running_loop()
    # a token each 0.2 s: the three calls queue before the next one, even on a busy
    # machine (at 500/s a loaded run once refilled it before the games' call was made)
    budget = RestBudget(loop.time, burst=1, global_limit=5.0, invalid_limit=3)
    await budget.take(Lane.GAMES)  # the one token: the next three queue
    order: list[Lane] = []

    async def call(lane: Lane) -> None:
        await budget.take(lane)
        order.append(lane)

    daily = asyncio.create_task(call(Lane.DAILY))
    await asyncio.sleep(0)
    optional = asyncio.create_task(call(Lane.OPTIONAL))
    await asyncio.sleep(0)
    games = asyncio.create_task(call(Lane.GAMES))
    await asyncio.gather(daily, optional, games)
    assert order == [Lane.GAMES, Lane.OPTIONAL, Lane.DAILY]
    for _ in range(3):
        budget.saw_status(403)
    with pytest.raises(RestBusy):
        await budget.take(Lane.DAILY)
    await budget.take(Lane.GAMES)  # the games go on


class Solver:
    """Records what is asked of it, and when (the bot's clock)."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.closest_at: list[tuple[str, float]] = []
        self.prepared: list[str] = []

    async def prepare(self, digits: str, game_set: rules.GameSet) -> None:
        self.prepared.append(digits)

    async def closest(self, digits: str, game_set: rules.GameSet) -> Candidate | None:
        self.closest_at.append((digits, self.clock[0]))
        return Candidate(digits, int(digits), 0, 0, 4)


async def played_seeded(store: Store, guild: int, player: int, rounds: int) -> list[str]:
    """A Qualification of `guild`'s day on the Digits its seed gives (as `/qualification`
    starts it): `rounds` answered with the Digits themselves, then resigned."""
    secret = await store.install.secret("qualification")
    seed = rules.qualification_seed(
        guild, "darts", seeds.DAY, secret=secret, version=seeds.DARTS.version
    )
    digits = [rules.seeded_digits(seed, n) for n in range(1, rounds + 1)]
    state = rules.new_game(f"{guild:032d}", rules.Mode.QUALIFICATION, seeds.DARTS, [str(player)])
    for number, d in enumerate(digits):
        state = rules.apply(state, rules.StartRound(d, 1000.0 * number))
        state = rules.apply(state, rules.Submit(str(player), d, int(d), 1000.0 * number + 5))
    state = rules.apply(state, rules.Resign(str(player)))
    record = GameRecord(
        state=state,
        guild_id=guild,
        channel_id=1,
        period=seeds.DAY,
        seed=seed,
        created_at=at(2026, 1, 1, 12),
    )
    await store.games.save_game(record)
    return digits


class Recorded:
    def __init__(self) -> None:
        self.contents: list[DailyContent] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        self.contents.append(content)
        return channel_id

    async def find(self, channel_id: int, marker: str, since: float) -> None:
        return None


async def test_the_days_digits_are_solved_before_midnight_and_the_posts_ask_nothing(
    store,
) -> None:
    played = {}
    for guild in (1, 2):
        await store.servers.update(guild, at(2026, 1, 1, 12), channel_id=10 * guild)
        played[guild] = await played_seeded(store, guild, 5, rounds=3)
    await store.servers.update(3, at(2026, 1, 1, 12), channel_id=30)  # nobody played
    clock = [MIDNIGHT - AHEAD_S - 60]
    solver, channel = Solver(clock), Recorded()
    daily = DailyPosts(store, directory(store), channel, clock=lambda: clock[0], closest=solver)
    assert daily.ahead is not None
    servers = await store.servers.with_channel()
    assert await daily.ahead.look(servers) == 0  # too early: its window has not begun
    assert daily.ahead.wait_s(servers) == 60.0
    clock[0] = MIDNIGHT - 3600
    assert await daily.ahead.look(servers) == 2 * seeds.DARTS.max_rounds > SMALL
    asked = [digits for digits, _ in solver.closest_at]
    assert set(played[1] + played[2]) <= set(asked)  # every round's Digits, ahead
    assert all(moment < MIDNIGHT for _, moment in solver.closest_at)
    assert await daily.ahead.look(servers) == 0  # known: not solved again

    clock[0] = MIDNIGHT + 1
    solver.closest_at.clear()
    assert (await daily.run_due()).made == 3
    assert solver.closest_at == [] and solver.prepared == []  # the wave asks the solver nothing
    by_guild = {content.guild_id: content for content in channel.contents}
    for guild in (1, 2):
        closest = by_guild[guild].closest
        assert closest is not None and sorted(closest) == sorted(played[guild])
        assert all(c is not None and c.formula == d for d, c in closest.items())
    assert by_guild[3].closest == {}


async def test_a_small_midnight_is_left_to_its_post_which_prepares_its_digits(store) -> None:
    """One server's seven Digits: solving them ahead would save nothing, and preparing
    them at the post leaves them prepared for the `/game` reveals of the day after."""
    await store.servers.update(1, at(2026, 1, 1, 12), channel_id=10)
    digits = await played_seeded(store, 1, 5, rounds=2)
    clock = [MIDNIGHT - 3600]
    solver = Solver(clock)
    daily = DailyPosts(store, directory(store), Recorded(), clock=lambda: clock[0], closest=solver)
    assert daily.ahead is not None
    assert await daily.ahead.look(await store.servers.with_channel()) == 0
    clock[0] = MIDNIGHT + 1
    assert (await daily.run_due()).made == 1
    assert solver.prepared == digits and [d for d, _ in solver.closest_at] == digits


async def test_on_simcord_the_post_goes_through_the_bots_budget_in_the_daily_lane(
    world, board, monkeypatch
) -> None:
    await seed_day(world)
    budget = world.bot.budget
    lanes: list[Lane] = []
    take = budget.take

    async def recorded(lane: Lane = Lane.GAMES, **how: Any) -> None:
        lanes.append(lane)
        await take(lane, **how)

    monkeypatch.setattr(budget, "take", recorded)
    await world.env.advance_time(DAY_S + 60)
    assert len([m for m in board.history() if m.embeds]) == 1
    assert Lane.DAILY in lanes


async def test_on_simcord_no_post_while_invalid_requests_stop_optional_traffic(
    world, board
) -> None:
    await seed_day(world)
    await world.env.advance_time(DAY_S - 300)
    budget = world.bot.budget
    for _ in range(budget.invalid_limit):  # 403s near Discord's ban, at 23:55
        budget.saw_status(403)
    await world.env.advance_time(240)  # 23:59
    await world.env.advance_time(180)  # 00:02
    assert [m for m in board.history() if m.embeds] == []
    assert not await world.store.servers.post_done((world.guild.id, "darts", seeds.DAY))
    await world.env.advance_time(600)  # the 10-minute window has passed: it resumes
    assert len([m for m in board.history() if m.embeds]) == 1


async def test_a_wave_of_daily_calls_never_spends_the_games_burst() -> None:
    """On a clock only the budget's sleeps move: 100 daily calls from a full bucket go
    at the rate in every second (the burst is not spent on them), and the games still
    find the bucket's burst there in the middle of the wave (their second has fewer
    daily calls)."""
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    budget = RestBudget(lambda: now[0], burst=5, sleep=sleep, global_limit=12.5)  # 10/s
    seconds: list[int] = []
    for n in range(100):
        await budget.take(Lane.DAILY)
        seconds.append(int(now[0] + 1e-9))
        if n == 50:
            before = now[0]
            for _ in range(4):  # a burst of the games' calls: all at once
                await budget.take(Lane.GAMES)
                seconds.append(int(now[0] + 1e-9))
            assert now[0] == before
    per_second = [seconds.count(s) for s in sorted(set(seconds))]
    assert max(per_second) <= 11 and min(per_second[:-1]) >= 9  # calls of both lanes
