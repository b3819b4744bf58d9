"""The evaluator's commands, `eval` and `sandbox`, for the `formula-darts` entry point.

Each package owns its commands (`solver.cli` has `solve`; the bot's `bot.cli` composes
them all): `register_eval` and `register_sandbox` add one subcommand each, and
`dash_formula` prepares `eval`'s words (a formula may start with `-`). Nothing here
imports the bot.
"""

from __future__ import annotations

from evaluator.cli._eval import dash_formula
from evaluator.cli._eval import register as register_eval
from evaluator.cli._sandbox import register as register_sandbox

__all__ = ["dash_formula", "register_eval", "register_sandbox"]
