"""Loading the YAML catalog and formatting one message."""

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


class Catalog:
    """Messages by key and locale."""

    def __init__(self, messages: dict[str, dict[str, str]]) -> None:
        self.messages = messages

    @classmethod
    def load(cls, directory: Path = CATALOG_DIR) -> Catalog:
        messages: dict[str, dict[str, str]] = {}
        for file in sorted(directory.glob("*.yaml")):
            data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
            for key, texts in data.items():
                messages[f"{file.stem}.{key}"] = {
                    str(lang): str(text) for lang, text in (texts or {}).items()
                }
        return cls(messages)

    def get(self, key: str, locale: str) -> str | None:
        texts = self.messages.get(key)
        if texts is None:
            return None
        return texts.get(locale) or texts.get(DEFAULT_LOCALE)

    def format(self, key: str, locale: str, **params: Any) -> str:
        text = self.get(key, normalize_locale(locale))
        if text is None:
            log.warning("missing catalog key %s", key)
            return key
        return string.Formatter().vformat(text, (), _Lenient(params))

    def placeholders(self, key: str, locale: str) -> set[str]:
        text = self.messages.get(key, {}).get(locale, "")
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}


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
