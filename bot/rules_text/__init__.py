"""The rules of RULES.md as players read them in `/rules`, in English and Ukrainian.

Kept as Markdown next to this module (`en.md`, `uk.md`); each `## ` heading is
one page (one embed), so the text stays within Discord's embed limits. A
command is written `{/resign}` and shown as the reader's client names it.

The base text is PHP's (the original rules' language). Another language's pages are
`<locale>.<language>.md` (`en.javascript.md`): for a Set in that language a page
titled as one of the base's takes its place (the game's first page names the
language), and the others take the place of the base's formula page (FORMULA_PAGE).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bot.i18n import DEFAULT_LOCALE, catalog, formula_texts, normalize_locale
from rules import FormulaLanguage

_DIR = Path(__file__).resolve().parent
EMBED_LIMIT = 4096
FORMULA_PAGE = 2
"""The base text's page "The formula" (PHP's), which a language's own page replaces."""


def _file(name: str) -> Path | None:
    file = _DIR / f"{name}.md"
    return file if file.exists() else None


@cache
def _pages(language: str, formula: str = "") -> tuple[tuple[str, str], ...]:
    file = _file(language) or _DIR / f"{DEFAULT_LOCALE}.md"
    pages = _read(file)
    own = _file(f"{language}.{formula}") or _file(f"{DEFAULT_LOCALE}.{formula}")
    if formula and own is not None:
        titles = [title for title, _ in pages]
        replacing = [(t, b) for t, b in _read(own) if t in titles]
        for title, body in replacing:
            pages[titles.index(title)] = (title, body)
        pages[FORMULA_PAGE : FORMULA_PAGE + 1] = [p for p in _read(own) if p not in replacing]
    return tuple(pages)


def _read(file: Path) -> list[tuple[str, str]]:
    pages: list[tuple[str, str]] = []
    for block in ("\n" + file.read_text(encoding="utf-8")).split("\n## ")[1:]:
        title, _, body = block.partition("\n")
        pages.append((title.strip(), body.strip()))
    return pages


def rules_pages(
    locale: str, lang: FormulaLanguage, *, mentions: bool = True
) -> list[tuple[str, str]]:
    """(title, text) pages of the rules in the player's language, for a Set in `lang`
    (its own formula page and surprises when it has one); `mentions` False: commands
    named as typed, never as Discord mentions (the web)."""
    language = normalize_locale(locale)
    book = catalog()
    pages = _pages(language, formula_texts(lang).rules)
    return [
        (title, book.commands_in(text, language, mentions=mentions)[:EMBED_LIMIT])
        for title, text in pages
    ]
