"""Evaluator configuration from the environment (no prefix: `EVALUATOR=local`, `POOL_SIZE=4`).

One settings object serves every backend, so switching between the local
bubblewrap pool and Docker is one variable and the limits keep their names.

A plain pydantic model that reads its own fields from the environment, not a
pydantic-settings one: `formula-darts eval` must start in a few cold `php -r`
runs' time, and importing pydantic-settings alone costs more than that (issue
20). Its fields are flat, so the environment is all it ever read.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


def _cpu_count() -> int:
    return os.cpu_count() or 1


class EvaluatorSettings(BaseModel):
    """Fields not given are read from the environment, by name in any case, as
    pydantic-settings does without a prefix; given ones win."""

    model_config = ConfigDict(extra="ignore", frozen=True, validate_default=True)

    @model_validator(mode="before")
    @classmethod
    def _from_environment(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        environment = {key.lower(): value for key, value in os.environ.items()}
        read = {name: environment[name] for name in cls.model_fields if name in environment}
        return read | data

    evaluator: Literal["auto", "docker", "local"] = "auto"
    pool_size: int = Field(default_factory=_cpu_count, ge=1, le=256)
    timeout_s: float = Field(default=2.0, gt=0, le=60)
    queue_limit: int = Field(default=256, ge=0)
    memory_mb: int = Field(default=128, ge=64, description="address space of one worker")
    cpu_budget_s: int = Field(
        default=60, ge=5, description="CPU seconds a warm worker may use before it is retired"
    )
    max_requests: int = Field(default=100_000, ge=1, description="requests before a recycle")
    free_kills: int = Field(
        default=3, ge=1, description="worker-ending formulas a player may send before waiting"
    )
    kill_refill_s: float = Field(
        default=10.0, gt=0, description="seconds that pay back one worker-ending formula"
    )
    allow_unsandboxed: bool = False
    php_path: str = "php"
    bwrap_path: str = "bwrap"
    node_path: str = "node"
    node_address_space_mb: int = Field(
        default=1024, ge=768, description="address space of one node worker (V8 reserves much)"
    )
    node_docker_image: str = "formula-darts-node-sandbox:latest"
    docker_image: str = "formula-darts-sandbox:latest"
    docker_memory_mb: int = Field(default=128, ge=16)
    docker_pids: int = Field(default=16, ge=4)
    docker_cpus: float = Field(default=1.0, gt=0)

    @property
    def php_memory_limit_mb(self) -> int:
        """PHP's own memory_limit: half the address space, the rest is PHP itself."""
        return max(16, self.memory_mb // 2)
