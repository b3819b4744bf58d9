"""Every Ukrainian (or English) text a player can read: catalog forms and /rules."""

from __future__ import annotations

from bot.i18n import catalog
from tests.support.paths import ROOT

RULES_DIR = ROOT / "bot" / "rules_text"


def texts(language: str) -> list[tuple[str, str]]:
    """(where, text): each catalog form in `language`, then its /rules Markdown."""
    book = catalog()
    found = [
        (key, text)
        for key, by_language in sorted(book.messages.items())
        if language in by_language
        for text in book.forms(key, language)
    ]
    found.append((f"rules_text/{language}.md", (RULES_DIR / f"{language}.md").read_text("utf-8")))
    return found
