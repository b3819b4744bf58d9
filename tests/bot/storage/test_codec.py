"""The pure rules of storage: number text, state versions and what counts as newer."""

from __future__ import annotations

from dataclasses import asdict

import pytest

import rules
from bot.storage import GameMeta, Reveal
from bot.storage._codec import dumps, extends, number_text, parse_number, state_version
from tests.bot.storage.builders import duel, single


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3, "3"),
        (3.0, "3.0"),
        (3.5, "3.5"),
        (-7, "-7"),
        (1e20, "1e+20"),
        (2**63 - 1, str(2**63 - 1)),
    ],
)
def test_number_text_keeps_int_and_float_apart(value: rules.Number, text: str) -> None:
    assert number_text(value) == text
    back = parse_number(text)
    assert back == value
    assert type(back) is type(value)


def test_every_transition_raises_the_version() -> None:
    state = rules.new_game("v", rules.Mode.DUEL, rules.CLASSIC, ["1", "2"])
    versions = [state_version(state)]
    for action in (
        rules.StartRound("1234", 0.0),
        rules.Submit("1", "12+34", 46, 1.0),
        rules.Expire(500.0),
        rules.StartRound("5678", 600.0),
        rules.Resign("2"),
    ):
        state = rules.apply(state, action)
        versions.append(state_version(state))
    assert versions == sorted(set(versions))


def test_extends_accepts_progress_and_refuses_rival_histories() -> None:
    base = single("e", 1, [100])
    base = rules.apply(base, rules.StartRound("1234", 5000.0))
    answered = rules.apply(base, rules.Submit("1", "12*3+4", 40, 5010.0))
    timed_out = rules.apply(base, rules.Expire(9000.0))
    assert extends(base.to_dict(), answered.to_dict())
    assert extends(base.to_dict(), timed_out.to_dict())
    assert not extends(answered.to_dict(), timed_out.to_dict())
    assert not extends(timed_out.to_dict(), answered.to_dict())
    assert not extends(answered.to_dict(), base.to_dict())


def test_a_real_answer_and_the_auto_move_are_rivals() -> None:
    base = duel("d", (1, 2), [(100, 100)])
    base = rules.apply(base, rules.StartRound("4589", 9000.0))
    base = rules.apply(base, rules.Submit("1", "45+89", 134, 9001.0))
    answered = rules.apply(base, rules.Submit("2", "4*5+89", 109, 9002.0))
    expired = rules.apply(base, rules.Expire(99999.0))
    assert state_version(answered) == state_version(expired)
    assert not extends(answered.to_dict(), expired.to_dict())


def test_when_a_round_appeared_is_told_once() -> None:
    fresh = rules.new_game("g", rules.Mode.TRAINING, rules.CLASSIC, ["1"])
    start = rules.apply(fresh, rules.StartRound("1234", 0.0))
    shown = rules.apply(start, rules.RoundShown(2.5))
    assert extends(start.to_dict(), shown.to_dict())
    later = shown.to_dict()
    later["rounds"][0]["shown_at"] = 3.0
    assert not extends(shown.to_dict(), later)
    replayed = rules.apply(shown, rules.ReplayRound(500.0))
    assert replayed.rounds[0].shown_at is None
    assert extends(shown.to_dict(), replayed.to_dict())


def test_meta_to_dict_is_what_asdict_gave() -> None:
    """`GameMeta.to_dict` writes field by field (asdict was a third of a save's cost):
    the stored JSON is what it was, every field set or none."""
    best = (Reveal(2, 0, "1+2", 3, 4.0, 5), Reveal(2, 1, "9", 9.5, 1, -2.0))
    full = GameMeta(
        locale="uk", parent_channel_id=1, round_message_id=2, round_message_of=3,
        pinged_at=4.5, void_reason="gone", practice_level="easy", best=best, writer="w",
        repost_round=6, repost_tries=7, private=True,
    )  # fmt: skip
    for meta in (full, GameMeta()):
        old = {k: v for k, v in asdict(meta).items() if v is not None}
        old["best"] = list(old["best"])
        if not meta.best:
            old.pop("best")
        if not meta.private:
            old.pop("private")
        assert meta.to_dict() == old
        assert dumps(meta.to_dict()) == dumps(old)
        assert GameMeta.from_dict(meta.to_dict()) == meta
    assert [type(b["result"]) for b in full.to_dict()["best"]] == [int, float]
