"""`Catalog.fill` parses each text once (`_Template`): it must say exactly what
`string.Formatter` said for every text, and follow a sync of the commands' ids."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import Catalog
from bot.i18n._catalog import _Formatter, _Lenient

VALUES: list[Any] = [65536, 3.5, -0.0, "x{y}}", None]
ODD = [
    "{a!r:>8}|{a!s}|{a!a}", "{a[0]}", "{a.real}", "{{a}} {a}", "{a:,}", "{a:{w}}", "{0}",
    "{}", "{/resign} {a}", "{/sets import:plain}", "{a:>6.2f}", "{missing:>4}",
]  # fmt: skip


def formatted_before(book: Catalog, text: str, language: str, params: dict[str, Any]) -> str:
    """What `fill` did before it kept templates: commands named, then `Formatter.vformat`."""
    escaped = book.commands_in(text, language, escape=True)
    return _Formatter(language).vformat(escaped, (), _Lenient(params))


def outcome(fill: Any, *args: Any) -> str:
    try:
        return str(fill(*args))
    except Exception as error:  # the same error, raised the same way, counts as the same
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_every_catalog_text_fills_as_string_formatter_did(value: Any) -> None:
    book = Catalog.load()
    book.command_ids.use([SimpleNamespace(name="sets", id=7)])
    checked = 0
    for key in book.messages:
        for language in sorted(book.languages):
            for text in book.forms(key, language):
                names = book.placeholders(key, language)
                for params in (dict.fromkeys(names, value), {}):
                    got = outcome(book.fill, text, language, params)
                    assert got == outcome(formatted_before, book, text, language, params), (
                        key,
                        language,
                    )
                    checked += 1
    assert checked > 1000


@pytest.mark.parametrize("text", ODD)
@pytest.mark.parametrize("value", [*VALUES, [1, 2]], ids=repr)
def test_odd_fields_fill_as_string_formatter_did(text: str, value: Any) -> None:
    book = Catalog.load()
    for language in ("en", "uk"):
        for params in ({"a": value, "w": 7}, {}):
            expected = outcome(formatted_before, book, text, language, params)
            assert outcome(book.fill, text, language, params) == expected
            assert outcome(book.fill, text, language, params) == expected  # kept, the same


def test_a_kept_text_names_commands_as_the_last_sync_said() -> None:
    book = Catalog.load()
    assert book.fill("{/resign} now", "en", {}) == "/resign now"
    book.command_ids.use([SimpleNamespace(name="resign", id=8)])
    assert book.fill("{/resign} now", "en", {}) == "</resign:8> now"
    book.command_ids.use([SimpleNamespace(name="resign", id=9)])
    assert book.fill("{/resign} now", "en", {}) == "</resign:9> now"


def test_the_kept_texts_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.i18n._catalog.TEMPLATES_KEPT", 10)
    book = Catalog.load()
    for n in range(25):
        assert book.fill(f"{n} {{a}}", "en", {"a": n}) == f"{n} {n}"
    assert len(book._templates) <= 10


def test_a_kept_key_names_commands_as_the_last_sync_said() -> None:
    """`format` keeps a key's text by the locale asked for (`_keyed`): a sync still shows."""
    book = Catalog({"x.now": {"en": "{/resign} now {n}", "uk": "{/resign} зараз {n}"}})
    assert book.format("x.now", "en", n=1) == "/resign now 1"
    assert book.format("x.now", "uk", n=2) == "/resign зараз 2"
    book.command_ids.use([SimpleNamespace(name="resign", id=8)])
    assert book.format("x.now", "en", n=3) == "</resign:8> now 3"
    assert book.format("x.now", "uk", n=4) == "</resign:8> зараз 4"


def test_a_kept_key_reads_as_the_locale_asked_for() -> None:
    """A locale with no text of its own falls back to English, each locale as it did."""
    book = Catalog({"x.size": {"en": "{n:,} rows"}, "x.more": {"en": "a", "uk": "б"}})
    for _ in range(2):  # made, then kept
        assert book.format("x.size", "en", n=65536) == "65,536 rows"
        assert book.format("x.size", "uk", n=65536) == "65\u00a0536 rows"  # the reader's digits
        assert book.format("x.more", "uk-UA") == "б"
        assert book.format("x.more", "fr") == "a"
        assert book.format("x.missing", "en") == "x.missing"


def test_the_kept_keys_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.i18n._catalog.TEMPLATES_KEPT", 10)
    book = Catalog({f"x.k{n}": {"en": f"{n} {{a}}"} for n in range(25)})
    for n in range(25):
        assert book.format(f"x.k{n}", "en", a=n) == f"{n} {n}"
    assert len(book._keyed) <= 10
