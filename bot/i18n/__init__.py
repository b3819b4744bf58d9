"""Every text a user sees, in Ukrainian and English, chosen by the interaction's locale.

The catalog is one YAML file per feature under `catalog/`: `key: {en: ..., uk: ...}`,
with `{named}` placeholders. Keys are prefixed by the file name (`games.yaml` ->
`games.round.title`). A missing Ukrainian text falls back to English, and a
missing key shows the key itself, so a gap is visible but never a crash.
"""

from __future__ import annotations

from bot.i18n._catalog import (
    DEFAULT_LOCALE,
    LOCALES,
    Catalog,
    catalog,
    locale_of,
    normalize_locale,
    plural_category,
    set_description,
    t,
)
from bot.i18n._errors import describe_eval_error
from bot.i18n._translator import CatalogTranslator, cmd

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "Catalog",
    "CatalogTranslator",
    "catalog",
    "cmd",
    "describe_eval_error",
    "locale_of",
    "normalize_locale",
    "plural_category",
    "set_description",
    "t",
]
