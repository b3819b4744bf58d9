"""Evaluator configuration from the environment (no prefix: `EVALUATOR=local`, `POOL_SIZE=4`).

One settings object serves every backend, so switching between the local
bubblewrap pool and Docker is one variable and the limits keep their names.

A frozen dataclass that reads its own fields from the environment, not a pydantic
model: `formula-darts eval` must start in a few cold `php -r` runs' time, and
importing pydantic and building the model's validator cost a third of that (issue
20). Its fields are flat scalars, so a small table of bounds is all the validation
pydantic did here; a bad value is refused with every problem named at once.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

Backend = Literal["auto", "docker", "local"]
_BACKENDS: tuple[str, ...] = get_args(Backend)
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})


class SettingsError(ValueError):
    """A value the evaluator cannot run with; the message names every bad variable."""


class _Unset:
    """A field not given: read from the environment, else its default."""

    def __repr__(self) -> str:
        return "<unset>"


_UNSET: Any = _Unset()


@dataclass(frozen=True, slots=True)
class _Bounds:
    default: object | Callable[[], object]
    low: float | None = None  # value >= low
    high: float | None = None  # value <= high
    above: float | None = None  # value > above
    description: str = ""

    def problem(self, value: object, kind: type) -> str | None:
        if kind is bool:
            return None if isinstance(value, bool) else "must be true or false"
        if kind is str:
            return None if isinstance(value, str) else "must be text"
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"must be {'an integer' if kind is int else 'a number'}"
        if kind is int and not isinstance(value, int):
            return "must be an integer"
        if not math.isfinite(value):
            return "must be a finite number"
        if self.low is not None and value < self.low:
            return f"must be at least {self.low:g}"
        if self.high is not None and value > self.high:
            return f"must be at most {self.high:g}"
        if self.above is not None and value <= self.above:
            return f"must be more than {self.above:g}"
        return None


def _setting(
    default: object | Callable[[], object],
    *,
    ge: float | None = None,
    le: float | None = None,
    gt: float | None = None,
    description: str = "",
) -> Any:
    bounds = _Bounds(default, ge, le, gt, description)
    return field(default=_UNSET, metadata={"bounds": bounds})


def _cpu_count() -> int:
    return os.cpu_count() or 1


def _parse(text: str, kind: type) -> object:
    """An environment string as the field's type; what does not parse is kept as text,
    for the check to refuse with its reason."""
    if kind is bool:
        word = text.strip().lower()
        return True if word in _TRUE else False if word in _FALSE else text
    if kind in (int, float):
        try:
            return kind(text.strip())
        except ValueError:
            return text
    return text


_KINDS: dict[str, type] = {
    "bool": bool,
    "int": int,
    "float": float,
    "str": str,
    "Backend": str,
}


@dataclass(frozen=True, slots=True)
class EvaluatorSettings:
    """Fields not given are read from the environment, by name in any case, as
    pydantic-settings reads them without a prefix; given ones win. `dataclasses.replace`
    makes a changed copy (checked again)."""

    evaluator: Backend = _setting("auto")
    pool_size: int = _setting(_cpu_count, ge=1, le=256)
    timeout_s: float = _setting(2.0, gt=0, le=60)
    queue_limit: int = _setting(256, ge=0)
    memory_mb: int = _setting(128, ge=64, description="address space of one worker")
    cpu_budget_s: int = _setting(
        60, ge=5, description="CPU seconds a warm worker may use before it is retired"
    )
    max_requests: int = _setting(100_000, ge=1, description="requests before a recycle")
    free_kills: int = _setting(
        3, ge=1, description="worker-ending formulas a player may send before waiting"
    )
    kill_refill_s: float = _setting(
        10.0, gt=0, description="seconds that pay back one worker-ending formula"
    )
    allow_unsandboxed: bool = _setting(False)
    php_path: str = _setting("php")
    bwrap_path: str = _setting("bwrap")
    node_path: str = _setting("node")
    node_address_space_mb: int = _setting(
        1024, ge=768, description="address space of one node worker (V8 reserves much)"
    )
    node_docker_image: str = _setting("formula-darts-node-sandbox:latest")
    docker_image: str = _setting("formula-darts-sandbox:latest")
    docker_memory_mb: int = _setting(128, ge=16)
    docker_pids: int = _setting(16, ge=4)
    docker_cpus: float = _setting(1.0, gt=0)

    def __post_init__(self) -> None:
        environment: dict[str, str] | None = None
        problems = []
        for spec in dataclasses.fields(self):
            bounds: _Bounds = spec.metadata["bounds"]
            kind = _KINDS[str(spec.type)]
            value = getattr(self, spec.name)
            if value is _UNSET:
                if environment is None:
                    environment = {key.lower(): text for key, text in os.environ.items()}
                if spec.name in environment:
                    value = _parse(environment[spec.name], kind)
                else:
                    value = bounds.default() if callable(bounds.default) else bounds.default
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            problem = bounds.problem(value, kind)
            if problem is None and spec.name == "evaluator" and value not in _BACKENDS:
                problem = f"must be one of {', '.join(_BACKENDS)}"
            if problem is not None:
                problems.append(f"{spec.name.upper()} {problem}, got {value!r}")
            object.__setattr__(self, spec.name, value)
        if problems:
            raise SettingsError("evaluator settings: " + "; ".join(problems))

    @property
    def php_memory_limit_mb(self) -> int:
        """PHP's own memory_limit: half the address space, the rest is PHP itself."""
        return max(16, self.memory_mb // 2)
