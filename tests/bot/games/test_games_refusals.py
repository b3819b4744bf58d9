"""`GameError` codes are `Refusal`s: named, each a catalog key, the rules' own among them."""

from __future__ import annotations

import pytest

import rules
from bot.common.interactions import refusal_text
from bot.i18n import catalog, t
from bot.play import GameError, PlayingElsewhere, Refusal
from rules import Mode
from rules.room import RoomRefusal


def _rules_errors() -> list[type[rules.RulesError]]:
    """Every rules error a game can raise (a room's own are tests/bot/rooms'; a Cup's own,
    `rules.cup`, are its matches', never a game's)."""
    found, pending = [], [rules.RulesError]
    while pending:
        error = pending.pop()
        if error.__module__ != "rules.cup":
            found.append(error)
        pending += [e for e in error.__subclasses__() if not issubclass(e, RoomRefusal)]
    return found


@pytest.mark.parametrize("error", _rules_errors(), ids=lambda e: e.__name__)
def test_every_refusal_of_the_rules_is_a_game_refusal(error: type[rules.RulesError]) -> None:
    """A rules error whose code has no `Refusal` would fail here, not in front of a player."""
    refused = GameError.of(error())
    assert refused.code is Refusal(error.code)
    assert refused.key == f"errors.{error.code}"


@pytest.mark.parametrize("code", list(Refusal), ids=lambda c: c.name)
def test_every_refusal_reads_in_english_and_ukrainian(code: Refusal) -> None:
    assert set(catalog().messages.get(f"errors.{code.value}", {})) == {"en", "uk"}


def test_a_refusal_reads_as_its_catalog_text_did_when_codes_were_strings() -> None:
    error = GameError(Refusal.OPPONENT_BUSY, user=42)
    assert error.code == "opponent_busy"
    assert refusal_text(error, "uk") == t("errors.opponent_busy", "uk", user="<@42>")
    assert "<@42>" in refusal_text(error, "en")


def test_the_flow_refuses_with_plain_values_and_discord_writes_its_own_markup() -> None:
    """Mentions, timestamps and channel links are the Discord face's (issue 30): the flow
    raises ids and moments, `refusal_text` writes them as Discord shows them."""
    error = GameError(Refusal.CHALLENGE_PENDING, opponent=42, expires=1_800_000_000.0)
    assert error.display_params("en") == {"opponent": 42, "expires": 1_800_000_000.0}
    said = refusal_text(error, "en")
    assert "<@42>" in said and "<t:1800000000:R>" in said
    elsewhere = PlayingElsewhere(Mode.QUALIFICATION, 7)
    assert elsewhere.display_params("uk") == {"channel": 7}
    assert "<#7>" in refusal_text(elsewhere, "uk")
