"""Logs that say which game, server and shard a line is about, as text or one JSON per line.

Where a line is about a game is known at the door (a handler, a timer), not in the
store or the service where most lines are written. So the door opens a
`log_context(game_id=..., guild_id=..., shard_id=...)`, held in a contextvar, and a
filter on the handler copies it onto every record logged inside, down any call
depth and into tasks started there (asyncio copies the context into a new task).
`extra=` on a single call still works and wins over the context.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType
from typing import TextIO

from bot.settings import BotSettings, LogFormat

CONTEXT_FIELDS = ("game_id", "guild_id", "shard_id")

_context: ContextVar[Mapping[str, object]] = ContextVar(
    "formula_darts_log_context", default=MappingProxyType({})
)

_STANDARD = frozenset(
    logging.LogRecord("", 0, "", 0, "", (), None).__dict__.keys() | {"message", "asctime"}
)
"""A record's own attributes; anything else on it came from `extra=` or the context."""


@contextlib.contextmanager
def log_context(
    *, game_id: str | None = None, guild_id: int | None = None, shard_id: int | None = None
) -> Iterator[None]:
    """Every line logged inside carries these fields (None leaves an outer value as is)."""
    given = {"game_id": game_id, "guild_id": guild_id, "shard_id": shard_id}
    merged = {**_context.get(), **{k: v for k, v in given.items() if v is not None}}
    token = _context.set(MappingProxyType(merged))
    try:
        yield
    finally:
        _context.reset(token)


class ContextFilter(logging.Filter):
    """Copies the `log_context` fields onto a record; put it on a handler, so every
    logger's records get them (a logger's own filters skip propagated records)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if key not in record.__dict__:
                setattr(record, key, value)
        return True


def _text(value: object) -> str:
    try:
        return str(value)
    except Exception:
        try:
            return repr(value)
        except Exception:
            return f"<unprintable {type(value).__name__}>"


def _message(record: logging.LogRecord) -> str:
    try:
        return record.getMessage()
    except Exception:  # arguments that do not fit the format, or a __str__ that raises
        return f"{_text(record.msg)} {_text(record.args)}"


def _jsonable(value: object) -> object:
    """The value if JSON takes it as it is (no NaN, no odd keys), else its text."""
    try:
        json.dumps(value, allow_nan=False)
    except Exception:
        return _text(value)
    return value


def _fields(record: logging.LogRecord) -> dict[str, object]:
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and k[:1] != "_"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, every
    extra field, and the exception's traceback as text. Never raises for a value."""

    BASE = ("time", "level", "logger", "message")

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _message(record),
        }
        for key, value in _fields(record).items():
            out[f"extra_{key}" if key in out else key] = _jsonable(value)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=True, allow_nan=False)


class TextFormatter(logging.Formatter):
    """discord.py's line layout, then `game_id=... guild_id=... shard_id=...` when known."""

    def __init__(self) -> None:
        super().__init__(
            "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
        )

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        fields = record.__dict__
        known = [f"{key}={_text(fields[key])}" for key in CONTEXT_FIELDS if key in fields]
        return f"{line} {' '.join(known)}" if known else line

    def format(self, record: logging.LogRecord) -> str:
        safe = logging.makeLogRecord(record.__dict__)  # other handlers keep the original
        safe.msg, safe.args = _message(record), ()
        return super().format(safe)


_HANDLER_NAME = "formula-darts"


def configure_logging(
    settings: BotSettings, level: int = logging.INFO, stream: TextIO | None = None
) -> logging.Handler:
    """One handler on the root logger, in `LOG_FORMAT`, carrying the log context.

    Replaces discord.py's `setup_logging`; calling it again replaces its own handler.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.name = _HANDLER_NAME
    json_lines = settings.log_format is LogFormat.JSON
    handler.setFormatter(JsonFormatter() if json_lines else TextFormatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.name == _HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
