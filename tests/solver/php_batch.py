"""Evaluate many PHP expressions in one cold `php` process, with the worker's settings.

Each expression runs through eval() inside try/catch, so a parse error or a
throw is that expression's verdict, not the end of the batch. The reference is
plain php-cli (no worker, no sandbox), with the same precision settings the
evaluator's workers use.
"""

from __future__ import annotations

import json
import math
import struct
import subprocess
from pathlib import Path

Outcome = tuple[
    str, object
]  # ("int", 3), ("float", "<hex bits>"), ("error", class), ("nan"|"inf"|"-inf", None)

_SCRIPT = r"""<?php
$out = [];
foreach (json_decode(file_get_contents($argv[1]), true) as $code) {
    try {
        $v = eval('return (' . $code . ');');
        if (is_int($v)) { $out[] = ['int', $v]; }
        elseif (is_nan($v)) { $out[] = ['nan', null]; }
        elseif (is_infinite($v)) { $out[] = [$v > 0 ? 'inf' : '-inf', null]; }
        else { $out[] = ['float', bin2hex(pack('E', $v))]; }
    } catch (Throwable $e) {
        $out[] = ['error', get_class($e)];
    }
}
echo json_encode($out);
"""


def php_outcomes(expressions: list[str], tmp: Path) -> list[Outcome]:
    source = tmp / "batch.php"
    source.write_text(_SCRIPT)
    data = tmp / "batch.json"
    data.write_text(json.dumps(expressions))
    proc = subprocess.run(
        ["php", "-n", "-d", "precision=14", "-d", "serialize_precision=-1",
         "-d", "error_reporting=0", "-d", "memory_limit=512M", str(source), str(data)],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    return [(kind, value) for kind, value in json.loads(proc.stdout)]


def outcome_of(value: int | float | None, error: bool = False) -> Outcome:
    """The same shape for a solver value (None with error=True: PHP should throw)."""
    if error or value is None:
        return ("error", None)
    if isinstance(value, int):
        return ("int", value)
    if math.isnan(value):
        return ("nan", None)
    if math.isinf(value):
        return ("inf" if value > 0 else "-inf", None)
    return ("float", struct.pack(">d", value).hex())


def agree(ours: Outcome, php: Outcome) -> bool:
    if ours[0] == "error":
        return php[0] == "error"
    return ours == php
