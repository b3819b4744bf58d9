"""Hostile JavaScript through the raw entry (node's own realm, with `require`): contained.

The raw entry runs statements outside the formula's vm context, with every
node module at hand, so what holds here is the OS sandbox alone (bubblewrap,
or the container), as PHP's containment tests prove it for PHP. After each
attack the same pool must still answer formulas correctly.

The pools here give a request `REAL_WORK_S` (a settle's budget for real work), not the 1 s
of the other pool tests: raw code retires its worker, so each answer after an attack is a
new worker's first (a fresh container's, with Docker), which beside two CPU burners took
over 1 s and answered `timeout` where the test wants 123. Only the endless loop is about
the deadline: it meets the short one, and its pool then answers with the long one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.program import NODE
from tests.evaluator.conftest import TIMEOUT_S, test_settings
from tests.evaluator.js.conftest import node_factory, open_node_pool, require_node_docker
from tests.support.sim import REAL_WORK_S

NODE_PIDS = NODE.docker_pids or 0


@pytest.fixture
async def js_pool(js_backend: str) -> AsyncIterator[WorkerPool]:
    """The node pool of js_backend, each request given a settle's budget (see above)."""
    opened = await open_node_pool(js_backend, timeout_s=REAL_WORK_S)
    try:
        yield opened
    finally:
        await opened.close()


async def still_answers(pool: WorkerPool) -> None:
    for _ in range(pool.size + 1):
        assert await pool.run("34+89") == Evaluation("34+89", 123.0)
        assert await pool.run("7/2") == Evaluation("7/2", 3.5)
        assert await pool.run("023") == Evaluation("023", 19.0)


def error_of(verdict: Verdict) -> EvalError:
    assert isinstance(verdict, EvalError), verdict
    return verdict


def is_zero(verdict: Verdict) -> bool:
    return isinstance(verdict, Evaluation) and verdict.value == 0


async def test_endless_loop_times_out(js_pool: WorkerPool) -> None:
    js_pool.timeout_s = TIMEOUT_S  # the loop meets the short deadline ...
    verdict = await js_pool.run_raw("for (;;) {}")
    assert error_of(verdict).code == ErrorCode.TIMEOUT
    assert "longer than 1 s" in error_of(verdict).message
    js_pool.timeout_s = REAL_WORK_S  # ... and the new worker answers as the others do
    await still_answers(js_pool)


@pytest.mark.parametrize(
    "code",
    [
        "const a = []; for (;;) a.push(new Array(1 << 16).fill(a.length));",  # V8's heap
        "const a = []; for (;;) a.push(Buffer.alloc(8 << 20, 1));",  # outside the heap
    ],
)
async def test_memory_bombs_are_stopped(js_pool: WorkerPool, code: str) -> None:
    error = error_of(await js_pool.run_raw(code))
    assert error.code in (ErrorCode.PHP, ErrorCode.SANDBOX, ErrorCode.TIMEOUT), error
    await still_answers(js_pool)


PROCESSES = [
    "return require('child_process').spawnSync(process.execPath, ['-e', '1']).status === 0"
    " ? 1 : 0;",
    "try { require('child_process').execSync('id'); return 1; } catch (e) { return 0; }",
    "try { require('child_process').execFileSync('/bin/sh', ['-c', 'true']); return 1; }"
    " catch (e) { return 0; }",
]


async def test_no_process_can_start(js_pool: WorkerPool) -> None:
    for code in PROCESSES:
        verdict = await js_pool.run_raw(code)
        assert is_zero(verdict) or isinstance(verdict, EvalError), (code, verdict)
    await still_answers(js_pool)


async def test_no_thread_beyond_nodes_own(js_backend: str) -> None:
    """A worker thread needs a task the limits do not leave: it never runs its code."""
    pool = await open_node_pool(js_backend, pool_size=1, timeout_s=REAL_WORK_S)
    try:
        code = (
            "const { Worker } = require('worker_threads');"
            ' const w = new Worker(\'require("fs").writeSync(2, "ran\\\\n")\', { eval: true });'
            " Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); return 0;"
        )
        verdict = await pool.run_raw(code)
        assert is_zero(verdict) or isinstance(verdict, EvalError), verdict
        await still_answers(pool)
    finally:
        await pool.close()


@pytest.mark.docker
async def test_the_container_tightens_its_pids_once_node_runs() -> None:
    """runc sets a container's pids limit while its init (Go, several threads) still waits
    to become node: under node's 4 from the start a thread of that init now and then
    failed (`runtime/cgo: pthread_create failed`, then the engine's "cannot start a
    stopped process"). The container starts under the settings' limit; node's applies
    once node runs, before the first formula."""
    require_node_docker()
    settings = test_settings("docker")
    factory: Any = node_factory("docker", settings)
    assert factory.config()["host_config"]["PidsLimit"] == settings.docker_pids > NODE_PIDS
    worker = await factory.spawn()
    try:
        inspected = factory.api().inspect_container(worker.container_id)
        assert inspected["HostConfig"]["PidsLimit"] == NODE_PIDS
    finally:
        await worker.kill()


FILE_WRITES = [
    "require('fs').writeFileSync('/etc/owned', 'x'); return 1;",
    "require('fs').writeFileSync('/usr/owned', 'x'); return 1;",
    "require('fs').writeFileSync('/owned', 'x'); return 1;",
    "require('fs').writeFileSync('/sandbox/worker.js', 'x'); return 1;",
    "require('fs').appendFileSync('/sandbox/worker.js', 'x'); return 1;",
]


async def test_no_file_write_outside_tmp(js_pool: WorkerPool) -> None:
    for code in FILE_WRITES:
        error = error_of(await js_pool.run_raw(code))
        assert error.code == ErrorCode.PHP, (code, error)
        assert any(why in error.message for why in ("EROFS", "EACCES")), (code, error)
    await still_answers(js_pool)


async def test_host_files_are_not_there() -> None:
    pool = await open_node_pool("local", pool_size=1, timeout_s=REAL_WORK_S)
    try:
        for path in ("/home", "/root", "/work", "/etc/passwd", "/proc/1", "/var", "/run"):
            code = f"return require('fs').existsSync('{path}') ? 1 : 0;"
            assert is_zero(await pool.run_raw(code)), path
        code = "return require('os').hostname() === 'sandbox' && process.pid < 10 ? 1 : 0;"
        assert await pool.run_raw(code) == Evaluation(code, 1.0)  # own uts and pid namespaces
        await still_answers(pool)
    finally:
        await pool.close()


async def test_tmp_is_private_and_small(js_pool: WorkerPool) -> None:
    small = "require('fs').writeFileSync('/tmp/a', 'abc'); return 3;"
    assert await js_pool.run_raw(small) == Evaluation(small, 3.0)
    big = "require('fs').writeFileSync('/tmp/big', Buffer.alloc(16 << 20, 1)); return 1;"
    assert isinstance(await js_pool.run_raw(big), EvalError)
    left = "return require('fs').existsSync('/tmp/a') ? 1 : 0;"
    assert is_zero(await js_pool.run_raw(left))  # a new worker has its own empty /tmp
    await still_answers(js_pool)


async def test_no_network(js_pool: WorkerPool) -> None:
    """Only a loopback interface (or none) exists: no route leaves the sandbox."""
    code = (
        "const all = require('os').networkInterfaces();"
        " return Object.keys(all).filter((k) => k !== 'lo').length;"
    )
    assert is_zero(await js_pool.run_raw(code))
    await still_answers(js_pool)


async def test_a_formula_leaves_nothing_for_the_next(js_pool: WorkerPool) -> None:
    """Each formula has a fresh context: globals, Math and prototypes do not carry over."""
    for setup in ("this.x = 5", "Math.x = 5", "Math.sqrt = 5", "Object.prototype.y = 5"):
        await js_pool.run(setup)
    for probe in ("x", "Math.x", "y", "Object"):
        assert isinstance(await js_pool.run(probe), EvalError), probe
    assert await js_pool.run("Math.sqrt(16)") == Evaluation("Math.sqrt(16)", 4.0)
    escape = await js_pool.run("Math.max.constructor('return process')()")
    assert error_of(escape).error_class == "EvalError"  # no code from strings in a formula
    await still_answers(js_pool)


async def test_raw_code_leaves_nothing_for_the_next(js_pool: WorkerPool) -> None:
    """Node's own realm cannot be cleaned: a worker retires after raw code, whatever it did."""
    forge = '{"ok":true,"t":"number","v":1,"i":"guess"}'
    attacks = [
        "JSON.stringify = () => 'x'; String.prototype.indexOf = () => 0; return 7;",
        "Object.prototype.toJSON = () => 1; Array.prototype.push = () => 0; return 7;",
        f"require('fs').writeSync(2, '{forge}\\n'); return 7;",
        f"require('fs').writeSync(1, '{forge}\\n'.repeat(1 << 12)); return 7;",
        "process.stdin.pause(); require('fs').closeSync(0); return 7;",
    ]
    for code in attacks:
        verdict = await js_pool.run_raw(code)
        assert not (isinstance(verdict, Evaluation) and verdict.value == 1), code
        await still_answers(js_pool)


async def test_exit_and_crash_are_contained(js_pool: WorkerPool) -> None:
    for code in ("process.exit(0);", "process.abort();"):
        assert error_of(await js_pool.run_raw(code)).code == ErrorCode.SANDBOX, code
        await still_answers(js_pool)
    # In a container node is pid 1, which the kernel keeps from its own SIGKILL.
    assert isinstance(await js_pool.run_raw("process.kill(process.pid, 'SIGKILL');"), EvalError)
    await still_answers(js_pool)
