"""The modes as RULES.md declares them, in one table: every Mode has a declaration, and
each says what RULES.md says of it."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

import rules
from rules.modes import MODES, WindowKind, declared
from rules.state import Mode
from rules.window import ServerDay

# mode: players, rated, board, seeded, sealed, window, bot seat, in stats
TABLE = {
    Mode.TRAINING: (1, False, False, False, False, WindowKind.NONE, None, True),
    Mode.QUALIFICATION: (1, False, True, True, True, WindowKind.SERVER_DAY, None, True),
    Mode.DUEL: (2, True, False, False, False, WindowKind.NONE, None, True),
    Mode.PRACTICE: (2, False, False, False, False, WindowKind.NONE, 1, False),
}


def test_every_mode_is_declared_once() -> None:
    assert set(MODES) == set(Mode)
    assert all(declared(mode).mode is mode for mode in Mode)


@pytest.mark.parametrize("mode", list(Mode))
def test_each_mode_declares_what_the_rules_say(mode: Mode) -> None:
    how = declared(mode)
    got = (how.players, how.rated, how.board, how.seeded, how.sealed, how.window,
           how.bot_seat, how.in_stats)  # fmt: skip
    assert got == TABLE[mode]
    assert how.players == mode.players  # the state machine seats as many
    assert how.reveals_while_played() is not how.sealed


def test_attempts_per_window_come_from_the_set_for_a_qualification_only() -> None:
    three = dataclasses.replace(rules.CLASSIC, attempts=3)
    assert declared(Mode.QUALIFICATION).attempts(three) == 3
    assert declared(Mode.TRAINING).attempts(three) is None
    assert declared(Mode.DUEL).attempts(three) is None


def test_a_qualification_competes_in_the_servers_day() -> None:
    kyiv = ZoneInfo("Europe/Kyiv")
    late = datetime(2026, 12, 6, 22, 30, tzinfo=UTC)  # 00:30 on the 7th in Kyiv
    assert declared(Mode.QUALIFICATION).window_at(late, kyiv) == ServerDay("2026-12-07", kyiv)
    assert declared(Mode.QUALIFICATION).window_at(late, UTC) == ServerDay("2026-12-06", UTC)
    assert declared(Mode.TRAINING).window_at(late, kyiv) is None
