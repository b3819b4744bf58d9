"""What an operator sees of a running bot: Prometheus metrics, `/healthz`, and logs.

`Metrics` records events and reads live state at scrape time; `serve_observability`
serves `/metrics` and `/healthz` on `METRICS_PORT` (nothing when unset);
`configure_logging` writes text or JSON lines carrying `log_context` fields.
"""

from bot.observability._checks import (
    evaluator_answers,
    logged_in,
    readiness_checks,
    store_answers,
)
from bot.observability._logging import (
    ContextFilter,
    JsonFormatter,
    TextFormatter,
    configure_logging,
    log_context,
)
from bot.observability._metrics import AnswerOutcome, Metrics, PoolStats, RestStats
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
    "ContextFilter",
    "HealthCheck",
    "HealthServer",
    "JsonFormatter",
    "Metrics",
    "MetricsPortUnavailable",
    "PoolStats",
    "Readiness",
    "RestStats",
    "TextFormatter",
    "configure_logging",
    "evaluator_answers",
    "log_context",
    "logged_in",
    "readiness_checks",
    "serve_observability",
    "store_answers",
]
