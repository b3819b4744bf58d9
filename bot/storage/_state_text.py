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
"""

from __future__ import annotations

import json
import logging
from typing import Any

from bot.storage._codec import dumps
from rules import GameSet, GameState

log = logging.getLogger(__name__)

Cuts = tuple[int, ...]
"""Offsets in a state's text: the end of its fixed head (id, mode, Set, players), each
round's start and end, and the start of its tail (the `]` that closes the rounds)."""

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


def _parts(state: GameState) -> tuple[str, Cuts]:
    head = (
        f'{{"id":{dumps(state.id)},"mode":{dumps(state.mode.value)},'
        f'"set":{set_text(state.game_set)},"players":{dumps(list(state.players))}'
    )
    pieces = [head, f',"scores":{dumps(list(state.scores))},"rounds":[']
    cuts = [len(head)]
    at = len(head) + len(pieces[1])
    for index, rnd in enumerate(state.rounds):
        if index:
            pieces.append(",")
            at += 1
        piece = dumps(rnd.to_dict())
        pieces.append(piece)
        cuts += (at, at + len(piece))
        at += len(piece)
    cuts.append(at)
    outcome = None if state.outcome is None else state.outcome.to_dict()
    pieces.append(f'],"outcome":{dumps(outcome)},"resigned":{dumps(state.resigned)}}}')
    return "".join(pieces), tuple(cuts)


def state_text(state: GameState) -> tuple[str, Cuts | None]:
    """`_codec.dumps(state.to_dict())` and its cuts (None: the text was dumped whole)."""
    if not _checked:
        _checked.append(_parts(state)[0] == dumps(state.to_dict()))
        if not _checked[0]:
            log.warning("a state's text is not its parts: states are dumped whole")
    if not _checked[0]:
        return dumps(state.to_dict()), None
    return _parts(state)


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
