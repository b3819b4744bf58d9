"""A game state's stored text, built in parts, and where each round's text lies in it.

The common save (`_advance`) writes the state's text on every answer and compares the
new state with the one it wrote last. Done on whole dicts, that was `to_dict` and a
dump of the whole state (its Set's snapshot, unchanged for the whole game, with it)
and a parse of the whole last text back into a dict to find what changed. Here the
text is the same bytes (`_codec.dumps(state.to_dict())`, pinned by tests and checked
once at run time), put together from its parts: the Set's text is dumped once per Set
(Sets are frozen), each round's text on its own, and the offsets of the parts are kept
(`Cuts`), so the next step compares the last text with the new one part by part and
parses only the round that changed.

Should the rules' `to_dict` ever change shape so that the parts no longer make its
text, the first call sees it and every later one dumps the dict whole (no cuts: the
save then compares whole dicts, as before).

A round the last step left as it was is not dumped again (`state_parts` with the last
text): most of a save's dumping was the rounds already played. The rules copy a state
on every step, so a round is never the same object twice; but the copy takes over the
round's values themselves (its Digits, times, each answer's formula and numbers: all
immutable), so a round whose values are the very objects the last text was made from
(`Leaves`, compared by identity, never by equality: 17 and 17.0 are equal and dump
differently) has that text, byte for byte. A round changed in any way, in place or by
the rules, has a new object somewhere and is dumped.
"""

from __future__ import annotations

import json
import logging
from dataclasses import fields
from operator import attrgetter, is_
from typing import Any

from bot.storage._codec import dumps
from rules import Answer, GameSet, GameState, Round

log = logging.getLogger(__name__)

Cuts = tuple[int, ...]
"""Offsets in a state's text: the end of its fixed head (id, mode, Set, players), each
round's start and end, and the start of its tail (the `]` that closes the rounds)."""

Leaves = tuple[tuple[Any, ...], ...]
"""Per round of a state's text, the objects its text was made from (`round_leaves`)."""
Known = tuple[str, Cuts, Leaves]
"""A text made in parts, where its parts lie and what each round's was made from."""

_ROUND_VALUES = attrgetter(*(f.name for f in fields(Round) if f.name != "answers"))
_ANSWER_VALUES = attrgetter(*(f.name for f in fields(Answer)))
_ANSWERED = object()
"""Marks a seat's answer in `round_leaves` (an unanswered seat is None), so two rounds'
leaves line up only where both have the same seats answered."""

_SETS_KEPT = 256
_sets: dict[int, tuple[GameSet, str]] = {}
_checked: list[bool] = []  # empty: not yet; [False]: the parts do not make the text


def set_text(game_set: GameSet) -> str:
    """The Set's snapshot text, dumped once per Set object (they are frozen)."""
    hit = _sets.get(id(game_set))
    if hit is not None and hit[0] is game_set:
        return hit[1]
    text = dumps(game_set.to_dict())
    if len(_sets) >= _SETS_KEPT:
        _sets.clear()
    _sets[id(game_set)] = (game_set, text)
    return text


def round_leaves(rnd: Round) -> tuple[Any, ...]:
    """The objects `rnd`'s text is made from: every field but the answers' list, and
    each answer's fields (all immutable values: the same objects, the same text)."""
    leaves = [*_ROUND_VALUES(rnd)]
    for answer in rnd.answers:
        if answer is None:
            leaves.append(None)
        else:
            leaves.append(_ANSWERED)
            leaves += _ANSWER_VALUES(answer)
    return tuple(leaves)


def _same(mine: tuple[Any, ...], theirs: tuple[Any, ...]) -> bool:
    """The very same objects, one by one (identity: equal values may dump differently)."""
    return len(mine) == len(theirs) and all(map(is_, mine, theirs))


def _parts(state: GameState, known: Known | None = None) -> tuple[str, Cuts, Leaves]:
    head = (
        f'{{"id":{dumps(state.id)},"mode":{dumps(state.mode.value)},'
        f'"set":{set_text(state.game_set)},"players":{dumps(list(state.players))}'
    )
    pieces = [head, f',"scores":{dumps(list(state.scores))},"rounds":[']
    cuts = [len(head)]
    at = len(head) + len(pieces[1])
    had = len(known[2]) if known is not None else 0
    leaves = []
    for index, rnd in enumerate(state.rounds):
        if index:
            pieces.append(",")
            at += 1
        mine = round_leaves(rnd)
        leaves.append(mine)
        if index < had and known is not None and _same(mine, known[2][index]):
            piece = round_text(known[0], known[1], index)  # made from these very values
        else:
            piece = dumps(rnd.to_dict())
        pieces.append(piece)
        cuts += (at, at + len(piece))
        at += len(piece)
    cuts.append(at)
    outcome = None if state.outcome is None else state.outcome.to_dict()
    pieces.append(f'],"outcome":{dumps(outcome)},"resigned":{dumps(state.resigned)}}}')
    return "".join(pieces), tuple(cuts), tuple(leaves)


def state_text(state: GameState) -> tuple[str, Cuts | None]:
    """`_codec.dumps(state.to_dict())` and its cuts (None: the text was dumped whole)."""
    text, cuts, _ = state_parts(state)
    return text, cuts


def state_parts(
    state: GameState, known: Known | None = None
) -> tuple[str, Cuts | None, Leaves | None]:
    """`state_text`, and what each round's text was made from (None with no cuts); a
    round made from the very objects of `known`'s (the last text) takes its text."""
    if not _checked:
        _checked.append(_parts(state)[0] == dumps(state.to_dict()))
        if not _checked[0]:
            log.warning("a state's text is not its parts: states are dumped whole")
    if not _checked[0]:
        return dumps(state.to_dict()), None, None
    return _parts(state, known)


def rounds_in(cuts: Cuts) -> int:
    return (len(cuts) - 2) // 2


def round_text(text: str, cuts: Cuts, index: int) -> str:
    return text[cuts[1 + 2 * index] : cuts[2 + 2 * index]]


def head(text: str, cuts: Cuts) -> str:
    """The fixed part: id, mode, Set and players, which no step may change."""
    return text[: cuts[0]]


def going_on(text: str, cuts: Cuts) -> bool:
    """Whether the text's game has no outcome yet."""
    return text.startswith('],"outcome":null,', cuts[-1])


def parsed_round(text: str, cuts: Cuts, index: int) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(round_text(text, cuts, index))
    return value
