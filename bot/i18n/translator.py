"""Localized command names and descriptions through discord.py's Translator."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n._catalog import DEFAULT_LOCALE, catalog, normalize_locale


def cmd(key: str, english: str) -> app_commands.locale_str:
    """A command string whose translations live under `commands.<key>` in the catalog."""
    return app_commands.locale_str(english, key=key)


class CatalogTranslator(app_commands.Translator):
    """Serves `commands.*` catalog entries for every non-English Discord locale we have.

    A description may name another command (`{/sets export:plain}`): Discord shows
    descriptions as plain text, so it gets the name the reader's client shows.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = normalize_locale(locale)
        key = string.extras.get("key")
        if language == DEFAULT_LOCALE or not key:
            return None
        book = catalog()
        text = book.messages.get(f"commands.{key}", {}).get(language)
        return book.commands_in(text, language) if isinstance(text, str) else None
