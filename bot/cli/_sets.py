"""Placeholder: the owner of this subcommand replaces it."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:  # argparse._SubParsersAction
    del sub
    _ = argparse
