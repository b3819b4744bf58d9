"""What a step changed since the stored state: the round rows to write, or a refusal.

The common save (`_advance`) holds the text it stored last and, in that text, where
each part lies (`_state_text.Cuts`). A new state's text is compared part by part:
the fixed head (id, mode, Set, players) must be the same text, the stored game must
still be going on, and only a round whose text differs is parsed back and checked
(`_codec.round_extends`) -- one small round instead of the whole state on every
answer. Whatever the parts cannot settle (a head that reads differently, a finished
game, fewer rounds, no cuts) is decided on whole dicts as before (`_codec.extends`),
which is what the full save (`_games.save`) decides too.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from bot.storage import _codec, _state_text
from bot.storage._direct import Params, Statement
from bot.storage._models import AnswerRow, RoundRow, table
from bot.storage._state_text import Cuts
from rules import GameState

_rounds, _answers = table(RoundRow), table(AnswerRow)
RESOLVE = (
    _rounds.update()
    .where(_rounds.c.game_id == sa.bindparam("b_game"), _rounds.c.number == sa.bindparam("b_n"))
    .values(resolved=True)
)
REPLAY = (
    _rounds.update()
    .where(_rounds.c.game_id == sa.bindparam("b_game"), _rounds.c.number == sa.bindparam("b_n"))
    .values(started_at=sa.bindparam("started_at"), deadline=sa.bindparam("deadline"))
)
NEW_ROUNDS, NEW_ANSWERS = _rounds.insert(), _answers.insert()
"""Statements built once: compiled once (`_direct`, or SQLAlchemy's cache)."""

Op = tuple[Statement, Params | list[Params]]
"""One prebuilt statement and its values (a list: executemany)."""


class RoundRows:
    """The rows of `state`'s rounds that changed, gathered round by round.

    Answers are insert-only; their primary key (game, round, seat) means a second
    resolution of a round cannot slip in even if the checks were bypassed."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.new_rounds: list[Params] = []
        self.replayed: list[Params] = []
        self.resolved: list[Params] = []
        self.new_answers: list[Params] = []

    def add(self, index: int, before: dict[str, Any] | None) -> None:
        """Round `index` against its stored dict (None: a new round)."""
        state = self.state
        rnd = state.rounds[index]
        if before is None:
            self.new_rounds.append(_codec.round_row(state.id, rnd))
        else:
            if rnd.resolved and not before["resolved"]:
                self.resolved.append({"b_game": state.id, "b_n": rnd.number})
            if (rnd.started_at, rnd.deadline) != (before["started_at"], before["deadline"]):
                self.replayed.append(  # a round replayed after a restart
                    {"b_game": state.id, "b_n": rnd.number}
                    | {"started_at": rnd.started_at, "deadline": rnd.deadline}
                )
        for seat, answer in enumerate(rnd.answers):
            if answer is not None and (before is None or before["answers"][seat] is None):
                self.new_answers.append(
                    _codec.answer_row(state.id, rnd, seat, state.players[seat], answer)
                )

    def ops(self) -> list[Op]:
        ops: list[Op] = []
        for statement, rows in (
            (NEW_ROUNDS, self.new_rounds), (REPLAY, self.replayed), (RESOLVE, self.resolved),
            (NEW_ANSWERS, self.new_answers),
        ):  # fmt: skip
            if rows:
                ops.append((statement, rows))
        return ops


def round_ops(state: GameState, old: dict[str, Any] | None) -> list[Op]:
    """Only what changed since `old` (a state dict; None: nothing stored): new rounds,
    newly resolved ones, replayed ones, new answers."""
    rows = RoundRows(state)
    old_rounds = old["rounds"] if old else []
    for index in range(len(state.rounds)):
        rows.add(index, old_rounds[index] if index < len(old_rounds) else None)
    return rows.ops()


def since(
    stored: str, stored_cuts: Cuts | None, state: GameState, text: str, cuts: Cuts | None
) -> tuple[bool, list[Op]] | None:
    """`state` (its text `text`) against the stored text: (the same state, the round
    ops to write), or None if it does not extend it (a rival history: the full way)."""
    if text == stored:
        return True, []
    if stored_cuts is not None and cuts is not None:
        ops = _by_parts(stored, stored_cuts, state, text, cuts)
        if ops is not None:
            return False, ops
    old = json.loads(stored)
    new = state.to_dict()
    if old == new:  # the text of another writer (or version) of the same state
        return True, []
    if not _codec.extends(old, new):
        return None
    return False, round_ops(state, old)


def _by_parts(
    stored: str, stored_cuts: Cuts, state: GameState, text: str, cuts: Cuts
) -> list[Op] | None:
    """The round ops, if comparing the texts part by part settles that `state` extends
    the stored one; None: the parts do not settle it."""
    if _state_text.head(text, cuts) != _state_text.head(stored, stored_cuts):
        return None
    if not _state_text.going_on(stored, stored_cuts):
        return None
    had, has = _state_text.rounds_in(stored_cuts), _state_text.rounds_in(cuts)
    if has < had:
        return None
    rows = RoundRows(state)
    for index in range(had):
        before = _state_text.round_text(stored, stored_cuts, index)
        if before == _state_text.round_text(text, cuts, index):
            continue  # the same text: the same round, nothing to write
        old = _state_text.parsed_round(stored, stored_cuts, index)
        new = state.rounds[index].to_dict()
        if not _codec.round_extends(old, new, last=index == had - 1):
            return None
        rows.add(index, old)
    for index in range(had, has):
        rows.add(index, None)
    return rows.ops()
