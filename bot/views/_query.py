"""The query layer: what a board, a player's record and a game replay show, as plain
frozen values both renderers (Discord embeds in `_render`, web pages in `bot.web`) draw.

Every secret is decided here, once: a Qualification replay asks `rules.seal` (through
`seal_of`) and a sealed one carries no rounds at all, so no renderer can show its Digits
by mistake; barred players and voided games are left off boards by the Store's queries.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo
from enum import StrEnum
from typing import assert_never

import rules
from bot.charts import (
    DUELS_MAX,
    GAMES_MAX,
    EloChartInput,
    StatsChartInput,
    elo_input,
    stats_input,
)
from bot.play import accuracy, seal_of
from bot.storage import GameRecord, LeaderRow, PlayerStats, RatingRow, Store
from bot.views._void import voided
from rules import Streak
from rules.modes import declared

PAGE_SIZE = 10
CALENDAR_DAYS = 18 * 7
"""How far back a player page's streak calendar looks: its 17 weeks and the days of an
eighteenth before them it may start in."""


class BoardPeriod(StrEnum):
    """Which days a Qualification board spans, up to today in the server's timezone; the
    value is what a command option, a button's custom_id and a page's URL carry."""

    TODAY = "today"
    WEEK = "week"
    ALL = "all"

    @classmethod
    def parse(cls, text: str | None) -> BoardPeriod | None:
        """The period `text` names, or None (an old or forged value is not guessed at)."""
        try:
            return cls(text) if text is not None else None
        except ValueError:
            return None


PERIODS: tuple[BoardPeriod, ...] = tuple(BoardPeriod)


def page_count(total: int, size: int = PAGE_SIZE) -> int:
    return max(1, -(-total // size))


def since(period: BoardPeriod, now: datetime, tz: tzinfo = UTC) -> str | None:
    """The first Qualification period (a day in the server's timezone) a board includes."""
    match period:
        case BoardPeriod.TODAY:
            return rules.period_of(now, tz)
        case BoardPeriod.WEEK:
            today = datetime.strptime(rules.period_of(now, tz), "%Y-%m-%d")
            return (today - timedelta(days=6)).strftime("%Y-%m-%d")
        case BoardPeriod.ALL:
            return None
        case _:
            assert_never(period)


@dataclass(frozen=True)
class Board:
    """One page of a Qualification board: one Set version over today, the week or all time."""

    set_name: str
    period: BoardPeriod
    version: str | None
    rows: tuple[LeaderRow, ...]
    streaks: Mapping[int, Streak]
    page: int
    pages: int
    language: rules.FormulaLanguage
    """The Set's language as its latest game of the board had it: named, and its Scores."""
    day: str | None = None
    """One Qualification day (a period, `2026-01-01`) the board ranks instead of `period`
    (a replay's link to its day's board)."""

    @property
    def past_end(self) -> bool:
        """A page asked for past the last (an old link, an edited `?page=`): it is empty,
        but not because nothing was played, so a renderer says so and links the last."""
        return self.page >= self.pages


@dataclass(frozen=True)
class DuelBoard:
    rows: tuple[RatingRow, ...]
    page: int
    pages: int

    @property
    def past_end(self) -> bool:
        """As `Board.past_end`: empty because the page is past the last one."""
        return self.page >= self.pages


@dataclass(frozen=True)
class Replay:
    """A game to replay. `sealed` (a Qualification whose Digits are still secret): the
    record's rounds are emptied here, so only its outcome can be drawn."""

    record: GameRecord
    sealed: rules.Seal | None = None
    accuracy: tuple[float | None, ...] = ()
    """Each seat's accuracy against the best answers (None: none found)."""

    @property
    def voided(self) -> bool:
        return voided(self.record)


@dataclass(frozen=True)
class PlayerRecord:
    """A player's page: totals, streaks per Set, the last games and the stats chart's data."""

    user_id: int
    stats: PlayerStats
    streaks: Mapping[str, Streak]
    games: tuple[GameRecord, ...] = ()
    chart: StatsChartInput | None = field(default=None)
    elo: EloChartInput | None = None
    """The Elo chart's data: the player's last rated duels here; None before any."""
    today: str = ""
    """The server's current day (a period), where the streak calendar ends."""
    days: tuple[str, ...] = ()
    """The days of the last CALENDAR_DAYS with a finished Qualification (any Set)."""


async def board(
    store: Store, guild_id: int, set_name: str, period: BoardPeriod, version: str | None,
    page: int = 0, now: datetime | None = None, *, day: str | None = None,
) -> Board:  # fmt: skip
    """A Qualification board page, with each player's current streak; `day`: that one
    day's board instead of `period`'s."""
    zone = (await store.servers.settings(guild_id)).zone
    moment = now or datetime.now(UTC)
    first = day if day is not None else since(period, moment, zone)
    rows, total = await store.boards.qualification_page(
        guild_id, set_name, first, limit=PAGE_SIZE, offset=page * PAGE_SIZE, version=version,
        until=day,
    )  # fmt: skip
    users = [row.user_id for row in rows]
    streaks = await store.boards.board_streaks(
        guild_id, set_name, users, rules.period_of(moment, zone)
    )
    lang = await store.boards.set_language(guild_id, set_name, version)
    return Board(
        set_name, period, version, tuple(rows), streaks, page, page_count(total), lang, day
    )


FIND_MAX = 2000
"""How far down a board "my place" and a search by name look (one query)."""


async def board_rows(
    store: Store, guild_id: int, set_name: str, period: BoardPeriod, version: str | None,
    now: datetime | None = None, *, day: str | None = None,
) -> list[LeaderRow]:  # fmt: skip
    """A board's first FIND_MAX rows in rank order, to find a player on it."""
    zone = (await store.servers.settings(guild_id)).zone
    first = day if day is not None else since(period, now or datetime.now(UTC), zone)
    return await store.boards.qualification_leaderboard(
        guild_id, set_name, first, limit=FIND_MAX, offset=0, version=version, until=day
    )


async def duel_board(store: Store, guild_id: int, page: int = 0) -> DuelBoard:
    rows = await store.boards.duel_leaderboard(guild_id, limit=PAGE_SIZE, offset=page * PAGE_SIZE)
    return DuelBoard(tuple(rows), page, page_count(await store.boards.duel_count(guild_id)))


async def replay(
    store: Store, guild_id: int, game_id: str, now: datetime | None = None
) -> Replay | None:
    """A game of this server by its id (or a prefix); None when there is none. A sealed
    Qualification comes back without rounds; any other with every best answer kept for
    it, those found while it was played and those found after (`BestBackfill`): a view
    never solves."""
    record = await store.games.find_game(guild_id, game_id) if game_id else None
    if record is None:
        return None
    sealed = await seal_of(store, record, now or datetime.now(UTC))
    if sealed is not None:
        hidden = replace(record.state, rounds=[])
        return Replay(replace(record, state=hidden, meta=replace(record.meta, best=())), sealed)
    record = await store.best.with_found(record)
    seats = range(len(record.state.players))
    return Replay(record, None, tuple(accuracy(record, seat) for seat in seats))


async def player(
    store: Store, guild_id: int, user_id: int, now: datetime | None = None
) -> PlayerRecord:
    """What `/stats` shows of a player, their last games and the chart's data (the same
    games as the PNG in Discord: no Practice, no void)."""
    zone = (await store.servers.settings(guild_id)).zone
    today = rules.period_of(now or datetime.now(UTC), zone)
    stats = await store.boards.player_stats(guild_id, user_id)
    streaks = await store.boards.player_streaks(guild_id, user_id, today)
    records = await store.games.history(guild_id, user_id, limit=GAMES_MAX)
    counted = [
        r
        for r in records
        if declared(r.state.mode).in_stats and r.state.outcome is not None and not voided(r)
    ]
    chart = stats_input(counted, user_id) if counted else None
    elo = elo_input(await store.boards.elo_history(guild_id, user_id, DUELS_MAX))
    first = (datetime.fromisoformat(today) - timedelta(days=CALENDAR_DAYS - 1)).date()
    days = await store.boards.finished_days(guild_id, user_id, first.isoformat())
    return PlayerRecord(
        user_id, stats, streaks, tuple(records[:PAGE_SIZE]), chart, elo, today, tuple(days)
    )
