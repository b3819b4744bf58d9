"""The floor under the bot's path: the real `worker.php`, fed a file of batches, no Python.

`worker_alone(formulas, workers)` starts `workers` php-cli processes with the pool's own
flags (`php_ini_args`), each reading `formulas` requests of bench_pool's workload from a
file in batches of `BATCH` (the protocol's own lines and nonces), answers to /dev/null,
all at once on the same cores; it returns formulas per second over them all. What the
bot's path reaches with the same number of workers is compared with this: the rest is
the pool's Python, the pipes and the scheduling.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path

from bench._pool_load import workload
from evaluator.sandbox.protocol import WORKER_SCRIPT, encode_batch, php_ini_args, request_line

BATCH = 32
"""Requests per batch: about what 8 callers over 2 workers queue."""


def _requests(formulas: int) -> bytes:
    lines = [request_line(formula)[0] for _, formula in workload(formulas, seed=13)]
    return b"".join(encode_batch(lines[k : k + BATCH]) for k in range(0, len(lines), BATCH))


def worker_alone(formulas: int, workers: int) -> float:
    """Formulas per second of `workers` php workers run side by side on a file each."""
    with tempfile.TemporaryDirectory(prefix="fd-worker-alone-") as tmp:
        feed = Path(tmp) / "requests"
        feed.write_bytes(_requests(formulas))
        argv = ["php", *php_ini_args(128, 3600), str(WORKER_SCRIPT)]
        started = time.perf_counter()
        running = []
        for _ in range(workers):
            with feed.open("rb") as stdin:
                running.append(
                    subprocess.Popen(
                        argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                    )
                )
        for proc in running:
            if proc.wait() != 0:
                raise SystemExit(f"worker.php exited with {proc.returncode}")
        return formulas * workers / (time.perf_counter() - started)
