"""Formula checking and sandboxes: `check()` a formula, then real PHP gives the Result
(real node for a JavaScript Set: `evaluator.language` holds each language's checker,
worker program and number text; `Evaluator.evaluate` picks it by the Set's language).

The bot only needs `open_evaluator()`, `Evaluator.evaluate()` and, for its
metrics, `Evaluator.stats()` (a `PoolStats`) and a `PoolObserver`; the rest is
exported for tests, the CLI and the benchmarks.
"""

from evaluator.check import check
from evaluator.result import ErrorCode, EvalError, Evaluation, FormulaError, Verdict
from evaluator.sandbox.local import SandboxUnavailable
from evaluator.sandbox.pool import SandboxStartError
from evaluator.sandbox.stats import PoolObserver, PoolStats, RestartReason
from evaluator.service import Evaluator, open_evaluator
from evaluator.settings import EvaluatorSettings

__all__ = [
    "ErrorCode",
    "EvalError",
    "Evaluation",
    "Evaluator",
    "EvaluatorSettings",
    "FormulaError",
    "PoolObserver",
    "PoolStats",
    "RestartReason",
    "SandboxStartError",
    "SandboxUnavailable",
    "Verdict",
    "check",
    "open_evaluator",
]
