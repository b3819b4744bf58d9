"""The web flood bench's CPU accounting (bench/_flood_cpu.py): a phase's use by role is
each process's latest use less its use at the phase's start, under the role it was first
seen with (an exited client, not yet reaped, has no command line and would read as the
solver), and this process reads as the bench itself."""

from __future__ import annotations

import os

import pytest

from bench import _flood_cpu as cpu
from bench._flood_cpu import Meter, Use


def test_a_process_keeps_the_role_it_was_first_seen_with(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = iter(
        [
            {1: ("slow-loris", Use(1.0, 2.0))},  # the phase's start
            {1: ("slow-loris", Use(3.0, 5.0)), 2: ("pages child", Use(0.5, 0.0))},
            {1: ("solver", Use(4.0, 6.0))},  # exited, unreaped: no command line
        ]
    )
    monkeypatch.setattr(cpu, "snapshot", lambda root=None: next(seen))
    meter = Meter()
    meter.sample()
    uses = meter.result()
    assert uses == {"pages child": Use(0.5, 0.0), "slow-loris": Use(3.0, 4.0)}


def test_this_process_is_the_bench() -> None:
    role, use = cpu.snapshot()[os.getpid()]
    assert role == "bench (bot's loop)"
    assert use.cpu_s > 0
