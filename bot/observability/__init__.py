"""What an operator sees of a running bot: Prometheus metrics, `/healthz`, and logs.

`Metrics` records events and reads live state at scrape time; `serve_observability`
serves `/metrics` and `/healthz` on `METRICS_PORT` (nothing when unset).
"""

from bot.observability._checks import (
    evaluator_answers,
    logged_in,
    readiness_checks,
    store_answers,
)
from bot.observability._metrics import AnswerOutcome, Metrics, PoolStats
from bot.observability._server import (
    CheckStatus,
    HealthCheck,
    HealthServer,
    MetricsPortUnavailable,
    Readiness,
    serve_observability,
)

__all__ = [
    "AnswerOutcome",
    "CheckStatus",
    "HealthCheck",
    "HealthServer",
    "Metrics",
    "MetricsPortUnavailable",
    "PoolStats",
    "Readiness",
    "evaluator_answers",
    "logged_in",
    "readiness_checks",
    "serve_observability",
    "store_answers",
]
