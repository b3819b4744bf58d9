"""JSON lines cut from stdin in linear time, however long a line is (`formula-darts eval --jsonl`).

A line longer than MAX_LINE is kept as its length alone (an `input` error for it), so one
huge line costs at most MAX_LINE + 1 bytes of memory and one pass over its bytes.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import CancelledError
from dataclasses import dataclass
from typing import IO

READ_CHUNK = 1 << 16
MAX_LINE = 1 << 20
"""Bytes of one input line (a valid one is under 1 KiB); a longer one is an `input`
error, and no more than this much of it is ever held."""


@dataclass(frozen=True, slots=True)
class Overlong:
    """A line longer than MAX_LINE: only its length was kept."""

    size: int


Line = bytes | Overlong


class LineSplitter:
    """Cuts chunks into lines in linear time, however long a line is: a line spanning
    chunks is kept as parts (at most MAX_LINE + 1 bytes of it) and joined once, when
    its newline comes; joining the rest to each new chunk was quadratic (32 MiB on one
    line took 23 s)."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._kept = 0
        self._size = 0

    def feed(self, chunk: bytes) -> list[Line]:
        *whole, tail = chunk.split(b"\n")
        lines: list[Line] = []
        if whole:
            self._add(whole[0])
            lines.append(self._take())
            rest = whole[1:]
            if len(chunk) > MAX_LINE:
                lines += [p if len(p) <= MAX_LINE else Overlong(len(p)) for p in rest]
            else:
                lines += rest
        self._add(tail)
        return lines

    def end(self) -> list[Line]:
        """The last line, when the input does not end with a newline."""
        return [self._take()] if self._size else []

    def _add(self, piece: bytes) -> None:
        self._size += len(piece)
        room = MAX_LINE + 1 - self._kept
        if piece and room > 0:
            self._parts.append(piece[:room])
            self._kept += min(len(piece), room)

    def _take(self) -> Line:
        line: Line = Overlong(self._size) if self._size > MAX_LINE else b"".join(self._parts)
        self._parts, self._kept, self._size = [], 0, 0
        return line


def read_lines(
    source: IO[str],
    loop: asyncio.AbstractEventLoop,
    queue: asyncio.Queue[list[Line] | None],
    stop: threading.Event,
) -> None:
    """Read stdin in a thread (a regular file cannot be polled) and hand over whole
    lines in batches, so the cost of crossing threads is per chunk, not per line."""

    def hand_over(item: list[Line] | None) -> None:
        asyncio.run_coroutine_threadsafe(queue.put(item), loop).result()

    stream = source.buffer if hasattr(source, "buffer") else None
    lines = LineSplitter()
    try:
        while not stop.is_set():
            chunk = stream.read1(READ_CHUNK) if stream is not None else source.read().encode()
            if not chunk:
                break
            if whole := lines.feed(chunk):
                hand_over(whole)
            if stream is None:
                break
        if last := lines.end():
            hand_over(last)
        hand_over(None)
    except (RuntimeError, OSError, CancelledError):
        pass  # the loop is gone or stdin broke: the pipeline ends either way
