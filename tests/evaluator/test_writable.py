"""Every place a PHP worker could write to is bounded, in both sandboxes (issue 29):
raw code (past the checker, and without open_basedir, which is PHP's own fence, not
the sandbox's) writes 64 KiB at a time to /tmp, /dev/shm and /dev until it is refused.
An unbounded tmpfs is the host's memory: 256 MiB were once written to /dev in 0.5 s."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from evaluator.result import Evaluation, Verdict
from evaluator.sandbox.base import WorkerFactory
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.program import PHP, RuntimeLimits
from evaluator.service import make_pool
from tests.evaluator.conftest import test_settings

WRITABLE_MAX = 4 << 20
"""The most any one place may take (the largest, bubblewrap's /tmp, is 4 MiB)."""
TRIED = 32 << 20
"""What the code tries to write: eight times the bound."""
PLACES = ["/tmp", "/dev/shm", "/dev"]


def fill(place: str, files: int = TRIED >> 16) -> str:
    """PHP that writes `files` files of 64 KiB each in `place` (many small files: a limit
    on one file's size bounds nothing) and returns how many bytes it wrote before a file
    could not be opened or written."""
    return (
        "$n = 0; $chunk = str_repeat('x', 1 << 16);"
        f" for ($i = 0; $i < {files}; $i++) {{"
        f" try {{ $f = new SplFileObject('{place}/fill' . $i, 'w'); }}"
        " catch (Throwable $e) { break; }"
        " $w = $f->fwrite($chunk); $n += (int) $w; if ($w !== 1 << 16) break; }"
        " return $n;"
    )


def written(verdict: Verdict) -> int:
    """Bytes the code wrote before it was refused."""
    assert isinstance(verdict, Evaluation), verdict
    return int(verdict.value)


@pytest.fixture
async def fenceless(backend: str) -> AsyncIterator[WorkerPool]:
    """A PHP pool whose workers have no open_basedir: only the sandbox bounds them."""
    settings = test_settings(backend, pool_size=1)
    factory: WorkerFactory
    if backend == "local":
        factory = LocalWorkerFactory(settings, open_basedir="")
    else:
        from evaluator.sandbox.docker import DockerWorkerFactory

        limits = RuntimeLimits(settings.php_memory_limit_mb, settings.cpu_budget_s, open_basedir="")
        command = PHP.argv(PHP.image_binary, PHP.in_sandbox, limits)
        factory = DockerWorkerFactory(settings, command=command)
    pool = make_pool(factory, settings)
    await pool.start()
    try:
        yield pool
    finally:
        await pool.close()


async def test_the_code_writes_where_it_may(fenceless: WorkerPool) -> None:
    """The probe works: a few bytes in /tmp are written and counted."""
    code = fill("/tmp", files=2)
    assert await fenceless.run_raw(code) == Evaluation(code, 2 << 16)


@pytest.mark.parametrize("place", PLACES)
async def test_every_writable_place_is_bounded(fenceless: WorkerPool, place: str) -> None:
    assert written(await fenceless.run_raw(fill(place))) <= WRITABLE_MAX
    code = "return 34 + 89;"
    assert await fenceless.run_raw(code) == Evaluation(code, 123)
