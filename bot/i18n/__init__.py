"""Every text a user sees, in Ukrainian and English, chosen by the interaction's locale.

The catalog is one YAML file per feature under `catalog/`: `key: {en: ..., uk: ...}`,
with `{named}` placeholders. Keys are prefixed by the file name (`games.yaml` ->
`games.round.title`). A missing Ukrainian text falls back to English, and a
missing key shows the key itself, so a gap is visible but never a crash.
Plural forms follow CLDR (Babel), so another language is its texts and nothing else.
Nothing here loads discord; the command names' Translator is `bot.i18n.translator`.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n._catalog import (
    DEFAULT_LOCALE,
    Catalog,
    catalog,
    locale_of,
    normalize_locale,
    set_description,
    t,
)
from bot.i18n._commands import SyncedCommand, command_text
from bot.i18n._dates import date_text, day_of
from bot.i18n._errors import describe_eval_error
from bot.i18n._languages import FormulaTexts
from bot.i18n._languages import texts as formula_texts
from bot.i18n._numbers import decimal_text, plural_categories, plural_category


def use_synced_commands(synced: Iterable[SyncedCommand]) -> None:
    """Remember the ids Discord gave the commands, so messages can mention them."""
    catalog().command_ids.use(synced)


__all__ = [
    "DEFAULT_LOCALE",
    "Catalog",
    "FormulaTexts",
    "catalog",
    "command_text",
    "date_text",
    "day_of",
    "decimal_text",
    "describe_eval_error",
    "formula_texts",
    "locale_of",
    "normalize_locale",
    "plural_categories",
    "plural_category",
    "set_description",
    "t",
    "use_synced_commands",
]
