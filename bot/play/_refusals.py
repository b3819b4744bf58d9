"""Why a game refused a player: the one list of `GameError` codes.

Each value is a catalog key under `errors.` (bot/i18n/catalog/errors.yaml, in every
language), so a refusal is raised by name and mypy refuses a misspelt one; the rules'
own refusals keep the rules' codes (`rules.RulesError.code`, mapped by `GameError.of`).
tests/bot/games/test_games_refusals.py checks both against the catalog.
"""

from __future__ import annotations

from enum import StrEnum

from bot.common import UserError
from rules import Mode


class Refusal(StrEnum):
    # the rules' own (rules/errors.py)
    RULES = "rules"
    NOT_A_PLAYER = "not_a_player"
    GAME_OVER = "game_over"
    NO_OPEN_ROUND = "no_open_round"
    ROUND_OPEN = "round_open"
    ROUND_OVER = "round_over"
    DEADLINE_PASSED = "deadline_passed"
    ALREADY_ANSWERED = "already_answered"
    BAD_PLAYERS = "bad_players"
    # starting a game
    BUSY = "busy"
    OPPONENT_BUSY = "opponent_busy"
    COOLDOWN = "cooldown"
    BARRED = "barred"
    OPPONENT_BARRED = "opponent_barred"
    QUALIFICATION_USED = "qualification_used"
    NOT_ON_SERVER = "not_on_server"
    # duels and rematches
    DUEL_SELF = "duel_self"
    DUEL_BOT = "duel_bot"
    CHALLENGE_CLOSED = "challenge_closed"
    CHALLENGE_NOT_YOURS = "challenge_not_yours"
    CHALLENGE_NOT_YOURS_TO_CANCEL = "challenge_not_yours_to_cancel"
    CHALLENGE_PENDING = "challenge_pending"
    REMATCH_NOT_A_PLAYER = "rematch_not_a_player"
    REMATCH_SENT = "rematch_sent"
    STILL_PLAYING = "still_playing"
    # playing and sharing
    NO_GAME = "no_game"
    ANSWER_IN_FLIGHT = "answer_in_flight"
    SHARE_DONE = "share_done"
    SHARE_NOT_A_PLAYER = "share_not_a_player"
    SHARE_NOT_OVER = "share_not_over"
    # what Discord refused (bot/games/_places.py)
    MISSING_PERMISSIONS = "missing_permissions"
    MISSING_PERMISSIONS_IN = "missing_permissions_in"
    THREAD_LIMIT = "thread_limit"
    # an admin's moderation (bot/moderation)
    NO_SUCH_GAME = "no_such_game"
    CANNOT_VOID = "cannot_void"
    CANNOT_UNVOID = "cannot_unvoid"
    ALREADY_BARRED = "already_barred"
    NOT_BARRED = "not_barred"


class PlayingElsewhere(UserError):
    """A start from another channel while the player's private game runs: only its own
    channel can show its round again (a followup lands in the interaction's channel), so
    the refusal names that channel and the command that shows it there, the running
    game's own (`/qualification` for a Qualification, not `/training`)."""

    prefix = "limits_seen."
    places = ("channel",)  # a plain id here: the face writes it as its place (`<#…>`)

    def __init__(self, mode: Mode, channel_id: int) -> None:
        super().__init__(f"elsewhere_{mode.value}", channel=channel_id)
