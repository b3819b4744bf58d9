"""The catalog and /rules say each concept by the one name docs/GLOSSARY.md gives it."""

from __future__ import annotations

import re

from bot.i18n import catalog
from rules.sets import FIELDS
from tests.bot.i18n.i18n_texts import ROOT, template_texts, texts

GLOSSARY = ROOT / "docs" / "GLOSSARY.md"


def table(title: str) -> list[list[str]]:
    """The rows (cells stripped) of the glossary's table under `## title`."""
    section = GLOSSARY.read_text("utf-8").split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def forbidden() -> list[str]:
    return [v for row in table("Terms") for v in re.findall(r"«([^»]+)»", row[2])]


def test_the_glossary_is_read() -> None:
    assert len(table("Terms")) > 20 and len(forbidden()) > 30
    assert {row[0] for row in table("Set fields")} == set(FIELDS) - {"description"}
    assert len(table("Commands")) >= 18


def ruled_out(variant: str) -> re.Pattern[str]:
    """The variant in any case and inflected: up to three letters may follow it («чекаут»
    finds «Чекаути»), and a longer one's singular ending may change («дуель», «дуелі»)."""
    stem = re.escape(variant[:-1] if len(variant) > 5 and variant[-1] in "аяоеьй" else variant)
    return re.compile(r"(?<!\w)" + stem + r"\w{0,3}(?!\w)", re.IGNORECASE)


def test_the_check_finds_forbidden_words_in_any_case_and_form() -> None:
    assert ruled_out("чекаут").search("Чекаути")
    assert ruled_out("набір").search("НАБІР")
    assert ruled_out("тренувальна дуель").search("Тренувальна дуель")
    assert ruled_out("дедлайн").search("до дедлайну")
    assert ruled_out("невалідна").search("невалідний")
    assert not ruled_out("тур").search("турнірна таблиця")
    assert not ruled_out("рейтинги").search("рейтинг Elo")


def test_no_variant_the_glossary_rules_out() -> None:
    found = [
        f"{where}: «{variant}»"
        for where, text in texts("uk") + template_texts()
        for variant in forbidden()
        if ruled_out(variant).search(text)
    ]
    assert found == []


def test_each_set_field_has_one_name_per_language() -> None:
    """Its label (/sets show), its option (/sets add) and the YAML key agree."""
    book = catalog()
    for key, en_label, uk_label, uk_option in table("Set fields"):
        label = book.messages[f"sets_admin.field.{key}"]
        option = book.messages[f"commands.sets.option.{key}.name"]
        assert (label["en"], label["uk"]) == (en_label, uk_label), key
        assert (option["en"], option["uk"]) == (key, uk_option), key
        assert en_label.lower().replace(" ", "_") == key
        assert uk_label.lower().replace(".", "").replace(" ", "_") == uk_option


def test_commands_have_the_names_the_glossary_gives() -> None:
    book = catalog()
    for en, uk in table("Commands"):
        assert "/" + book.command_name(en.removeprefix("/"), "uk") == uk, en
        assert book.command_name(en.removeprefix("/"), "en") == en.removeprefix("/")


def test_one_name_for_time_running_out_and_for_a_checkout() -> None:
    uk = "\n".join(text for _, text in texts("uk"))
    assert "час вийшов" in uk and "сплив" not in uk
    assert "Рахунок 0" in uk and "Рахунки 0" not in uk
    assert all("рейтинг" not in t.lower() or "рейтинг elo" in t.lower() for _, t in texts("uk"))
