"""Formula Darts game rules: Sets, scoring, Digits and game state machines.

Pure: no I/O beyond reading a Sets file, and nothing of discord, sqlmodel,
docker or the other packages, so the rules can be tested and replayed alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# Imported at once: `rules.seal` names the function, and a lazy name would lose to the
# submodule of the same name, which the import system binds here when it loads it.
from rules.seal import Seal, SealReason, seal

if TYPE_CHECKING:
    from rules.digits import (
        auto_move,
        period_end,
        period_of,
        qualification_seed,
        random_digits,
        seeded_digits,
        utc_day,
        valid_digits,
    )
    from rules.errors import (
        AlreadyAnswered,
        BadPlayers,
        DeadlinePassed,
        GameOver,
        NoOpenRound,
        NotAPlayer,
        RoundOver,
        RoundStillOpen,
        RulesError,
    )
    from rules.game import (
        Action,
        Expire,
        ReplayRound,
        Resign,
        RoundShown,
        StartRound,
        Submit,
        Void,
        answer_time,
        apply,
        is_loss,
        new_game,
        nobody_played,
        ranking_key,
        submit_problem,
    )
    from rules.game_set import FormulaLanguage
    from rules.scoring import Number, apply_points, is_zero, php_text, round_points
    from rules.sets import (
        ALLOWED_FUNCTIONS,
        CLASSIC,
        DEFAULT_FUNCTIONS,
        GameSet,
        SetProblem,
        SetsError,
        compute_min_rounds,
        dump_sets,
        load_sets,
        parse_sets,
        validate_set,
    )
    from rules.state import Answer, GameState, Mode, Outcome, Round, Termination
    from rules.streaks import Streak, streak

_HOMES: dict[str, str] = {
    "auto_move": "rules.digits",
    "period_end": "rules.digits",
    "period_of": "rules.digits",
    "qualification_seed": "rules.digits",
    "random_digits": "rules.digits",
    "seeded_digits": "rules.digits",
    "utc_day": "rules.digits",
    "valid_digits": "rules.digits",
    "AlreadyAnswered": "rules.errors",
    "BadPlayers": "rules.errors",
    "DeadlinePassed": "rules.errors",
    "GameOver": "rules.errors",
    "NoOpenRound": "rules.errors",
    "NotAPlayer": "rules.errors",
    "RoundOver": "rules.errors",
    "RoundStillOpen": "rules.errors",
    "RulesError": "rules.errors",
    "Action": "rules.game",
    "Expire": "rules.game",
    "ReplayRound": "rules.game",
    "Resign": "rules.game",
    "RoundShown": "rules.game",
    "StartRound": "rules.game",
    "Submit": "rules.game",
    "Void": "rules.game",
    "answer_time": "rules.game",
    "apply": "rules.game",
    "is_loss": "rules.game",
    "new_game": "rules.game",
    "nobody_played": "rules.game",
    "ranking_key": "rules.game",
    "submit_problem": "rules.game",
    "FormulaLanguage": "rules.game_set",
    "Number": "rules.scoring",
    "apply_points": "rules.scoring",
    "is_zero": "rules.scoring",
    "php_text": "rules.scoring",
    "round_points": "rules.scoring",
    "ALLOWED_FUNCTIONS": "rules.sets",
    "CLASSIC": "rules.sets",
    "DEFAULT_FUNCTIONS": "rules.sets",
    "GameSet": "rules.sets",
    "SetProblem": "rules.sets",
    "SetsError": "rules.sets",
    "compute_min_rounds": "rules.sets",
    "dump_sets": "rules.sets",
    "load_sets": "rules.sets",
    "parse_sets": "rules.sets",
    "validate_set": "rules.sets",
    "Answer": "rules.state",
    "GameState": "rules.state",
    "Mode": "rules.state",
    "Outcome": "rules.state",
    "Round": "rules.state",
    "Termination": "rules.state",
    "Streak": "rules.streaks",
    "streak": "rules.streaks",
}
"""Where each name lives. Its module is imported when the name is first asked for (PEP
562): a command that needs one part (`formula-darts eval`, `solve`) does not load the rest."""

__all__ = [
    "ALLOWED_FUNCTIONS",
    "CLASSIC",
    "DEFAULT_FUNCTIONS",
    "Action",
    "AlreadyAnswered",
    "Answer",
    "BadPlayers",
    "DeadlinePassed",
    "Expire",
    "FormulaLanguage",
    "GameOver",
    "GameSet",
    "GameState",
    "Mode",
    "NoOpenRound",
    "NotAPlayer",
    "Number",
    "Outcome",
    "ReplayRound",
    "Resign",
    "Round",
    "RoundOver",
    "RoundShown",
    "RoundStillOpen",
    "RulesError",
    "Seal",
    "SealReason",
    "SetProblem",
    "SetsError",
    "StartRound",
    "Streak",
    "Submit",
    "Termination",
    "Void",
    "answer_time",
    "apply",
    "apply_points",
    "auto_move",
    "compute_min_rounds",
    "dump_sets",
    "is_loss",
    "is_zero",
    "load_sets",
    "new_game",
    "nobody_played",
    "parse_sets",
    "period_end",
    "period_of",
    "php_text",
    "qualification_seed",
    "random_digits",
    "ranking_key",
    "round_points",
    "seal",
    "seeded_digits",
    "streak",
    "submit_problem",
    "utc_day",
    "valid_digits",
    "validate_set",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
