"""Charts that go wrong, at module level so a spawned chart worker can import them."""

from __future__ import annotations

import os
import time


def raises(message: str) -> bytes:
    raise RuntimeError(message)


def dies(code: int) -> bytes:
    os._exit(code)


def hangs(seconds: float) -> bytes:
    time.sleep(seconds)
    return b"too late"


def not_png(value: str) -> bytes:
    return value  # type: ignore[return-value]
