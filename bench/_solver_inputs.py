"""What the solver benchmarks ask: the Scores a round can start with.

Shared by bench_solver's main section and its limits (`_solver_limits`), so both time
the queries a game makes, not Scores no round has.
"""

from __future__ import annotations

import random

from rules.sets import CLASSIC


def round_score(rng: random.Random) -> int:
    """A Score a round can start with: 1..501 (0 ends the game; no Score passes the start)."""
    return rng.randint(1, CLASSIC.start_score)
