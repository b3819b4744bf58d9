"""What an admin sets a Cup up with, checked all at once (RULES.md "Cup").

`parse_spec` takes the raw option values and gives a `CupSpec` or raises `CupInvalid`
listing every problem, as a Set's validation does (`rules.sets.SetProblem`): an admin
who got three things wrong hears about all three in one answer, in their language.
The Set itself is resolved by the caller (it needs the server's Sets); its refusal joins
the same list. No discord here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from enum import StrEnum
from typing import Any, TypeVar

from bot.common import UserError
from rules.cup import LEG_COUNTS, MAX_SIZE, MIN_SIZE

NAME_MAX = 32
START_FORMAT = "%Y-%m-%d %H:%M"
MIN_LEAD_S = 60.0
"""A Cup starts at least this long after it is set up (one minute: its check-ins)."""
MAX_AHEAD_DAYS = 366
LEAD_MINUTES = 60
"""How long before its start a Cup is announced unless its admins say (RULES.md)."""
LEAD_LOW, LEAD_HIGH = 10, 24 * 60
"""The announcement lead time's range in minutes: long enough for players to see the
announcement and check in, short enough that the Qualification it names is recent."""

E = TypeVar("E", bound=StrEnum)


class Repeat(StrEnum):
    ONCE = "once"
    WEEKLY = "weekly"


class Seeding(StrEnum):
    """Where the entrants and their seeds come from: a Qualification window of the Set
    (its board over the last day, the last 7 days, all time) or open entry by Elo."""

    DAY = "day"
    WEEK = "week"
    ALL = "all"
    ELO = "elo"

    @property
    def qualified(self) -> bool:
        return self is not Seeding.ELO


@dataclass(frozen=True, slots=True)
class CupProblem:
    """One thing wrong: `field` the option, `code` its message (`cup.problem.<code>`)."""

    field: str
    code: str
    params: tuple[tuple[str, Any], ...] = ()


class CupInvalid(UserError):
    """Every problem of a Cup's settings at once."""

    prefix = "cup."

    def __init__(self, problems: list[CupProblem]) -> None:
        super().__init__("invalid")
        self.problems = problems


@dataclass(frozen=True, slots=True)
class CupSpec:
    name: str
    starts_at: float
    repeat: Repeat
    size: int
    legs: int
    seeding: Seeding
    lead_s: float = LEAD_MINUTES * 60.0


def parse_start(text: str, zone: tzinfo) -> datetime | None:
    """`YYYY-MM-DD HH:MM` in the server's time zone, as an aware UTC moment; None if not."""
    try:
        local = datetime.strptime(" ".join(text.split()), START_FORMAT)
    except ValueError:
        return None
    return local.replace(tzinfo=zone).astimezone(UTC)


def next_week(starts_at: float, zone: tzinfo) -> float:
    """A week later at the same local hour (a weekly Cup across a clock change)."""
    local = datetime.fromtimestamp(starts_at, zone).replace(tzinfo=None) + timedelta(days=7)
    return local.replace(tzinfo=zone).timestamp()


def parse_spec(
    options: dict[str, Any], zone: tzinfo, now: float, problems: list[CupProblem] | None = None
) -> CupSpec:
    """The Cup `options` describe (name, start, repeat, size, legs, seeding, lead in
    minutes), or
    `CupInvalid` with every problem, those in `problems` (the caller's) first."""
    found = list(problems or [])
    name = " ".join(str(options.get("name") or "").split())
    if not name:
        found.append(CupProblem("name", "name_empty"))
    elif len(name) > NAME_MAX:
        found.append(CupProblem("name", "name_long", (("max", NAME_MAX),)))
    start = parse_start(str(options.get("start") or ""), zone)
    if start is None:
        found.append(CupProblem("start", "start_format", (("text", options.get("start")),)))
    elif start.timestamp() < now + MIN_LEAD_S:
        found.append(CupProblem("start", "start_past", (("when", start.timestamp()),)))
    elif start.timestamp() > now + MAX_AHEAD_DAYS * 86400:
        found.append(CupProblem("start", "start_far", (("days", MAX_AHEAD_DAYS),)))
    repeat = _choice(Repeat, options.get("repeat", Repeat.ONCE.value), "repeat", found)
    seeding = _choice(Seeding, options.get("seeding", Seeding.WEEK.value), "seeding", found)
    size = _whole(options.get("size", 8))
    if size is None or not MIN_SIZE <= size <= MAX_SIZE:
        found.append(CupProblem("size", "size", (("low", MIN_SIZE), ("high", MAX_SIZE))))
    legs = _whole(options.get("legs", 3))
    if legs not in LEG_COUNTS:
        found.append(CupProblem("legs", "legs"))
    lead = _whole(options.get("lead", LEAD_MINUTES))
    if lead is None or not LEAD_LOW <= lead <= LEAD_HIGH:
        found.append(CupProblem("lead", "lead", (("low", LEAD_LOW), ("high", LEAD_HIGH))))
    if found:
        raise CupInvalid(found)
    assert start is not None and repeat is not None and seeding is not None
    assert size is not None and legs is not None and lead is not None
    return CupSpec(name, start.timestamp(), repeat, size, legs, seeding, lead * 60.0)


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _choice(kind: type[E], value: Any, field: str, found: list[CupProblem]) -> E | None:
    try:
        return kind(str(value))
    except ValueError:
        found.append(CupProblem(field, field, (("text", value),)))
        return None
