"""Every place a node worker could write to is bounded, in both sandboxes (issue 29):
raw JavaScript (past the checker) writes 64 KiB files to /tmp, /dev/shm and /dev until
it is refused. Raw node once wrote 256 × 1 MiB to /dev and /dev/shm in 0.5 s."""

from __future__ import annotations

import pytest

from evaluator.result import Evaluation, Verdict
from evaluator.sandbox.pool import WorkerPool
from tests.evaluator.test_writable import PLACES, TRIED, WRITABLE_MAX


def fill(place: str, files: int = TRIED >> 16) -> str:
    """JavaScript that writes `files` files of 64 KiB each in `place` and returns how many
    bytes it wrote before a file could not be opened or written."""
    return (
        "const fs = require('fs'); const chunk = Buffer.alloc(1 << 16, 120); let n = 0;"
        f" for (let i = 0; i < {files}; i++) {{"
        f" let w = 0; try {{ w = fs.writeFileSync('{place}/fill' + i, chunk) ?? chunk.length; }}"
        " catch (e) { break; } n += w; }"
        " return n;"
    )


def written(verdict: Verdict) -> int:
    assert isinstance(verdict, Evaluation), verdict
    return int(verdict.value)


async def test_the_code_writes_where_it_may(js_pool: WorkerPool) -> None:
    """The probe works: a few bytes in /tmp are written and counted."""
    assert written(await js_pool.run_raw(fill("/tmp", files=2))) == 2 << 16


@pytest.mark.parametrize("place", PLACES)
async def test_every_writable_place_is_bounded(js_pool: WorkerPool, place: str) -> None:
    assert written(await js_pool.run_raw(fill(place))) <= WRITABLE_MAX
    code = "return 34 + 89;"
    assert await js_pool.run_raw(code) == Evaluation(code, 123.0)
