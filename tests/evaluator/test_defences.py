"""Defence in depth: code that reaches a worker cannot change what later requests see.

Each trick is PHP a checker bug could let through, sent by the raw entry
(`run_raw`) to a pool of one worker, on every backend. Honest formulas are
judged through the checker before the trick and after it, several times
(so a delayed effect, like a destructor run by the cycle collector, has its
chance): the verdicts must be the same, the worker may be replaced, but no
later player's answer may change.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from evaluator import Evaluator
from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.protocol import DEFENCES, DISABLED_FUNCTIONS
from tests.evaluator.conftest import open_pool

FUNCTIONS = ("pow", "sqrt", "hexdec", "octdec", "bindec")
HONEST = [
    ("34+89", "3489"),
    ("3/4+89", "3489"),
    ("octdec(89)+34", "8934"),  # a deprecation in PHP: what an error handler would catch
    ("hexdec(34)+89", "3489"),
    ("pow+3489", "3489"),  # a bare name: what a constant would change
    ("34/(8-8)", "3488"),
    ("sqrt(34)+89", "3489"),
]
FORGED = '{"ok":true,"t":"int","v":1,"i":"forged"}'
_WRITE_FORGED = (
    "foreach (['php://fd/3', 'php://stderr', 'php://stdout'] as $t) {"
    f" try {{ (new SplFileObject($t, 'w'))->fwrite('{FORGED}' . PHP_EOL); }}"
    " catch (Throwable $e) {} }"
)
_REWRITE = (
    "class FdRewrite extends php_user_filter {"
    " function filter($in, $out, &$consumed, $closing): int {"
    "  while ($b = stream_bucket_make_writeable($in)) {"
    "   $b->data = str_replace(['34+89', '\"v\":123'], ['1000', '\"v\":7'], $b->data);"
    "   $consumed += $b->datalen; stream_bucket_append($out, $b); }"
    "  return PSFS_PASS_ON; } }"
    " stream_filter_register('fd_rewrite', 'FdRewrite');"
)

TRICKS = {
    "filter on stdin rewrites later requests": _REWRITE
    + " stream_filter_append(STDIN, 'fd_rewrite', STREAM_FILTER_READ); return 1;",
    "filter on stderr rewrites later answers": _REWRITE
    + " stream_filter_append(STDERR, 'fd_rewrite', STREAM_FILTER_WRITE); return 1;",
    "built-in filter garbles stdin": "stream_filter_prepend(STDIN, 'string.rot13'); return 1;",
    "define a constant": "define('pow', 1000); return 1;",
    "const statement in eval": "eval('const pow = 1000;'); return 1;",
    "error handler": "set_error_handler(function () { throw new Exception('caught'); }); return 1;",
    "exception handler": "set_exception_handler(function ($e) { echo 'x'; }); return 1;",
    "tick function": "declare(ticks=1); register_tick_function(function () {"
    f" {_WRITE_FORGED} }}); return 1;",
    "shutdown function": f"register_shutdown_function(function () {{ {_WRITE_FORGED} }});"
    " return 1;",
    "output buffer that survives": "ob_start(function ($b) { return $b; }, 1,"
    " PHP_OUTPUT_HANDLER_STDFLAGS ^ PHP_OUTPUT_HANDLER_REMOVABLE); return 1;",
    "setlocale": "return setlocale(LC_ALL, 'de_DE.UTF-8', 'C.UTF-8') === false ? 0 : 1;",
    "error_reporting": "error_reporting(0); return 1;",
    "ini settings": "ini_set('precision', '3'); ini_set('serialize_precision', '3'); return 1;",
    "autoloader": "spl_autoload_register(function ($c) { echo $c; }); return 1;",
    "stdin made non-blocking": "stream_set_blocking(STDIN, false); return 1;",
    "stdin closed": "fclose(STDIN); return 1;",
    "stderr closed": "fclose(STDERR); return 1;",
    "stdin timeout": "stream_set_timeout(STDIN, 0, 1); return 1;",
    "stream wrapper swapped": "stream_wrapper_unregister('php'); return 1;",
    "garbage cycles whose destructors forge answers": "class FdEvil { public $self;"
    f" function __destruct() {{ {_WRITE_FORGED} }} }}"
    " $n = gc_status()['threshold'] - gc_status()['roots'] - 2;"  # just short of a collection
    " for ($i = 0; $i < $n; $i++) { $o = new FdEvil; $o->self = $o; } unset($o); return 1;",
    "global object whose destructor forges answers": "$GLOBALS['fd_evil'] = new class {"
    f" function __destruct() {{ {_WRITE_FORGED} }} }}; return 1;",
    "global holding memory": "$GLOBALS['fd_hog'] = str_repeat('x', 40 << 20); return 1;",
    "static holding memory": "function fd_hog() { static $m; $m = str_repeat('x', 40 << 20); }"
    " fd_hog(); return 1;",
    "garbage collector off": "gc_disable(); return 1;",
    "time zone and include path": "date_default_timezone_set('Asia/Tokyo');"
    " set_include_path('/tmp'); return 1;",
}


@pytest.fixture
async def lone_pool(backend: str) -> AsyncIterator[WorkerPool]:
    """One worker, so every later request meets whatever the trick left behind."""
    pool = await open_pool(backend, pool_size=1)
    try:
        yield pool
    finally:
        await pool.close()


async def honest_verdicts(evaluator: Evaluator) -> list[Verdict]:
    return [await evaluator.evaluate(f, d, FUNCTIONS) for f, d in HONEST]


@pytest.mark.parametrize("trick", list(TRICKS), ids=list(TRICKS))
async def test_a_trick_changes_nothing_later(lone_pool: WorkerPool, trick: str) -> None:
    evaluator = Evaluator(lone_pool, "test")
    before = await honest_verdicts(evaluator)
    assert before[0] == Evaluation("34+89", 123)
    await lone_pool.run_raw(TRICKS[trick])
    for _ in range(3):
        assert await honest_verdicts(evaluator) == before


def test_every_disabled_function_has_its_defence_and_reason() -> None:
    assert len(DISABLED_FUNCTIONS) == len(set(DISABLED_FUNCTIONS))
    for defence in DEFENCES:
        assert defence.threat and defence.defence
    for name in (
        "stream_filter_append",
        "define",
        "set_error_handler",
        "ob_start",
        "register_shutdown_function",
        "setlocale",
        "stream_set_blocking",
        "fclose",
    ):
        assert name in DISABLED_FUNCTIONS  # fmt: skip


async def test_disabled_functions_are_really_gone(lone_pool: WorkerPool) -> None:
    missing = [
        name
        for name in DISABLED_FUNCTIONS
        if await lone_pool.run_raw(f"return function_exists('{name}') ? 1 : 0;")
        != Evaluation(f"return function_exists('{name}') ? 1 : 0;", 0)
    ]
    assert missing == []


async def _behind_a_slow_one(pool: WorkerPool, first: str, honest: list[str]) -> list[Verdict]:
    """`first` and `honest` as one batch: queued while the only worker is busy."""
    slow = asyncio.create_task(pool.run_raw("usleep(300000); return 0;"))
    await asyncio.sleep(0.1)
    queued = [asyncio.create_task(pool.run_raw(first))]
    queued += [asyncio.create_task(pool.run(f)) for f in honest]
    await slow
    return await asyncio.gather(*queued)


STDIN_READERS = {
    "fgets": "return strlen((string) fgets(STDIN));",
    "stream_get_contents": "return strlen(stream_get_contents(STDIN));",
    "SplFileObject": "$f = new SplFileObject('php://stdin'); return strlen($f->fgets());",
    "fd 0": "$f = new SplFileObject('php://fd/0', 'r'); return strlen($f->fgets());",
}


@pytest.mark.parametrize("reader", list(STDIN_READERS), ids=list(STDIN_READERS))
async def test_requests_queued_behind_cannot_be_read(lone_pool: WorkerPool, reader: str) -> None:
    """The worker has read its whole batch before it runs the first: stdin is empty.

    The reader would learn the nonces of the requests behind it and could answer
    for them; instead its read blocks until its own timeout, and the requests
    behind it are sent again, alone, and answered right (the reader too: answers of a
    batch are written together, so which request ended the worker is learnt alone)."""
    honest = ["34+89", "7/2", "hexdec(63)"]
    before = lone_pool.stats()
    got = await _behind_a_slow_one(lone_pool, STDIN_READERS[reader], honest)
    assert isinstance(got[0], EvalError) and got[0].code == ErrorCode.TIMEOUT
    assert got[1:] == [
        Evaluation("34+89", 123),
        Evaluation("7/2", 3.5),
        Evaluation("hexdec(63)", 99),
    ]
    assert lone_pool.stats().retried - before.retried == len(honest) + 1  # all, alone


async def test_a_backtrace_shows_no_request_or_nonce(lone_pool: WorkerPool) -> None:
    spy = (
        "$seen = json_encode([debug_backtrace(), (new Exception)->getTrace(),"
        " (new ReflectionFunction('fd_main'))->getStaticVariables(), $GLOBALS]);"
        " return preg_match_all('/[0-9a-f]{16}|34\\\\+89|7\\\\/2/', $seen);"
    )
    got = await _behind_a_slow_one(lone_pool, spy, ["34+89", "7/2"])
    assert got == [Evaluation(spy, 0), Evaluation("34+89", 123), Evaluation("7/2", 3.5)]


async def test_destructors_run_in_their_own_requests_time(lone_pool: WorkerPool) -> None:
    """Garbage and globals a request leaves are cleaned before its answer: a forged line
    they write lands on its own answer (refused), never on the next request's."""
    trick = TRICKS["garbage cycles whose destructors forge answers"]
    got = await _behind_a_slow_one(lone_pool, trick, ["34+89", "7/2"])
    assert isinstance(got[0], EvalError) and got[0].code == ErrorCode.SANDBOX
    assert got[1:] == [Evaluation("34+89", 123), Evaluation("7/2", 3.5)]


async def test_a_worker_left_holding_memory_retires(lone_pool: WorkerPool) -> None:
    worker = lone_pool._idle[0].worker
    code = TRICKS["static holding memory"]
    assert await lone_pool.run_raw(code) == Evaluation(code, 1)  # answered, then "bye"
    await lone_pool.settled()
    assert not worker.alive
    assert lone_pool.stats().restarts["dirty"] == 1  # type: ignore[index]
    assert await lone_pool.run("34+89") == Evaluation("34+89", 123)


def test_forged_line_is_json() -> None:
    assert json.loads(FORGED)["ok"] is True
