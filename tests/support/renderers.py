"""Real chart renderers for bot tests: one that records what it drew, one that always fails."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.charts import ChartRenderer
from bot.charts._renderer import _warm
from tests.support import chart_faults


class Recording(ChartRenderer):
    """A real renderer that also keeps what it was asked to draw."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.asked: list[tuple[Any, ...]] = []

    async def render(self, chart: Any, *args: Any) -> bytes | None:  # type: ignore[override]
        self.asked.append((chart, *args))
        return await super().render(chart, *args)


class Failing(ChartRenderer):
    """A real renderer whose every chart raises in the worker."""

    async def render(self, chart: Any, *args: Any) -> bytes | None:  # type: ignore[override]
        return await super().render(chart_faults.raises, "the chart broke")


def started(renderer: ChartRenderer) -> ChartRenderer:
    """The worker spawned and warm before simcord's clock runs (as for the solver)."""
    renderer._pool().submit(_warm).result()
    return renderer


@pytest.fixture(scope="session")
def recording() -> Iterator[Recording]:
    """One worker for the session; each test clears `asked` itself."""
    renderer = Recording(timeout_s=120)
    started(renderer)
    yield renderer
    renderer._discard(renderer._pool())


@pytest.fixture(scope="session")
def page_charts() -> Iterator[ChartRenderer]:
    """One warm chart worker for every web test of the session. Each application made its
    own before (`create_app` without `charts`): a spawned process importing matplotlib,
    about 1 s on a quiet machine and 20 s at load 15, for each of ~100 tests. The tests of
    the application's own worker (`formula-darts web`) still start one."""
    renderer = started(ChartRenderer(timeout_s=120))
    yield renderer
    renderer._discard(renderer._pool())
