"""Hostile PHP through the raw entry (no whitelist): every attack is contained.

Each test really hits its limit, and then the same pool must still answer a
formula correctly: containment that breaks the pool is not containment.
"""

from __future__ import annotations

import asyncio

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.protocol import DISABLED_FUNCTIONS
from evaluator.service import make_pool
from tests.evaluator.conftest import test_settings


async def still_answers(pool: WorkerPool) -> None:
    for _ in range(pool.size + 1):
        assert await pool.run("34+89") == Evaluation("34+89", 123)
        assert await pool.run("7/2") == Evaluation("7/2", 3.5)


def error_of(verdict: Verdict) -> EvalError:
    assert isinstance(verdict, EvalError), verdict
    return verdict


async def test_endless_loop_times_out(pool: WorkerPool) -> None:
    verdict = await pool.run_raw("while (true) {}")
    assert error_of(verdict).code == ErrorCode.TIMEOUT
    await still_answers(pool)


async def test_memory_bomb_hits_memory_limit(pool: WorkerPool) -> None:
    verdict = await pool.run_raw("$a = []; while (true) { $a[] = str_repeat('x', 1 << 20); }")
    error = error_of(verdict)
    assert error.code in (ErrorCode.PHP, ErrorCode.SANDBOX)  # the limit, not the timeout
    if error.code == ErrorCode.PHP:
        assert "Allowed memory size" in error.message
    await still_answers(pool)


async def test_address_space_limit_holds_without_php_limit() -> None:
    """RLIMIT_AS stops a bomb even when PHP's memory_limit would allow it."""
    settings = test_settings("local", pool_size=1, memory_mb=128)
    pool = make_pool(LocalWorkerFactory(settings, php_memory_limit_mb=4096), settings)
    await pool.start()
    try:
        verdict = await pool.run_raw("$s = str_repeat('x', 512 << 20); return strlen($s);")
        error = error_of(verdict)
        assert error.code == ErrorCode.SANDBOX
        assert "Cannot allocate memory" in error.message  # the OS said no, not PHP
        await still_answers(pool)
    finally:
        await pool.close()


FORK_AND_EXEC = [
    "return pcntl_fork();",
    "return proc_open('id', [], $pipes);",
    "return exec('id');",
    "return shell_exec('id');",
    "return system('id');",
    "return popen('id', 'r');",
    "return passthru('id');",
    "return `id`;",
    "return pcntl_exec('/bin/sh');",
]


async def test_fork_and_exec_are_unavailable(pool: WorkerPool) -> None:
    for code in FORK_AND_EXEC:
        error = error_of(await pool.run_raw(code))
        assert error.code == ErrorCode.PHP, code
        assert "undefined function" in error.message, code
    await still_answers(pool)


async def test_process_limit_holds_without_disabled_functions() -> None:
    """With pcntl_fork callable, RLIMIT_NPROC still refuses a second process."""
    settings = test_settings("local", pool_size=1)
    allowed = tuple(f for f in DISABLED_FUNCTIONS if f != "pcntl_fork")
    pool = make_pool(LocalWorkerFactory(settings, disabled_functions=allowed), settings)
    await pool.start()
    try:
        forks = await pool.run_raw(
            "$n = 0; for ($i = 0; $i < 20; $i++) {"
            " $p = @pcntl_fork(); if ($p === 0) { usleep(500000); exit(0); }"
            " if ($p < 0) { break; } $n++; } return $n;"
        )
        assert forks == Evaluation(forks.formula, 0)  # type: ignore[union-attr]  # not even one
        await still_answers(pool)
    finally:
        await pool.close()


FILE_WRITES = [
    "return file_put_contents('/tmp/x', 'x');",
    "$f = new SplFileObject('/etc/owned', 'w'); return $f->fwrite('x');",
    "$f = new SplFileObject('/usr/owned', 'w'); return $f->fwrite('x');",
    "$f = new SplFileObject('/sandbox/worker.php', 'w'); return $f->fwrite('x');",
    "return is_dir('/home') || is_dir('/root') || is_dir('/work') ? 1 : 0;",
]


async def test_no_file_write_outside_tmp(pool: WorkerPool) -> None:
    for code in FILE_WRITES:
        verdict = await pool.run_raw(code)
        assert verdict == Evaluation(code, 0) or isinstance(verdict, EvalError), code
    await still_answers(pool)


async def test_filesystem_holds_without_open_basedir() -> None:
    """Without open_basedir, PHP sees only the read-only /usr, the script and its tmpfs."""
    settings = test_settings("local", pool_size=1)
    pool = make_pool(LocalWorkerFactory(settings, open_basedir=""), settings)
    await pool.start()
    try:
        absent = ["/home", "/root", "/work", "/etc/passwd", "/proc/1", "/var", "/run"]
        for path in absent:
            code = f"return file_exists('{path}') ? 1 : 0;"
            assert await pool.run_raw(code) == Evaluation(code, 0), path
        for path in ("/usr/owned", "/owned", "/sandbox/owned", "/sandbox/worker.php"):
            code = f"$f = new SplFileObject('{path}', 'a'); return $f->fwrite('x');"
            error = error_of(await pool.run_raw(code))
            assert "Read-only file system" in error.message, (path, error)
        code = "return gethostname() === 'sandbox' && getmypid() < 10 ? 1 : 0;"
        assert await pool.run_raw(code) == Evaluation(code, 1)  # own uts and pid namespaces
        await still_answers(pool)
    finally:
        await pool.close()


async def test_tmp_is_private_and_small(pool: WorkerPool) -> None:
    """/tmp is writable (PHP may need it) but capped: a 16 MiB file cannot be written."""
    small = "$f = new SplFileObject('/tmp/a', 'w'); return $f->fwrite('abc');"
    assert await pool.run_raw(small) == Evaluation(small, 3)
    big = (
        "$f = new SplFileObject('/tmp/big', 'w'); $n = 0; $chunk = str_repeat('x', 1 << 16);"
        " for ($i = 0; $i < 256; $i++) { $w = $f->fwrite($chunk); if (!$w) break; $n += $w; }"
        " return $n;"
    )
    verdict = await pool.run_raw(big)
    if isinstance(verdict, Evaluation):
        assert verdict.value < 16 << 20
    else:
        assert verdict.code in (ErrorCode.SANDBOX, ErrorCode.PHP)  # SIGXFSZ or a write error
    await still_answers(pool)


NETWORK = [
    "return fsockopen('1.1.1.1', 80);",
    "return stream_socket_client('tcp://1.1.1.1:80');",
    "$f = new SplFileObject('http://example.com/'); return 1;",
    "return gethostbynamel('example.com') === false ? 0 : 1;",
]


async def test_no_network(pool: WorkerPool) -> None:
    for code in NETWORK:
        verdict = await pool.run_raw(code)
        assert verdict == Evaluation(code, 0) or isinstance(verdict, EvalError), (code, verdict)
    await still_answers(pool)


async def test_network_namespace_holds_without_disabled_functions() -> None:
    """With fsockopen callable, even a port listening on this host's loopback is unreachable."""
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings = test_settings("local", pool_size=1)
    allowed = tuple(f for f in DISABLED_FUNCTIONS if f not in ("fsockopen", "stream_socket_client"))
    pool = make_pool(LocalWorkerFactory(settings, disabled_functions=allowed), settings)
    await pool.start()
    try:
        for target in (f"127.0.0.1', {port}", "1.1.1.1', 80"):
            code = f"return @fsockopen('{target}, $no, $err, 0.5) === false ? 0 : 1;"
            assert await pool.run_raw(code) == Evaluation(code, 0), target
        await still_answers(pool)
    finally:
        await pool.close()
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize(
    "code",
    [
        "echo str_repeat('x', 50 << 20); return 7;",
        "print_r(range(1, 200000)); trigger_error('noise', E_USER_WARNING); return 7;",
        "$o = new SplFileObject('php://stdout', 'w'); "
        'for ($i = 0; $i < 64; $i++) { $o->fwrite(str_repeat(\'{"ok":true}\' . "\\n", 1 << 14)); }'
        " return 7;",
    ],
)
async def test_output_flood_is_dropped(pool: WorkerPool, code: str) -> None:
    """Printed output never reaches the response channel, however much there is."""
    verdict = await pool.run_raw(code)
    # Docker carries responses on stdout, so raw php://stdout garbage may break
    # its channel; then the worker must be discarded, never misread. Printing 50 MiB
    # can also outlast the request's time on a loaded machine: a timeout is as safe.
    assert verdict == Evaluation(code, 7) or error_of(verdict).code in (
        ErrorCode.SANDBOX,
        ErrorCode.TIMEOUT,
    )
    await still_answers(pool)


async def test_endless_output_times_out(pool: WorkerPool) -> None:
    verdict = await pool.run_raw("while (true) { echo str_repeat('y', 1 << 16); }")
    assert error_of(verdict).code == ErrorCode.TIMEOUT
    await still_answers(pool)


async def test_stderr_flood_is_contained(pool: WorkerPool) -> None:
    code = (
        "$e = new SplFileObject('php://stderr', 'w');"
        " for ($i = 0; $i < 4096; $i++) { $e->fwrite(str_repeat('z', 1 << 16)); } return 7;"
    )
    verdict = await pool.run_raw(code)
    assert verdict == Evaluation(code, 7) or isinstance(verdict, EvalError)
    await still_answers(pool)


async def test_exit_and_fatal_error_are_contained(pool: WorkerPool) -> None:
    assert error_of(await pool.run_raw("exit(0);")).code == ErrorCode.SANDBOX
    fatal = error_of(await pool.run_raw("function f() {} function f() {}"))
    assert fatal.code in (ErrorCode.PHP, ErrorCode.SANDBOX)
    await still_answers(pool)


async def test_forged_answers_do_not_reach_the_caller(pool: WorkerPool) -> None:
    """Code that writes a fake answer where the worker answers never gets it accepted.

    Locally answers travel on fd 3, in Docker on stderr; raw code can reach
    both, but not the per-request nonce an answer must echo, so a forged line
    is a protocol error, the worker is discarded, and nobody's later request
    receives a shifted answer.
    """
    forged = '{"ok":true,"t":"int","v":1,"i":"guess"}'
    channels = "".join(
        f"try {{ (new SplFileObject('php://{target}', 'w'))->fwrite('{forged}' . PHP_EOL); }}"
        " catch (Throwable $e) {} "
        for target in ("fd/3", "stderr", "stdout")
    )
    for code in (
        f"error_log('{forged}'); return 7;",
        f"echo '{forged}', PHP_EOL; return 7;",
        channels + "return 7;",
    ):
        verdict = await pool.run_raw(code)
        assert not (isinstance(verdict, Evaluation) and verdict.value == 1), code
        if isinstance(verdict, EvalError):
            assert verdict.code in (ErrorCode.PHP, ErrorCode.SANDBOX), verdict
        await still_answers(pool)
