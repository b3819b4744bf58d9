"""Every refusal the rules can give a room's player reads in English and Ukrainian under
`rooms.error.<code>` (the games' refusals are tests/bot/games/test_games_refusals.py)."""

from __future__ import annotations

import pytest

import rules
from bot.i18n import catalog, t
from bot.play.rooms import RoomError


def _all_rules_errors() -> list[type[rules.RulesError]]:
    """Every refusal of a game or a room. A Cup's own (`rules.cup`: a match, not a round)
    never reaches a room's player; whether they are found here depended on whether another
    test had imported `rules.cup` first."""
    found, pending = [], [rules.RulesError]
    while pending:
        error = pending.pop()
        if error.__module__ != "rules.cup":
            found.append(error)
        pending += error.__subclasses__()
    return found


@pytest.mark.parametrize("error", _all_rules_errors(), ids=lambda e: e.__name__)
def test_every_rules_refusal_reads_in_both_languages(error: type[rules.RulesError]) -> None:
    refused = RoomError.of(error())
    assert set(catalog().messages.get(refused.key, {})) == {"en", "uk"}
    assert t(refused.key, "uk") != t(refused.key, "en")
