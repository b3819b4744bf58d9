"""Fair-play signals for `/admin fairplay`: computed from stored games, shown to a human,
never acted on.

The project ships a solver, so a round's best answer is one command away. Three signals
say how a player's rounds look against the server's players, none of them a verdict:

- **matched**: the share of the player's rounds (answered by them, with a best answer
  known) whose Score was as good as the solver's best (`bot.play.matched`);
- **unlike**: the share of those rounds that matched with a formula *unlike the player's
  usual ones*. Simply: the player's usual formulas are their own answers that did not
  match the best; a matching formula is unlike them when it uses a function or operator
  none of those answers ever uses, or when it is more than `LONGER` times as long (spaces
  left out) as their median. With no non-matching answer to compare, every function or
  operator is one they never use;
- **time**: the median seconds the player took to answer.

Each is set against the other players of the server's last games who answered at least
`MIN_ROUNDS` rounds: their median, and how many of them the player is beyond (a higher
share, a quicker answer). The reads are bounded: the player's last `PLAYER_GAMES`
finished games, the server's last `SERVER_GAMES`.
"""

from __future__ import annotations

import operator
import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.play import matched
from bot.storage import GameRecord
from rules import Termination
from rules.modes import declared

PLAYER_GAMES = 100
SERVER_GAMES = 500
MIN_ROUNDS = 5
"""A server player counts in the comparison with at least this many rounds."""
LONGER = 2.0

_FUNCTION = re.compile(r"[A-Za-z_]\w*(?=\s*\()")
_OPERATOR = re.compile(r"\*\*|<<|>>|[-+*/%^&|~!]")


def features(formula: str) -> frozenset[str]:
    """The functions (`sqrt(`) and operators (`**`, `%`, ...) a formula uses."""
    functions = {f"{name.lower()}()" for name in _FUNCTION.findall(formula)}
    return frozenset(functions | set(_OPERATOR.findall(formula)))


def length(formula: str) -> int:
    return len("".join(formula.split()))


@dataclass(frozen=True, slots=True)
class Profile:
    """One player's rounds in some games: what the signals are made of."""

    games: int
    answered: int
    """Rounds the player answered (an auto-move is not an answer)."""
    checked: int
    """Of those, the rounds with a best answer known."""
    matched: int
    unlike: int
    """Matched rounds whose formula is unlike the player's non-matching ones."""
    usual: int
    """The player's own non-matching answers the comparison rests on."""
    median_time: float | None

    @property
    def matched_share(self) -> float | None:
        return self.matched / self.checked if self.checked else None

    @property
    def unlike_share(self) -> float | None:
        return self.unlike / self.checked if self.checked else None


def _void(record: GameRecord) -> bool:
    outcome = record.state.outcome
    return record.meta.void_reason is not None or (
        outcome is not None and outcome.termination is Termination.VOID
    )


def _people(record: GameRecord) -> list[str]:
    """The game's players but the bot's own seat (Practice): it plays the solver's way."""
    bot_seat = declared(record.state.mode).bot_seat
    return [p for seat, p in enumerate(record.state.players) if seat != bot_seat]


def profile(records: Iterable[GameRecord], player: str) -> Profile:
    """The player's rounds in the finished, not voided `records` they played."""
    times: list[float] = []
    hits: list[str] = []
    misses: list[str] = []
    games = checked = 0
    for record in records:
        state = record.state
        if record.active or _void(record) or player not in _people(record):
            continue
        games += 1
        seat = state.players.index(player)
        best = {b.round: b for b in record.meta.best if b.seat == seat}
        for played in state.rounds:
            answer = played.answers[seat] if seat < len(played.answers) else None
            if answer is None or answer.auto:
                continue
            times.append(answer.elapsed)
            reveal = best.get(played.number)
            if reveal is None:
                continue
            checked += 1
            (hits if matched(state, reveal) else misses).append(answer.formula)
    usual = frozenset().union(*(features(f) for f in misses))
    median_length = statistics.median(length(f) for f in misses) if misses else None
    unlike = sum(
        1
        for f in hits
        if features(f) - usual or (median_length and length(f) > LONGER * median_length)
    )
    return Profile(
        games=games,
        answered=len(times),
        checked=checked,
        matched=len(hits),
        unlike=unlike,
        usual=len(misses),
        median_time=statistics.median(times) if times else None,
    )


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's value against the server's players': their median, and how many of
    the `of` players the value is beyond (a higher share, a quicker answer)."""

    value: float | None
    median: float | None
    beyond: int
    of: int


def standing(
    value: float | None, others: Sequence[float], beyond: Callable[[float, float], bool]
) -> Standing:
    median = statistics.median(others) if others else None
    if value is None:
        return Standing(None, median, 0, len(others))
    return Standing(value, median, sum(1 for o in others if beyond(value, o)), len(others))


@dataclass(frozen=True, slots=True)
class FairPlayReport:
    player: Profile
    server_games: int
    """How many of the server's games the comparison read (at most `SERVER_GAMES`)."""
    matched: Standing
    unlike: Standing
    time: Standing


def report(own: Sequence[GameRecord], server: Sequence[GameRecord], player: str) -> FairPlayReport:
    """The player's signals (from `own`, their games) against every other player of the
    `server` games with at least `MIN_ROUNDS` rounds checked (shares) or answered (time)."""
    mine = profile(own, player)
    played: dict[str, list[GameRecord]] = {}
    for record in server:
        for each in set(_people(record)) - {player}:
            played.setdefault(each, []).append(record)
    others = [profile(games, each) for each, games in played.items()]
    shares = [o for o in others if o.checked >= MIN_ROUNDS]
    timed = [o for o in others if o.answered >= MIN_ROUNDS and o.median_time is not None]
    return FairPlayReport(
        player=mine,
        server_games=len(server),
        matched=standing(mine.matched_share, [o.matched_share or 0.0 for o in shares], operator.gt),
        unlike=standing(mine.unlike_share, [o.unlike_share or 0.0 for o in shares], operator.gt),
        time=standing(mine.median_time, [o.median_time or 0.0 for o in timed], operator.lt),
    )


class FinishedGames(Protocol):
    """The bounded reads the signals need (`Store.fairplay`)."""

    async def player_finished(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[GameRecord]: ...

    async def server_finished(self, guild_id: int, limit: int) -> list[GameRecord]: ...


async def signals(games: FinishedGames, guild_id: int, user_id: int) -> FairPlayReport:
    """The player's report from the bounded reads of stored games."""
    own = await games.player_finished(guild_id, user_id, PLAYER_GAMES)
    server = await games.server_finished(guild_id, SERVER_GAMES)
    return report(own, server, str(user_id))
