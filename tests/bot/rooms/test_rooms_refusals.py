"""Every refusal the rules can give a room's player reads in English and Ukrainian under
`rooms.error.<code>` (the games' refusals are tests/bot/games/test_games_refusals.py)."""

from __future__ import annotations

import pytest

import rules
from bot.i18n import catalog, t
from bot.play.rooms import RoomError


def _all_rules_errors() -> list[type[rules.RulesError]]:
    found, pending = [], [rules.RulesError]
    while pending:
        error = pending.pop()
        found.append(error)
        pending += error.__subclasses__()
    return found


@pytest.mark.parametrize("error", _all_rules_errors(), ids=lambda e: e.__name__)
def test_every_rules_refusal_reads_in_both_languages(error: type[rules.RulesError]) -> None:
    refused = RoomError.of(error())
    assert set(catalog().messages.get(refused.key, {})) == {"en", "uk"}
    assert t(refused.key, "uk") != t(refused.key, "en")
