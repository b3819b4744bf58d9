"""The solver's formulas, confirmed by real PHP before anyone sees them.

The solver computes in its own copy of PHP's arithmetic; what a player is
shown is what the real sandbox returns. A candidate whose PHP Result differs
(type or value) is logged and skipped for the next one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from evaluator import Evaluation, Evaluator
from rules.scoring import Number
from rules.sets import GameSet
from solver.php import same
from solver.process import Lane, SolverProcess
from solver.result import Candidate, Solution, SolveFailure

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A candidate real PHP agrees with, and how many better ones it disagreed with."""

    candidate: Candidate
    evaluation: Evaluation
    mismatches: int


async def confirm(evaluator: Evaluator, solution: Solution, game_set: GameSet) -> Confirmed | None:
    """The first candidate (best first) whose PHP Result equals the solver's, or None."""
    items = [(c.formula, solution.digits, game_set) for c in solution.candidates]
    verdicts = await evaluator.evaluate_many(items)
    for mismatches, (candidate, verdict) in enumerate(
        zip(solution.candidates, verdicts, strict=True)
    ):
        if isinstance(verdict, Evaluation) and same(verdict.value, candidate.value):
            return Confirmed(candidate, verdict, mismatches)
        log.warning(
            "solver and PHP disagree on %s for %s: solver %r (%s), PHP %r",
            candidate.formula,
            solution.digits,
            candidate.value,
            candidate.php_type,
            verdict,
        )
    return None


async def best_confirmed(
    solver: SolverProcess,
    evaluator: Evaluator,
    digits: str,
    score: Number,
    game_set: GameSet,
    *,
    top: int = 3,
    aim: int = 0,
    timeout_s: float | None = None,
    lane: Lane = Lane.PLAYER,
) -> Confirmed | SolveFailure | None:
    """Solve off the event loop, then confirm with real PHP. None: PHP refused every candidate."""
    solution = await solver.best(
        digits, score, game_set, top=top, aim=aim, timeout_s=timeout_s, lane=lane
    )
    if isinstance(solution, SolveFailure):
        return solution
    return await confirm(evaluator, solution, game_set)


class ConfirmedSolver:
    """The games' `Revealer`: the solver's best answer for a Score, confirmed by real PHP.

    A solve that fails (late, busy, crashed) or that PHP disagrees with in every
    candidate is no answer: it is logged and the game goes on without the reveal.
    `lane` says who waits for its best answers (`Lane.BACKFILL`: nobody, a finished game).
    """

    def __init__(
        self,
        solver: SolverProcess,
        evaluator: Evaluator,
        *,
        timeout_s: float = 30.0,
        lane: Lane = Lane.PLAYER,
    ) -> None:
        self.solver = solver
        self.evaluator = evaluator
        self.timeout_s = timeout_s
        self.lane = lane

    async def best(
        self, digits: str, score: Number, game_set: GameSet, *, aim: int = 0
    ) -> Candidate | None:
        found = await best_confirmed(
            self.solver, self.evaluator, digits, score, game_set,
            aim=aim, timeout_s=self.timeout_s, lane=self.lane,
        )  # fmt: skip
        if isinstance(found, Confirmed):
            return found.candidate
        if isinstance(found, SolveFailure):
            log.warning("no best answer for %s at Score %s: %s", digits, score, found.message)
        return None

    async def finish(
        self, digits: str, score: Number, game_set: GameSet, *, last: bool = False
    ) -> Candidate | None:
        """How a perfect player plays: the formula likeliest to finish next round
        (`SolverProcess.finish`), confirmed by PHP like the best answer."""
        solution = await self.solver.finish(
            digits, score, game_set, last=last, timeout_s=self.timeout_s
        )
        if isinstance(solution, SolveFailure):
            log.warning("no finishing move for %s at Score %s: %s", digits, score, solution.message)
            return None
        found = await confirm(self.evaluator, solution, game_set)
        return None if found is None else found.candidate

    async def prepare(self, digits: str, game_set: GameSet) -> None:
        """Prepare Digits that many Scores will be asked about (a Qualification day's, which
        everyone played): each query on them after this costs a few milliseconds. The
        daily post asks it only for Digits not solved ahead of midnight (`DayAhead`)."""
        failure = await self.solver.prepare(digits, game_set, timeout_s=self.timeout_s)
        if failure is not None:
            log.warning("could not prepare %s: %s", digits, failure.message)

    async def closest(self, digits: str, game_set: GameSet) -> Candidate | None:
        """The formula whose Result is nearest the Goal (the daily post), if PHP agrees
        (`DayAhead` keeps those found before midnight)."""
        found = await self.solver.closest(digits, game_set, timeout_s=self.timeout_s)
        if isinstance(found, SolveFailure):
            log.warning("no closest formula for %s: %s", digits, found.message)
            return None
        verdict = (await self.evaluator.evaluate_many([(found.formula, digits, game_set)]))[0]
        if isinstance(verdict, Evaluation) and same(verdict.value, found.value):
            return found
        log.warning("solver and PHP disagree on %s for %s: %r", found.formula, digits, verdict)
        return None
