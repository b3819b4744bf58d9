"""`**` (and `Math.pow`) and `Math.cbrt` as node computes them, from node itself (the
solver takes `Math.cbrt` from js_cbrt.py, which matches this bit for bit without a round
trip; this one stays its reference).

ECMAScript leaves both "implementation-approximated", and V8's are its own ports of
fdlibm, not the C library's: numpy's `power` and `cbrt` differ from node's in the last
bit for about one fractional input in eleven (`45.046369632593525 ** 8.486383118643499`
is ...039.5 in node, ...039.48 in C). A solver whose values are node's exactly asks
node: one helper process per solver process, fed whole columns of doubles at once over
a pipe (a million pairs in some 60 ms), with nothing of a player's text in it. Every
other operation is exact IEEE arithmetic that numpy reproduces (js_values.py).
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import threading

import numpy as np

from solver.column import Floats

_SCRIPT = r"""
'use strict';
const fs = require('fs');
const head = Buffer.alloc(5);
function readFull(buf) {
  let off = 0;
  while (off < buf.length) {
    let n;
    try { n = fs.readSync(0, buf, off, buf.length - off, null); }
    catch (e) { if (e.code === 'EAGAIN') continue; throw e; }
    if (n === 0) process.exit(0);
    off += n;
  }
}
function writeFull(buf) {
  let off = 0;
  while (off < buf.length) {
    try { off += fs.writeSync(1, buf, off, buf.length - off); }
    catch (e) { if (e.code !== 'EAGAIN') throw e; }
  }
}
for (;;) {
  readFull(head);
  const op = head[0], n = head.readUInt32LE(1);
  const input = Buffer.alloc(8 * n * (op === 0 ? 2 : 1));
  readFull(input);
  const x = new Float64Array(input.buffer, input.byteOffset, input.length / 8);
  const out = new Float64Array(n);
  if (op === 0) { for (let i = 0; i < n; i++) out[i] = x[i] ** x[n + i]; }
  else { for (let i = 0; i < n; i++) out[i] = Math.cbrt(x[i]); }
  writeFull(Buffer.from(out.buffer));
}
"""

_POW, _CBRT = 0, 1
_CHUNK = 1 << 20  # values per request: 24 MiB of pipe traffic at most


class NodeMathError(RuntimeError):
    """node is missing or its helper died: the JavaScript solver cannot compute `**`."""


def node_binary() -> str:
    """`FORMULA_DARTS_NODE` if set (the evaluator's NODE_PATH), else `node` on the PATH."""
    path = os.environ.get("FORMULA_DARTS_NODE") or shutil.which("node")
    if not path:
        raise NodeMathError("node was not found: `apt-get install nodejs`")
    return path


class NodeMath:
    """A node helper process computing columns of `a ** b` and `Math.cbrt(a)`."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [node_binary(), "--max-old-space-size=64", "-e", _SCRIPT],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                close_fds=True,
            )
        return self._proc

    def _call(self, op: int, parts: list[Floats], n: int) -> Floats:
        out = np.empty(n, np.float64)
        with self._lock:
            proc = self._process()
            assert proc.stdin is not None and proc.stdout is not None
            for start in range(0, n, _CHUNK):
                stop = min(start + _CHUNK, n)
                body = b"".join(np.ascontiguousarray(p[start:stop]).tobytes() for p in parts)
                try:
                    proc.stdin.write(struct.pack("<BI", op, stop - start) + body)
                    proc.stdin.flush()
                    data = proc.stdout.read(8 * (stop - start))
                except (BrokenPipeError, OSError) as exc:
                    self.close()
                    raise NodeMathError(f"the node helper failed: {exc}") from exc
                if len(data) != 8 * (stop - start):
                    self.close()
                    raise NodeMathError("the node helper stopped answering")
                out[start:stop] = np.frombuffer(data, np.float64)
        return out

    @property
    def pid(self) -> int:
        """The helper's process id (started if it is not running)."""
        with self._lock:
            return self._process().pid

    def pow(self, base: Floats, exponent: Floats) -> Floats:
        base, exponent = np.asarray(base, np.float64), np.asarray(exponent, np.float64)
        if len(base) == 0:
            return np.zeros(0, np.float64)
        return self._call(_POW, [base, exponent], len(base))

    def cbrt(self, x: Floats) -> Floats:
        x = np.asarray(x, np.float64)
        if len(x) == 0:
            return np.zeros(0, np.float64)
        return self._call(_CBRT, [x], len(x))

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.kill()
            proc.wait()


NODE_MATH = NodeMath()
"""The process's helper (started on first use, restarted if it died)."""
