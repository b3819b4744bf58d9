"""The page's language and the rules' text as HTML.

The language is the reader's choice of the switch (`?lang=`), else the first of their
browser's `Accept-Language` the bot speaks, else English. The rules are the same
Markdown `/rules` shows, escaped first and then given its few marks (bold, code, code
blocks), so nothing in it can become markup it did not mean.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from bot.i18n import catalog
from bot.rules_text import rules_pages
from rules import FormulaLanguage

LANGUAGES = ("en", "uk")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def language(query: str | None, accept: str | None) -> str:
    if query in LANGUAGES:
        return query
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and weight > 0:
            ranked.append((-weight, index, code))
    return min(ranked)[2] if ranked else "en"


def _inline(text: str) -> str:
    """Code spans first, kept whole: a `**` inside code is JavaScript's power, not bold."""
    out = []
    for i, piece in enumerate(_CODE.split(text)):
        html = str(escape(piece))
        out.append(f"<code>{html}</code>" if i % 2 else _BOLD.sub(r"<strong>\1</strong>", html))
    return "".join(out)


def markdown(text: str) -> Markup:
    """A page of the rules: paragraphs of lines, ``` blocks as <pre>."""
    out: list[str] = []
    for i, chunk in enumerate(text.split("```")):
        if i % 2:
            out.append(f"<pre><code>{escape(chunk.strip(chr(10)))}</code></pre>")
            continue
        for para in (p for p in chunk.split("\n\n") if p.strip()):
            lines = [_inline(line) for line in para.strip().splitlines()]
            out.append("<p>" + "<br>\n".join(lines) + "</p>")
    return Markup("\n".join(out))  # noqa: S704 - every piece was escaped above


def rules_html(lang: str) -> list[tuple[str, Markup]]:
    """(title, body) sections; a command reads as its name in that language. After the
    rules (PHP's), every other language's own formula page and its surprises (its
    pages titled as the base's are the base's, said of that language)."""
    book = catalog()
    # the original rules (PHP's); a mention is no link on the web
    base = rules_pages(lang, FormulaLanguage.PHP, mentions=False)
    sections = list(base)
    titles = {title for title, _ in base}
    for formula in FormulaLanguage:
        pages = rules_pages(lang, formula, mentions=False)
        sections += [page for page in pages if page[0] not in titles]
    return [
        (title, markdown(book.commands_in(body, lang, mentions=False))) for title, body in sections
    ]
