"""Every Ukrainian (or English) text a player can read: catalog forms, /rules (with each
formula language's own page) and the words the web's templates write themselves."""

from __future__ import annotations

import re

from bot.i18n import catalog
from tests.support.paths import ROOT

RULES_DIR = ROOT / "bot" / "rules_text"
TEMPLATES_DIR = ROOT / "bot" / "web" / "templates"
_MARKUP = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|<[^>]*>|&[a-z]+;", re.DOTALL)


def texts(language: str) -> list[tuple[str, str]]:
    """(where, text): each catalog form in `language`, then its /rules Markdown."""
    book = catalog()
    found = [
        (key, text)
        for key, by_language in sorted(book.messages.items())
        if language in by_language
        for text in book.forms(key, language)
    ]
    for file in sorted(RULES_DIR.glob(f"{language}.*md")):
        found.append((f"rules_text/{file.name}", file.read_text("utf-8")))
    return found


def template_texts() -> list[tuple[str, str]]:
    """(where, text): what each web template writes outside its tags and placeholders,
    which every language's page shows as it is."""
    return [
        (f"templates/{file.name}", _MARKUP.sub(" ", file.read_text("utf-8")))
        for file in sorted(TEMPLATES_DIR.glob("*.html"))
    ]
