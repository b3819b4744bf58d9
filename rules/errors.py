"""Typed errors for moves the rules refuse; all are ValueErrors a caller can show."""

from __future__ import annotations


class RulesError(ValueError):
    """A move the game does not accept. `code` is stable for translations."""

    code = "rules"


class NotAPlayer(RulesError):
    code = "not_a_player"


class GameOver(RulesError):
    code = "game_over"


class NoOpenRound(RulesError):
    code = "no_open_round"


class RoundStillOpen(RulesError):
    code = "round_open"


class RoundOver(RulesError):
    """An answer meant for an earlier round: that round has ended (answered or not)."""

    code = "round_over"


class DeadlinePassed(RulesError):
    code = "deadline_passed"


class AlreadyAnswered(RulesError):
    code = "already_answered"


class BadPlayers(RulesError):
    code = "bad_players"
