"""bench_node_pool's idle count (bench/_pool_idle.py): sleeping idle states of every core
are summed, polling is not a sleep, and a machine that does not say gives no number."""

from __future__ import annotations

from pathlib import Path

from bench._pool_idle import idle_entries, per_formula


def state(root: Path, cpu: int, index: int, name: str, usage: int) -> None:
    folder = root / f"cpu{cpu}" / "cpuidle" / f"state{index}"
    folder.mkdir(parents=True)
    (folder / "name").write_text(name + "\n")
    (folder / "usage").write_text(f"{usage}\n")


def test_the_sleeping_states_of_every_core_are_counted_and_polling_is_not(
    tmp_path: Path,
) -> None:
    for cpu in (0, 1):
        state(tmp_path, cpu, 0, "POLL", 1000)
        state(tmp_path, cpu, 1, "haltpoll idle", 10 + cpu)
    (tmp_path / "cpufreq").mkdir()  # not a core
    assert idle_entries(tmp_path) == 21


def test_no_cpuidle_gives_no_number(tmp_path: Path) -> None:
    (tmp_path / "cpu0").mkdir()
    assert idle_entries(tmp_path) is None
    assert per_formula(None, 5, 10).startswith("unknown")
    assert per_formula(100, 150, 25) == "2.00"
