"""`Math.cbrt` in numpy (solver/js_cbrt.py) is node's, bit for bit, over millions of doubles."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from solver.js_cbrt import cbrt
from solver.node_math import NODE_MATH

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _bits(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x), np.nan, x).view(np.uint64)


def test_numpy_cbrt_is_nodes_bit_for_bit() -> None:
    rng = np.random.default_rng(2026)
    x = np.concatenate(
        [
            rng.integers(0, 2**64, 600_000, dtype=np.uint64).view(np.float64),  # any bits
            rng.standard_normal(300_000) * 10.0 ** rng.integers(-300, 300, 300_000),
            np.arange(-50_000, 50_000, dtype=np.float64) / 7,  # the tables' kind of values
            rng.integers(1, 2**52, 100_000, dtype=np.uint64).view(np.float64),  # subnormals
            np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324]),
            np.array(
                [
                    2.2250738585072014e-308,
                    1.7976931348623157e308,
                    8.0,
                    -27.0,
                    1e-300,
                    3489.0,
                    0.3611,
                ]
            ),
        ]
    )
    mine, nodes = cbrt(x), NODE_MATH.cbrt(x)
    differ = np.flatnonzero(_bits(mine) != _bits(nodes))
    assert len(differ) == 0, list(
        zip(x[differ][:5], mine[differ][:5], nodes[differ][:5], strict=True)
    )
    assert np.signbit(cbrt(np.array([-0.0])))[0]
    assert np.count_nonzero(np.cbrt(x) != nodes) > 10_000  # the C library's is not node's
