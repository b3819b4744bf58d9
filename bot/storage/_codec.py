"""Turning a GameRecord into rows and back, and deciding whether a save is newer.

Everything here is pure so the rules of "which write wins" are testable without
a database.
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Sequence
from typing import Any

import rules
from bot.storage._records import GameMeta, GameRecord
from rules import GameState, Termination

Row = dict[str, Any]
FORMULA_COPY = 512
"""Room in `answers.formula`; the checker caps formulas at 256 characters anyway."""


def number_text(value: rules.Number) -> str:
    """PHP's int 3 is '3', its float 3.0 is '3.0': repr keeps the kind and every bit."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"not a PHP number: {value!r}")
    return repr(value) if isinstance(value, float) else str(value)


def parse_number(text: str) -> rules.Number:
    if any(c in text for c in ".eEnN"):  # a float's repr: '3.5', '1e+20', 'inf', 'nan'
        return float(text)
    return int(text)


def state_version(state: GameState) -> int:
    """A counter that every rules transition increases.

    Starting a round, each answer, a resolution and the end each add one, so two
    states of one game compare by how far the game has gone.
    """
    version = 0
    for rnd in state.rounds:
        version += 1 + sum(a is not None for a in rnd.answers) + int(rnd.resolved)
    return version + int(state.outcome is not None)


def extends(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether `new` (a state dict) is `old` played further, not a rival history.

    Every stored answer must be kept as it is, a resolved round stays resolved,
    and a finished game never changes. Two resolutions of one round differ in an
    answer (a real formula against the auto-move) or in the round count, so the
    second one to arrive is refused. When a round's message appeared (`shown_at`)
    is told once and then stays. The one exception: an open round replayed after a
    restart keeps its Digits and answers but starts again later (and is shown anew).
    """
    for key in ("id", "mode", "set", "players"):
        if old[key] != new[key]:
            return False
    if old["outcome"] is not None:
        return old == new
    old_rounds, new_rounds = old["rounds"], new["rounds"]
    if len(new_rounds) < len(old_rounds):
        return False
    last = len(old_rounds) - 1
    return all(
        round_extends(before, after, last=index == last)
        for index, (before, after) in enumerate(zip(old_rounds, new_rounds, strict=False))
    )


def round_extends(before: dict[str, Any], after: dict[str, Any], *, last: bool) -> bool:
    """`extends` for one round the old state had (`last`: its last round)."""
    replayed = (
        last
        and not before["resolved"]
        and after["started_at"] > before["started_at"]
        and after["deadline"] > before["deadline"]
    )
    for key in ("number", "digits") if replayed else ("number", "digits", "started_at", "deadline"):
        if before[key] != after[key]:
            return False
    shown = before.get("shown_at")
    if shown is not None and after.get("shown_at") != shown and not replayed:
        return False  # when a round appeared is told once
    if before["resolved"] and not after["resolved"]:
        return False
    for mine, theirs in zip(before["answers"], after["answers"], strict=True):
        if mine is not None and mine != theirs:
            return False
    return True


def finished_moment(state: GameState, created_at: float) -> float:
    """When a finished game ended, on the clock that played it (simcord's or Discord's).

    The state's own times say it: the last answer, or the deadline of a round that
    timed out. A resignation carries no time, so it counts from the last thing the
    state knows (an answer or the round's start), never from this machine's clock.
    """
    moment = created_at
    if not state.rounds:
        return moment
    last = state.rounds[-1]
    moments = [moment, last.started_at]
    moments += [last.started_at + a.elapsed for a in last.answers if a is not None]
    result = state.outcome
    if result is not None and result.termination is Termination.TIMEOUT:
        moments.append(last.deadline)
    return max(moments)


def status(state: GameState) -> str:
    """`active`, `finished`, or `void` for a game that ended without a result (RULES.md):
    what counts (boards, stats, attempts) reads `finished`, so a void game is left out."""
    if state.outcome is None:
        return "active"
    return "void" if state.outcome.termination is Termination.VOID else "finished"


_OPTIONS = {"separators": (",", ":"), "ensure_ascii": False, "allow_nan": False}
_encoder = json.JSONEncoder(**_OPTIONS)  # type: ignore[arg-type]


def _c_encoder() -> Callable[[Any, int], Sequence[str]] | None:
    """json's C encoder with `_OPTIONS`, made once: `json.dumps` makes one on every call
    (a dozen a save, each about as dear as a small state's encoding). No cycle check
    (states are trees). None where the C encoder is missing or does not give
    `json.dumps`' text (checked on a sample)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        made: Callable[[Any, int], Sequence[str]] = make(
            None, _encoder.default, json.encoder.encode_basestring, None, ":", ",",
            False, False, False,
        )  # fmt: skip
        sample = {"a": [1, 2.5, None, True, 'дротик "x"\n'], "b": {"c": -0.0, "d": 1e300}}
        if "".join(made(sample, 0)) != json.dumps(sample, **_OPTIONS):  # type: ignore[arg-type]
            return None
    except (TypeError, ValueError):
        return None
    return made


_chunks = _c_encoder()


def dumps(data: Any) -> str:
    """`json.dumps(data, **_OPTIONS)`: compact, UTF-8 as it is, no NaN."""
    if _chunks is None or isinstance(data, str):
        return _encoder.encode(data)
    return "".join(_chunks(data, 0))


def game_row(
    state: GameState,
    *,
    guild_id: int,
    channel_id: int,
    period: str | None,
    seed: str | None,
    meta: GameMeta,
    created_at: float,
    finished_at: float | None,
    state_json: str,
    face: str = "discord",
) -> Row:
    """The `games` row, with the ranking fields of RULES.md for single-player games."""
    return {
        "id": state.id,
        "guild_id": guild_id,
        "mode": state.mode.value,
        "set_name": state.game_set.name,
        "set_snapshot": dumps(state.game_set.to_dict()),
        "set_version": state.game_set.version,
        "seed": seed,
        "period": period,
        "player": state.players[0],
        "created_at": created_at,
        **({} if face == "discord" else {"face": face}),  # the column's default: as before 0021
        **step_row(
            state, channel_id=channel_id, meta=meta, finished_at=finished_at, state_json=state_json
        ),
    }


def step_row(
    state: GameState, *, channel_id: int, meta: GameMeta, finished_at: float | None,
    state_json: str,
) -> Row:  # fmt: skip
    """The `games` columns a step of the game can change (`_advance.MUTABLE`): the common
    save writes these alone, without working out the fixed ones (the Set's snapshot and
    version) again."""
    result = state.outcome
    rank: tuple[int, float, float] | None = None
    if result is not None and not state.mode.is_duel:
        rank = rules.ranking_key(state)
    return {
        **going_on_row(state, channel_id=channel_id, meta=meta, state_json=state_json),
        "status": status(state),
        "termination": None if result is None else result.termination.value,
        "winner": None if result is None else result.winner,
        "perfect": bool(result and result.perfect),
        "rank_class": None if rank is None else rank[0],
        "rank_value": None if rank is None else rank[1],
        "answer_time": None if rank is None else rank[2],
        "finished_at": finished_at,
    }


def going_on_row(state: GameState, *, channel_id: int, meta: GameMeta, state_json: str) -> Row:
    """The `games` columns a step can change while the game goes on (`_advance.GOING_ON`).

    The others (status, the result, the ranking, the end's time) hold the same values
    from a game's start to its end, and four indexes hold most of them: writing them
    unchanged on every answer made SQLite rewrite those index entries each time."""
    return {
        "channel_id": channel_id,
        "rounds_played": len(state.rounds),
        "final_score": float(state.scores[0]),
        "version": state_version(state),
        "state": state_json,
        "meta": dumps(meta.to_dict()),
    }


SEAT_TOTALS = ("status", "score", "answered", "points_total", "won", "checkout", "perfect")
"""The seat columns a step can change, in `seat_totals`' order."""


def seat_totals(state: GameState) -> tuple[tuple[Any, ...], ...]:
    """Each seat's `SEAT_TOTALS`, as `player_rows` writes them."""
    result = state.outcome
    game_status = status(state)
    seats = []
    for seat in range(len(state.players)):
        answers = [a for r in state.rounds if (a := r.answers[seat]) is not None]
        checkout = (
            result is not None
            and result.termination is Termination.CHECKOUT
            and rules.is_zero(state.scores[seat])
        )
        seats.append((
            game_status,
            float(state.scores[seat]),
            len(answers),
            float(sum(float(a.points) for a in answers)),
            result is not None and result.winner == seat,
            checkout,
            checkout and bool(result and result.perfect),
        ))  # fmt: skip
    return tuple(seats)


def player_rows(state: GameState, *, guild_id: int, created_at: float) -> list[Row]:
    """Per-seat totals that `/stats` sums without reading rounds."""
    rows = []
    for seat, totals in enumerate(seat_totals(state)):
        row = {"game_id": state.id, "seat": seat, "player": state.players[seat]}
        row |= {"guild_id": guild_id, "mode": state.mode.value, "created_at": created_at}
        rows.append(row | dict(zip(SEAT_TOTALS, totals, strict=True)))
    return rows


def round_row(game_id: str, rnd: rules.Round) -> Row:
    return {
        "game_id": game_id,
        "number": rnd.number,
        "digits": rnd.digits,
        "started_at": rnd.started_at,
        "deadline": rnd.deadline,
        "resolved": rnd.resolved,
    }


def answer_row(game_id: str, rnd: rules.Round, seat: int, player: str, answer: rules.Answer) -> Row:
    return {
        "game_id": game_id,
        "round_number": rnd.number,
        "seat": seat,
        "player": player,
        "formula": answer.formula[:FORMULA_COPY],  # the state JSON keeps it whole
        "result": number_text(answer.result),
        "points": float(answer.points),
        "score": float(answer.score),
        "elapsed": answer.elapsed,
        "auto": answer.auto,
    }


def record_row(record: GameRecord, state_json: str, finished_at: float | None) -> Row:
    """The games row of `record` (its state already dumped to `state_json`)."""
    return game_row(
        record.state,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        period=record.period,
        seed=record.seed,
        meta=record.meta,
        created_at=record.created_at,
        finished_at=finished_at,
        state_json=state_json,
        face=record.face.value,
    )
