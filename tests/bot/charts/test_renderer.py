"""Charts drawn in a real spawned worker process: the same PNG as in-process, and every
failure folded into None and a log line, with the next chart drawn as usual."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.charts import ChartRenderer, StatsChartInput, game_chart, stats_chart
from tests.support import chart_faults
from tests.support.played import PERFECT, play

pytestmark = pytest.mark.asyncio(loop_scope="module")
NAMES = {"111": "Olena"}


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def renderer() -> AsyncIterator[ChartRenderer]:
    opened = ChartRenderer(workers=1, timeout_s=60)
    await opened.start()
    yield opened
    await opened.close()


async def test_a_chart_from_the_worker_is_the_chart_drawn_here(renderer: ChartRenderer) -> None:
    record = play(PERFECT)
    png = await renderer.render(game_chart, record, "uk", NAMES)
    assert png == game_chart(record, "uk", NAMES)
    assert await renderer.render(stats_chart, StatsChartInput(()), "en") == stats_chart(
        StatsChartInput(()), "en"
    )


async def test_a_chart_that_raises_is_none_and_logged(
    renderer: ChartRenderer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.charts"):
        assert await renderer.render(chart_faults.raises, "no font today") is None
    assert "chart raises failed" in caplog.text
    assert "RuntimeError: no font today" in caplog.text
    assert await renderer.render(game_chart, play(PERFECT), "en", NAMES) is not None


async def test_a_chart_that_is_not_bytes_is_none_and_logged(
    renderer: ChartRenderer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.charts"):
        assert await renderer.render(chart_faults.not_png, "text") is None
    assert "returned str, not PNG bytes" in caplog.text


async def test_a_dead_worker_is_none_and_the_next_chart_gets_a_new_one(
    renderer: ChartRenderer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.charts"):
        assert await renderer.render(chart_faults.dies, 3) is None
    assert "the chart worker died drawing dies" in caplog.text
    assert await renderer.render(game_chart, play(PERFECT), "en", NAMES) is not None


async def until_no_child_hangs(before: set[multiprocessing.process.BaseProcess]) -> None:
    """The stuck worker was ended, not left to hold the exit (waits up to 30 s for it).

    Only the test's own workers count: other suites' session workers (the solver's, a
    bot test's chart worker) may be alive in the same run."""
    for _ in range(300):
        if set(multiprocessing.active_children()) <= before:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"children still alive: {multiprocessing.active_children()}")


async def test_an_argument_that_cannot_go_to_the_worker_is_none_and_logged(
    renderer: ChartRenderer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.charts"):
        assert await renderer.render(chart_faults.raises, lambda: "unpicklable") is None  # type: ignore[arg-type]
    assert "chart raises failed" in caplog.text


async def test_a_chart_queued_behind_a_stuck_one_is_none_not_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Ending the stuck worker cancels the charts queued behind it; their callers get None."""
    before = set(multiprocessing.active_children())
    slow = ChartRenderer(workers=1, timeout_s=60)
    try:
        await slow.start()
        slow.timeout_s = 0.5
        stuck = asyncio.create_task(slow.render(chart_faults.hangs, 30.0))
        await asyncio.sleep(0)
        slow.timeout_s = 60
        queued = asyncio.create_task(slow.render(game_chart, play(PERFECT), "en", NAMES))
        with caplog.at_level(logging.ERROR, logger="bot.charts"):
            assert await stuck is None
            assert await queued is None
        assert "took longer than 0.5 s" in caplog.text
        assert await slow.render(game_chart, play(PERFECT), "en", NAMES) is not None
    finally:
        await slow.close()
    await until_no_child_hangs(before)
