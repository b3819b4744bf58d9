"""Loading the YAML catalog and formatting one message.

A text is a string, or plural forms: a mapping of CLDR categories (`one`, `few`,
`many`, `other`) with `plural:` naming the parameter whose number picks the form
(`count` when left out). English needs one/other; Ukrainian one/few/many
(1 раунд, 2–4 раунди, 5–20 раундів, 21 раунд; 11–14 take many).
"""

from __future__ import annotations

import logging
import string
from functools import cache
from pathlib import Path
from typing import Any

import yaml

log = logging.getLogger(__name__)

LOCALES = ("en", "uk")
DEFAULT_LOCALE = "en"
CATALOG_DIR = Path(__file__).resolve().parent / "catalog"


class _Lenient(dict[str, Any]):
    """Leaves an unknown `{placeholder}` visible instead of raising KeyError."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


Text = str | dict[str, str]
"""One language's message: a string, or plural forms (see the module's docstring)."""

PLURAL_KEY = "plural"
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
REQUIRED_FORMS = {"en": ("one", "other"), "uk": ("one", "few", "many")}


def plural_category(locale: str, count: object) -> str:
    """The CLDR plural category of `count` in `locale` ("other" for a non-number)."""
    try:
        number = float(str(count).replace(",", "."))
    except ValueError:
        return "other"
    if not number.is_integer():
        return "other"
    n = abs(int(number))
    if locale == "uk":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def _text(value: object) -> Text:
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    return str(value)


class Catalog:
    """Messages by key and locale."""

    def __init__(self, messages: dict[str, dict[str, Text]]) -> None:
        self.messages = messages

    @classmethod
    def load(cls, directory: Path = CATALOG_DIR) -> Catalog:
        messages: dict[str, dict[str, Text]] = {}
        for file in sorted(directory.glob("*.yaml")):
            data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
            for key, texts in data.items():
                messages[f"{file.stem}.{key}"] = {
                    str(lang): _text(text) for lang, text in (texts or {}).items()
                }
        return cls(messages)

    def get(self, key: str, locale: str) -> Text | None:
        texts = self.messages.get(key)
        if texts is None:
            return None
        return texts.get(locale) or texts.get(DEFAULT_LOCALE)

    def format(self, key: str, locale: str, **params: Any) -> str:
        language = normalize_locale(locale)
        text = self.get(key, language)
        if text is None:
            log.warning("missing catalog key %s", key)
            return key
        if isinstance(text, dict):
            if language not in self.messages[key]:
                language = DEFAULT_LOCALE
            text = self._form(text, language, params)
        return string.Formatter().vformat(text, (), _Lenient(params))

    @staticmethod
    def _form(forms: dict[str, str], language: str, params: dict[str, Any]) -> str:
        """The plural form for the number in the parameter the forms name."""
        category = plural_category(language, params.get(forms.get(PLURAL_KEY, "count"), ""))
        for name in (category, "other", "many", "one"):
            if name in forms:
                return forms[name]
        return next(v for k, v in forms.items() if k != PLURAL_KEY)

    def forms(self, key: str, locale: str) -> list[str]:
        """Every text of `key` in `locale`: one string, or each plural form."""
        text = self.messages.get(key, {}).get(locale, "")
        if isinstance(text, dict):
            return [v for k, v in text.items() if k != PLURAL_KEY]
        return [text]

    def placeholders(self, key: str, locale: str) -> set[str]:
        return {
            name
            for text in self.forms(key, locale)
            for _, name, _, _ in string.Formatter().parse(text)
            if name
        }


@cache
def catalog() -> Catalog:
    return Catalog.load()


def normalize_locale(locale: object) -> str:
    """Discord locales ('uk', 'en-US', discord.Locale) to a catalog language."""
    value = str(getattr(locale, "value", locale) or "").lower()
    language = value.split("-", 1)[0]
    return language if language in LOCALES else DEFAULT_LOCALE


def locale_of(interaction: Any) -> str:
    """The language of the user's Discord client, which every interaction carries."""
    return normalize_locale(getattr(interaction, "locale", None))


def t(key: str, locale: str, **params: Any) -> str:
    """The message `key` in `locale` (English fallback) with `params` filled in."""
    return catalog().format(key, locale, **params)


def set_description(name: str, description: str, locale: str, *, is_global: bool) -> str:
    """A global Set's description in the reader's language (catalog `sets.description.<name>`);
    a server's own Set keeps the words its admins wrote."""
    key = f"sets.description.{name}"
    if is_global and key in catalog().messages:
        return t(key, locale)
    return description
