"""bench_memory's attribution (bench/_memory_private.py): an allocation belongs to the
innermost frame of simcord, discord.py, the bot or the database layers on its stack, so
what the standard library makes on their behalf is theirs, not "other"'s."""

from __future__ import annotations

import tracemalloc

from bench._memory_private import by_owner, owner

SITE = "/venv/lib/python3.11/site-packages"
STDLIB = "/usr/lib/python3.11"


def stack(*frames: str) -> tracemalloc.Traceback:
    """A traceback from its frames, innermost first (as tracemalloc takes them)."""
    return tracemalloc.Traceback(tuple((name, 1) for name in frames))


def test_the_standard_library_allocates_for_its_innermost_caller_of_ours() -> None:
    json_for_the_bot = stack(
        f"{STDLIB}/json/encoder.py", "/repo/bot/storage/_codec.py",
        f"{SITE}/discord/client.py", f"{SITE}/simcord/_runtime.py", f"{STDLIB}/asyncio/events.py",
    )  # fmt: skip
    assert owner(json_for_the_bot) == "bot"
    copy_for_simcord = stack(
        f"{STDLIB}/copy.py", f"{SITE}/simcord/http/router.py", f"{SITE}/discord/webhook/async_.py",
        "/repo/bot/games/_riding.py",
    )  # fmt: skip
    assert owner(copy_for_simcord) == "simcord"
    assert owner(stack(f"{SITE}/aiosqlite/core.py", f"{STDLIB}/threading.py")) == "database"
    assert owner(stack(f"{STDLIB}/asyncio/base_events.py")) == "other"


def test_growth_between_snapshots_is_summed_by_owner() -> None:
    tracemalloc.start(25)
    try:
        before = tracemalloc.take_snapshot()
        kept = [bytearray(1024 * 1024)]  # made here, in tests/: no owner of ours
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    added = by_owner(before, after)
    assert kept and added["other"] >= 1.0
    assert added["bot"] == added["discord"] == added["simcord"] == 0.0
