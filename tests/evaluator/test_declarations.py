"""Defence in depth: what a request declares is gone in the next one (issue 21).

PHP cannot undeclare a function, class, interface, trait, enum or constant, so
a worker whose request declared one retires and the next request meets a fresh
worker. Harmless while the checker holds (no formula can declare anything);
these raw requests bypass it, as tests/evaluator/test_defences.py's tricks do,
on a pool of one worker, on every backend.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from evaluator import Evaluator
from evaluator.result import Evaluation
from evaluator.sandbox.pool import WorkerPool
from tests.evaluator.conftest import open_pool

DECLARE = {
    "function": ("function fd_left() { return 7; } return 1;", "function_exists('fd_left')"),
    "class": ("class FdLeft {} return 1;", "class_exists('FdLeft', false)"),
    "interface": ("interface FdLeftI {} return 1;", "interface_exists('FdLeftI', false)"),
    "trait": ("trait FdLeftT {} return 1;", "trait_exists('FdLeftT', false)"),
    "enum": ("enum FdLeftE { case A; } return 1;", "enum_exists('FdLeftE', false)"),
    "class alias": (
        "class FdOrig {} class_alias('FdOrig', 'FdAlias'); return 1;",
        "class_exists('FdAlias', false)",
    ),
    "const statement": ("const FD_LEFT = 1000; return 1;", "defined('FD_LEFT')"),
    "function in nested eval": (
        "eval(base64_decode('" + "ZnVuY3Rpb24gZmRfbmVzdGVkKCkge30=" + "')); return 1;",
        "function_exists('fd_nested')",
    ),
    "anonymous class in an expression": (
        "return (new class { public $v = 1; })->v;",
        "count(array_filter(get_declared_classes(), fn ($c) => str_contains($c, '@anonymous')))",
    ),
}


@pytest.fixture
async def lone_pool(backend: str) -> AsyncIterator[WorkerPool]:
    pool = await open_pool(backend, pool_size=1)
    try:
        yield pool
    finally:
        await pool.close()


@pytest.mark.parametrize("kind", list(DECLARE), ids=list(DECLARE))
async def test_a_declaration_is_gone_in_the_next_request(lone_pool: WorkerPool, kind: str) -> None:
    declare, probe = DECLARE[kind]
    question = f"return ({probe}) ? 1 : 0;"
    assert await lone_pool.run_raw(question) == Evaluation(question, 0)
    assert await lone_pool.run_raw(declare) == Evaluation(declare, 1)
    assert await lone_pool.run_raw(question) == Evaluation(question, 0)
    evaluator = Evaluator(lone_pool, "test")
    assert await evaluator.evaluate("34+89", "3489", ("pow",)) == Evaluation("34+89", 123)


async def test_a_request_that_declares_nothing_keeps_its_worker(lone_pool: WorkerPool) -> None:
    worker = lone_pool._idle[0].worker
    for code in ("return 34+89;", "return pow(3, 4);", "return hexdec('ff') + 1;"):
        assert isinstance(await lone_pool.run_raw(code), Evaluation)
    await lone_pool.settled()
    assert worker.alive
    assert lone_pool.stats().restarts.get("dirty", 0) == 0  # type: ignore[call-overload]


async def test_a_worker_that_declared_retires(lone_pool: WorkerPool) -> None:
    worker = lone_pool._idle[0].worker
    code = DECLARE["function"][0]
    assert await lone_pool.run_raw(code) == Evaluation(code, 1)  # answered, then "bye"
    await lone_pool.settled()
    assert not worker.alive
    assert lone_pool.stats().restarts["dirty"] == 1  # type: ignore[index]
