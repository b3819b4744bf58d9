"""What the chaos run's Cup must still hold when it ends (RULES.md "Cup", issue 31):
announced once; drawn exactly once; every match with exactly one result, its legs counted
once; exactly one champion, announced once; no leg lost.

`cup_problems` judges plain facts (`CupSeen`), so a test can hand it a broken variant
(a double draw, a leg counted twice) and see it complain; `cups_seen` gathers them from
the messages the simulated Discord received and what the store keeps."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.storage import CupMatchRecord, CupPhase, CupRecord, LegRecord
from rules.cup import Decision
from tests.support.chaos_invariants import all_games

if TYPE_CHECKING:
    from tests.support.chaos import Chaos


@dataclass(frozen=True)
class MatchSeen:
    key: str
    """`round.slot`"""
    decided: bool
    decision: Decision | None
    wins: tuple[int, int]
    """As the stored bracket counts them."""
    legs_won: tuple[int, int]
    """As the stored legs count them."""
    results_posted: int | None
    """Results posted in the match's thread; None: it has no thread (a bye)."""


@dataclass(frozen=True)
class CupSeen:
    cup_id: int
    phase: CupPhase
    announced: int
    """Announcements the channel received."""
    drawn: int
    """Bracket messages the channel received (each draw posts one; results edit it)."""
    cancelled: int
    crowned: tuple[str, ...]
    """The champion announcements' texts."""
    champion: str | None
    """The stored champion."""
    bracket_champion: str | None
    """The winner of the stored bracket's final."""
    matches: tuple[MatchSeen, ...] = ()
    lost_legs: tuple[str, ...] = ()
    """Duels played in a match's thread that no leg of the Cup records."""
    open_legs: tuple[str, ...] = ()
    """Legs stored without a result, or whose duel never ended."""
    legs: int = 0
    """Legs stored: each a duel the match's players played (drawn ones too)."""


def cup_problems(seen: CupSeen) -> list[str]:
    """Every promise about one Cup that is broken, a line each."""
    cup = f"Cup {seen.cup_id}"
    broken = []
    if seen.phase not in (CupPhase.OVER, CupPhase.CANCELLED):
        broken.append(f"{cup}: never finished ({seen.phase})")
    if seen.announced != 1:
        broken.append(f"{cup}: announced {seen.announced} times")
    was_drawn = seen.phase in (CupPhase.DRAWN, CupPhase.OVER)
    if seen.drawn != (1 if was_drawn else 0):
        broken.append(f"{cup}: {seen.drawn} draws posted for a Cup {seen.phase}")
    if seen.cancelled != (1 if seen.phase is CupPhase.CANCELLED else 0):
        broken.append(f"{cup}: {seen.cancelled} cancellations posted for a Cup {seen.phase}")
    for match in seen.matches:
        broken += _match_problems(cup, match)
    if seen.phase is CupPhase.OVER:
        if seen.champion is None or seen.champion != seen.bracket_champion:
            broken.append(f"{cup}: champion {seen.champion}, the final's {seen.bracket_champion}")
        crowned = [text for text in seen.crowned if f"<@{seen.champion}>" in text]
        if len(seen.crowned) != 1 or len(crowned) != 1:
            broken.append(f"{cup}: the champion announced {len(seen.crowned)} times")
    elif seen.crowned:
        broken.append(f"{cup}: a champion announced for a Cup {seen.phase}")
    broken += [f"{cup}: a duel played in a match's thread is no leg: {g}" for g in seen.lost_legs]
    broken += [f"{cup}: leg {leg} has no result" for leg in seen.open_legs]
    return broken


def _match_problems(cup: str, match: MatchSeen) -> list[str]:
    broken = []
    if not match.decided:
        broken.append(f"{cup}: match {match.key} never decided")
    if match.wins != match.legs_won:
        broken.append(f"{cup}: match {match.key} counts {match.wins}, its legs {match.legs_won}")
    if match.results_posted is not None and match.results_posted != (1 if match.decided else 0):
        broken.append(f"{cup}: match {match.key} has {match.results_posted} results posted")
    return broken


def uncalled(seen: CupSeen) -> int:
    """Matches decided without a thread, so their players were never called: the thread's
    post failed after the match was opened (a REST fault), and no later look opens it
    again (bot/cup/_matches.py `_open`). Counted in the run's report, not failed on: a
    crash window of the Cup's own, left to its fix."""
    return sum(
        1 for m in seen.matches
        if m.decided and m.results_posted is None and m.decision is not Decision.BYE
    )  # fmt: skip


def _texts(channel_messages: list[discord.Message], name: str) -> dict[str, list[str]]:
    head = f"🏆 **{name}** ·"
    texts = [m.content for m in channel_messages]
    return {
        "announced": [t for t in texts if t.startswith(head) and " starts " in t],
        "drawn": [t for t in texts if t.startswith(f"{head} the bracket")],
        "cancelled": [t for t in texts if t.startswith(f"🏆 **{name}** is cancelled")],
        "crowned": [t for t in texts if f"is the champion of **{name}**" in t],
    }


def _legs_won(legs: list[LegRecord], round_: int, slot: int) -> tuple[int, int]:
    results = Counter(leg.result for leg in legs if (leg.round, leg.slot) == (round_, slot))
    return results["first"], results["second"]


async def cups_seen(chaos: Chaos) -> list[CupSeen]:
    store = chaos.store
    games = {g.state.id: g for g in await all_games(store)}
    threads = {t.id: list(t.history()) for t in chaos.channel.threads}
    seen = []
    for cup in await store.cups.of_server(chaos.guild.id, open_only=False):
        matches = await store.cup_matches.of_cup(cup.id)
        legs = await store.cups.legs(cup.id)
        texts = _texts(list(chaos.channel.history()), cup.name)
        thread_ids = {m.thread_id for m in matches.values() if m.thread_id is not None}
        recorded = {leg.game_id for leg in legs}
        seen.append(CupSeen(
            cup_id=cup.id, phase=cup.phase, announced=len(texts["announced"]),
            drawn=len(texts["drawn"]), cancelled=len(texts["cancelled"]),
            crowned=tuple(texts["crowned"]), champion=cup.champion,
            bracket_champion=None if cup.bracket is None else cup.bracket.champion,
            matches=_matches_seen(cup, legs, matches, threads),
            lost_legs=tuple(sorted(
                g for g, record in games.items()
                if record.channel_id in thread_ids and g not in recorded
            )),
            open_legs=tuple(
                f"{leg.round}.{leg.slot}.{leg.leg}" for leg in legs
                if leg.result is None or games.get(leg.game_id) is None
                or games[leg.game_id].state.outcome is None
            ),
            legs=len(legs),
        ))  # fmt: skip
    return seen


def _matches_seen(
    cup: CupRecord, legs: list[LegRecord], matches: dict[tuple[int, int], CupMatchRecord],
    threads: dict[int, list[discord.Message]],
) -> tuple[MatchSeen, ...]:  # fmt: skip
    if cup.bracket is None:
        return ()
    seen = []
    for match in cup.bracket.matches:
        stored = matches.get((match.round, match.slot))
        thread_id = None if stored is None else stored.thread_id
        posted = None
        if thread_id is not None:
            posted = sum(1 for m in threads.get(thread_id, []) if "goes through" in m.content)
        seen.append(MatchSeen(
            key=f"{match.round}.{match.slot}", decided=match.winner is not None,
            decision=match.decision, wins=match.wins,
            legs_won=_legs_won(legs, match.round, match.slot), results_posted=posted,
        ))  # fmt: skip
    return tuple(seen)
