"""Loading the YAML catalog and formatting one message.

A text is a string, or plural forms: a mapping of CLDR plural categories to
texts, with `plural:` naming the parameter whose number picks the form (`count`
when left out); `_plurals` says which category a number takes. `{/name}` names
a command by its default qualified name (`{/resign}`, `{/sets import}`) and is
filled with the command as the reader's client shows it (`_commands`);
`{/name:plain}` is always plain text, for footers and titles, where Discord
renders no mention. `{name:,}` groups a whole number's digits the reader's way
(65,536; 65 536): for counts and limits, never for what PHP computed. A `date`
value reads as the reader's language writes dates (`_dates`).
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Callable
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from bot.i18n._commands import CommandIds, command_text
from bot.i18n._dates import date_text
from bot.i18n._numbers import OTHER, grouped_text, plural_category

log = logging.getLogger(__name__)

DEFAULT_LOCALE = "en"
CATALOG_DIR = Path(__file__).resolve().parent / "catalog"
COMMANDS_PREFIX = "commands"
"""Catalog files whose stem starts so hold command names (`commands.yaml`, `commands.x.yaml`)."""

PLURAL_KEY = "plural"
GROUPED = ","
"""The format spec of a number shown with its digits grouped (`{size:,}`)."""
COMMAND = re.compile(r"\{/([^{}:]+)(?::(plain))?\}")


TEMPLATES_KEPT = 4096
"""Parsed texts kept (`_Template`): the catalog's texts in its languages fit many times."""


class _Lenient(dict[str, Any]):
    """Leaves an unknown `{placeholder}` visible instead of raising KeyError."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class _Formatter(string.Formatter):
    """`{name:,}` as the reader groups digits; any other field as Python formats it."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> Any:
        return _field(value, format_spec, self.language)


_CONVERT: dict[str | None, Callable[[Any], str]] = {"r": repr, "s": str, "a": ascii}


class _Template:
    """A text with its commands filled in and its fields parsed, made once per text and
    language: `t()` runs on every message, and naming the commands (a scan of the
    command files per word) and parsing the fields (`string.Formatter`) were most of
    its cost. Fields other than a plain `{name}` / `{name!r:spec}` (an index, an
    attribute, a nested spec) keep `string.Formatter`, whose rules these follow."""

    __slots__ = ("parts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        parts = list(string.Formatter().parse(text))
        plain = all(
            name is None
            or (name.isidentifier() and "{" not in (spec or "") and (conversion or "s") in _CONVERT)
            for _, name, spec, conversion in parts
        )
        self.parts = (
            [(lit, name, spec or "", conv) for lit, name, spec, conv in parts] if plain else None
        )

    def fill(self, language: str, params: dict[str, Any]) -> str:
        if self.parts is None:
            return _Formatter(language).vformat(self.text, (), _Lenient(params))
        out = []
        for literal, name, spec, conversion in self.parts:
            out.append(literal)
            if name is None:
                continue
            value = params[name] if name in params else "{" + name + "}"  # as `_Lenient`
            if conversion is not None:
                value = _CONVERT[conversion](value)
            kind = type(value)  # most fields are a plain text or a whole number
            if not spec and kind is str:
                out.append(value)
            elif not spec and kind is int:  # as `format(value, "")`
                out.append(str(value))
            else:
                out.append(_field(value, spec, language))
        return "".join(out)


def _field(value: Any, spec: str, language: str) -> str:
    """One field as the reader's language writes it: a date as a date, `{n:,}` grouped."""
    if isinstance(value, date):
        return date_text(value, language)
    if spec == GROUPED:
        return grouped_text(value, language)
    return format(value, spec)


Text = str | dict[str, str]
"""One language's message: a string, or plural forms (see the module's docstring)."""


def _text(value: object) -> Text:
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    return str(value)


class Catalog:
    """Messages by key and locale, and the ids of the synced commands they name."""

    def __init__(
        self, messages: dict[str, dict[str, Text]], command_files: tuple[str, ...] = ()
    ) -> None:
        self.messages = messages
        self.languages = frozenset(lang for texts in messages.values() for lang in texts)
        """Every language some message has: a new language needs its texts, no code."""
        self.command_files = command_files or (COMMANDS_PREFIX,)
        self.command_ids = CommandIds()
        self._templates: dict[tuple[str, str], _Template] = {}
        self._keyed: dict[tuple[str, object], tuple[_Template, str]] = {}
        """A key's one text (no plural forms) by the locale asked for, with its language:
        `t()` runs some ten times per answer, and finding the language and the text again
        each time was half its cost. Cleared with `_templates` (a sync, the bound)."""
        self._made_with = self.command_ids.generation

    @classmethod
    def load(cls, directory: Path = CATALOG_DIR) -> Catalog:
        messages: dict[str, dict[str, Text]] = {}
        files = sorted(directory.glob("*.yaml"))
        for file in files:
            data = read_yaml(file.read_text(encoding="utf-8")) or {}
            for key, texts in data.items():
                messages[f"{file.stem}.{key}"] = {
                    str(lang): _text(text) for lang, text in (texts or {}).items()
                }
        stems = tuple(f.stem for f in files if f.stem.split(".")[0] == COMMANDS_PREFIX)
        return cls(messages, stems)

    def get(self, key: str, locale: str) -> Text | None:
        texts = self.messages.get(key)
        if texts is None:
            return None
        return texts.get(locale) or texts.get(DEFAULT_LOCALE)

    def format(self, key: str, locale: str, **params: Any) -> str:
        if self._made_with != self.command_ids.generation:  # a sync: mentions change
            self._forget()
        kept = self._keyed.get((key, locale))
        if kept is not None:
            return kept[0].fill(kept[1], params)
        language = normalize_locale(locale)
        text = self.get(key, language)
        if text is None:
            log.warning("missing catalog key %s", key)
            return key
        if isinstance(text, dict):
            if language not in self.messages[key]:
                language = DEFAULT_LOCALE
            return self.fill(self._form(text, language, params), language, params)
        template = self._template(text, language)
        if len(self._keyed) >= TEMPLATES_KEPT:
            self._keyed.clear()
        self._keyed[key, locale] = template, language
        return template.fill(language, params)

    def fill(self, text: str, language: str, params: dict[str, Any]) -> str:
        """`text` with its commands and `params` filled in."""
        if self._made_with != self.command_ids.generation:  # a sync: mentions change
            self._forget()
        return self._template(text, language).fill(language, params)

    def _template(self, text: str, language: str) -> _Template:
        template = self._templates.get((text, language))
        if template is None:
            if len(self._templates) >= TEMPLATES_KEPT:
                self._templates.clear()
            template = _Template(self.commands_in(text, language, escape=True))
            self._templates[text, language] = template
        return template

    def _forget(self) -> None:
        """Drop the kept texts: a sync of the commands' ids changes their mentions."""
        self._templates.clear()
        self._keyed.clear()
        self._made_with = self.command_ids.generation

    def commands_in(
        self, text: str, language: str, *, escape: bool = False, mentions: bool = True
    ) -> str:
        """Every `{/name}` of `text` as the command the reader's client shows
        (`escape`: with braces doubled, for a text that is formatted next; `mentions`
        False: never a Discord mention, for a reader outside Discord, as the web's)."""

        def replace(match: re.Match[str]) -> str:
            qualified = match.group(1)
            plain = match.group(2) or not mentions
            command_id = None if plain else self.command_ids.of(qualified)
            shown = command_text(qualified, self.command_name(qualified, language), command_id)
            return shown.replace("{", "{{").replace("}", "}}") if escape else shown

        return COMMAND.sub(replace, text)

    def command_name(self, qualified: str, language: str) -> str:
        """The name a client in `language` shows for a command ("sets import" → "сети імпорт").

        Each word's name is the catalog's `commands...<path>.name`, the text the Translator
        gives Discord, so the two never disagree; a word without one stays as it is.
        """
        words = qualified.split()
        shown = []
        for end in range(1, len(words) + 1):
            path = ".".join(words[:end])
            shown.append(self._command_word(path, words[end - 1], language))
        return " ".join(shown)

    def _command_word(self, path: str, default: str, language: str) -> str:
        for stem in self.command_files:
            texts = self.messages.get(f"{stem}.{path}.name", {})
            if texts.get(DEFAULT_LOCALE) == default:
                text = texts.get(language, default)
                return text if isinstance(text, str) else default
        return default

    @staticmethod
    def _form(forms: dict[str, str], language: str, params: dict[str, Any]) -> str:
        """The plural form for the number in the parameter the forms name."""
        category = plural_category(language, params.get(forms.get(PLURAL_KEY, "count"), ""))
        for name in (category, OTHER):
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


def read_yaml(text: str) -> Any:
    """`yaml.safe_load`, with libyaml's scanner and parser where PyYAML was built with it
    (its wheels are): the same resolver and constructors, ~8x less CPU. Reading the 45
    catalog files took ~0.24 s in pure Python against ~0.03 s, paid by every process start
    (the bot, `formula-darts web`, `play`, a shard). The project's own files only: a Set an
    admin uploads keeps `rules._bounded_yaml`'s checked loader."""
    if yaml.__with_libyaml__:
        return yaml.load(text, Loader=yaml.CSafeLoader)
    return yaml.safe_load(text)


@cache
def catalog() -> Catalog:
    return Catalog.load()


def normalize_locale(locale: object) -> str:
    """Discord locales ('uk', 'en-US', discord.Locale) to a catalog language."""
    value = str(getattr(locale, "value", locale) or "").lower()
    language = value.split("-", 1)[0]
    return language if language in catalog().languages else DEFAULT_LOCALE


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
