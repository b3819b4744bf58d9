"""The rules of RULES.md as players read them in `/rules`, in English and Ukrainian.

Kept as Markdown next to this module (`en.md`, `uk.md`); each `## ` heading is
one page (one embed), so the text stays within Discord's embed limits. A
command is written `{/resign}` and shown as the reader's client names it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bot.i18n import DEFAULT_LOCALE, catalog, normalize_locale

_DIR = Path(__file__).resolve().parent
EMBED_LIMIT = 4096


@cache
def _pages(language: str) -> tuple[tuple[str, str], ...]:
    file = _DIR / f"{language}.md"
    if not file.exists():
        file = _DIR / f"{DEFAULT_LOCALE}.md"
    pages: list[tuple[str, str]] = []
    for block in file.read_text(encoding="utf-8").split("\n## ")[1:]:
        title, _, body = block.partition("\n")
        pages.append((title.strip(), body.strip()))
    return tuple(pages)


def rules_pages(locale: str) -> list[tuple[str, str]]:
    """(title, text) pages of the rules in the player's language."""
    language = normalize_locale(locale)
    book = catalog()
    return [
        (title, book.commands_in(text, language)[:EMBED_LIMIT]) for title, text in _pages(language)
    ]
