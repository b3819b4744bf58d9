"""A Cup's bracket (RULES.md "Cup"): the seeded draw, matches of legs, the champion.

Shaped like `rules.game`: a plain state that round-trips through JSON, frozen actions,
`apply(state, action)` returning a new state, and `state.champion` None while the Cup
goes on. Players are the face's opaque ids; a seed is a player's place in the entry list
(1 is the top seed). How a Cup is announced, stored and shown lives elsewhere: this is
only what its rules decide, so a restart or a second process replays it identically.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, assert_never

from rules.errors import RulesError

MIN_SIZE, MAX_SIZE = 4, 64
LEG_COUNTS = (1, 3, 5)
DRAW_REPLAYS = 2
"""A drawn leg is played again at most this many times; then the higher seed goes on."""


class CupError(RulesError):
    code = "cup"


class NoSuchMatch(CupError):
    code = "cup_no_such_match"


class MatchNotReady(CupError):
    """Its players are not both known yet (an earlier match is still being played)."""

    code = "cup_match_not_ready"


class MatchOver(CupError):
    code = "cup_match_over"


class Decision(StrEnum):
    """How a match was decided."""

    LEGS = "legs"
    BYE = "bye"
    NO_SHOW = "no_show"
    """One player did not start a leg within the start window."""
    BOTH_ABSENT = "both_absent"
    """Neither started: the higher seed goes through."""
    DRAWS = "draws"
    """A leg was drawn again after its last replay: the higher seed goes through."""


class LegResult(StrEnum):
    FIRST = "first"
    SECOND = "second"
    DRAW = "draw"
    VOID = "void"
    """The leg could not be run or was voided: it is played again."""


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds every entrant (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket position order for a power-of-two `size`: neighbours meet in the
    first round, seed 1 meets the lowest seed, and 1 and 2 can meet only in the final."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


@dataclass(frozen=True, slots=True)
class Match:
    """One match of the bracket: `seeds` are the two sides' seeds (None: not known yet,
    or a bye in round 1), `wins` their legs won, `draws` the current leg's replays."""

    round: int
    slot: int
    seeds: tuple[int | None, int | None]
    wins: tuple[int, int] = (0, 0)
    draws: int = 0
    winner: int | None = None
    """The side (0 or 1) that went through; None while the match is open."""
    decision: Decision | None = None

    @property
    def ready(self) -> bool:
        return self.winner is None and None not in self.seeds

    @property
    def winning_seed(self) -> int | None:
        return None if self.winner is None else self.seeds[self.winner]

    def higher_seed_side(self) -> int:
        first, second = self.seeds
        if first is None or second is None:
            raise MatchNotReady(f"match {self.round}.{self.slot} has no two players yet")
        return 0 if first < second else 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "slot": self.slot,
            "seeds": list(self.seeds),
            "wins": list(self.wins),
            "draws": self.draws,
            "winner": self.winner,
            "decision": None if self.decision is None else self.decision.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        decision = data["decision"]
        return cls(
            round=data["round"],
            slot=data["slot"],
            seeds=(data["seeds"][0], data["seeds"][1]),
            wins=(data["wins"][0], data["wins"][1]),
            draws=data["draws"],
            winner=data["winner"],
            decision=None if decision is None else Decision(decision),
        )


@dataclass(frozen=True, slots=True)
class CupState:
    """`entrants[i]` holds seed i + 1; `matches` round by round, slot by slot."""

    entrants: tuple[str, ...]
    legs: int
    matches: tuple[Match, ...]

    @property
    def rounds(self) -> int:
        return bracket_size(len(self.entrants)).bit_length() - 1

    def match(self, round_: int, slot: int) -> Match:
        for match in self.matches:
            if match.round == round_ and match.slot == slot:
                return match
        raise NoSuchMatch(f"the Cup has no match {round_}.{slot}")

    def player(self, seed: int | None) -> str | None:
        return None if seed is None else self.entrants[seed - 1]

    @property
    def open_matches(self) -> list[Match]:
        """Matches whose players are known and that are not decided: the ones to play now."""
        return [match for match in self.matches if match.ready]

    @property
    def champion(self) -> str | None:
        final = self.match(self.rounds, 0)
        return self.player(final.winning_seed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "entrants": list(self.entrants),
            "legs": self.legs,
            "matches": [match.to_dict() for match in self.matches],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CupState:
        return cls(
            entrants=tuple(data["entrants"]),
            legs=data["legs"],
            matches=tuple(Match.from_dict(m) for m in data["matches"]),
        )


@dataclass(frozen=True, slots=True)
class Leg:
    """A leg of match `round`.`slot` ended (a duel's outcome, seen from the match's sides)."""

    round: int
    slot: int
    result: LegResult


@dataclass(frozen=True, slots=True)
class NoShow:
    """The start window passed with `absent` sides (0, 1 or both) not having started."""

    round: int
    slot: int
    absent: frozenset[int]


CupAction = Leg | NoShow


def draw(entrants: list[str], legs: int) -> CupState:
    """The bracket of a Cup whose entrants are listed best seed first (RULES.md "Cup":
    seed 1 meets the lowest seed, byes go to the top seeds). Byes are decided at once."""
    if len(entrants) < 2 or len(set(entrants)) != len(entrants):
        raise CupError("a Cup is drawn for at least 2 distinct players")
    if legs not in LEG_COUNTS:
        raise CupError(f"a match has 1, 3 or 5 legs, not {legs}")
    size = bracket_size(len(entrants))
    order = bracket_order(size)
    matches: list[Match] = []
    for slot in range(size // 2):
        first, second = order[2 * slot], order[2 * slot + 1]
        seeds = (first, second if second <= len(entrants) else None)
        matches.append(Match(round=1, slot=slot, seeds=seeds))
    rounds = size.bit_length() - 1
    for round_ in range(2, rounds + 1):
        matches += [Match(round_, slot, (None, None)) for slot in range(size >> round_)]
    state = CupState(tuple(entrants), legs, tuple(matches))
    for match in state.matches:
        if match.round == 1 and match.seeds[1] is None:
            state = _decide(state, match, 0, Decision.BYE)
    return state


def apply(state: CupState, action: CupAction) -> CupState:
    """The Cup after `action`; the state given is left alone."""
    match = state.match(action.round, action.slot)
    if match.winner is not None:
        raise MatchOver(f"match {match.round}.{match.slot} is decided")
    if not match.ready:
        raise MatchNotReady(f"match {match.round}.{match.slot} has no two players yet")
    if isinstance(action, NoShow):
        return _no_show(state, match, action.absent)
    if isinstance(action, Leg):
        return _leg(state, match, action.result)
    assert_never(action)


def _no_show(state: CupState, match: Match, absent: frozenset[int]) -> CupState:
    if not absent or not absent <= {0, 1}:
        raise CupError("a no-show names side 0, side 1 or both")
    if len(absent) == 2:
        return _decide(state, match, match.higher_seed_side(), Decision.BOTH_ABSENT)
    (side,) = absent
    return _decide(state, match, 1 - side, Decision.NO_SHOW)


def _leg(state: CupState, match: Match, result: LegResult) -> CupState:
    if result is LegResult.VOID:
        return state
    if result is LegResult.DRAW:
        if match.draws >= DRAW_REPLAYS:
            return _decide(state, match, match.higher_seed_side(), Decision.DRAWS)
        return _replace(state, replace(match, draws=match.draws + 1))
    side = 0 if result is LegResult.FIRST else 1
    wins = (match.wins[0] + (side == 0), match.wins[1] + (side == 1))
    played = replace(match, wins=wins, draws=0)
    if wins[side] > state.legs // 2:
        return _decide(state, played, side, Decision.LEGS)
    return _replace(state, played)


def _decide(state: CupState, match: Match, side: int, decision: Decision) -> CupState:
    state = _replace(state, replace(match, winner=side, decision=decision))
    if match.round == state.rounds:
        return state
    following = state.match(match.round + 1, match.slot // 2)
    seeds = list(following.seeds)
    seeds[match.slot % 2] = match.seeds[side]
    return _replace(state, replace(following, seeds=(seeds[0], seeds[1])))


def _replace(state: CupState, match: Match) -> CupState:
    matches = tuple(
        match if (m.round, m.slot) == (match.round, match.slot) else m for m in state.matches
    )
    return replace(state, matches=matches)
