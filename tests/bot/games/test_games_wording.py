"""Plural forms, no English in Ukrainian, and formula errors that read as sentences."""

from __future__ import annotations

import pytest

from bot.i18n import catalog, describe_eval_error, plural_categories, plural_category, t
from bot.i18n._catalog import PLURAL_KEY
from evaluator.result import ErrorCode, EvalError
from rules import FormulaLanguage
from tests.support.sim import answer, message_text, public_message, reply_text, speak

session_loop = pytest.mark.asyncio(loop_scope="session")
"""Async tests share the session loop of the evaluator fixture; plain ones need no loop."""


@pytest.mark.parametrize(
    ("count", "form"),
    [
        *[(1, "one"), (2, "few"), (4, "few"), (5, "many"), (11, "many"), (12, "many")],
        *[(14, "many"), (21, "one"), (22, "few"), (25, "many"), (111, "many"), (0, "many")],
    ],
)
def test_ukrainian_plural_categories(count: int, form: str) -> None:
    assert plural_category("uk", count) == form


def test_every_plural_text_has_its_languages_forms() -> None:
    book = catalog()
    problems = []
    for key, texts in book.messages.items():
        for language, text in texts.items():
            if not isinstance(text, dict):
                continue
            missing = sorted(f for f in plural_categories(language) if f not in text)
            if missing:
                problems.append(f"{key} {language}: no {missing}")
            if text.get(PLURAL_KEY, "count") not in book.placeholders(key, language):
                problems.append(f"{key} {language}: counts a parameter it never shows")
    assert problems == []


@pytest.mark.parametrize(
    ("count", "uk", "en"),
    [
        (1, "1\u00a0раунд:", "1 round:"),
        (3, "3\u00a0раунди:", "3 rounds:"),
        (5, "5\u00a0раундів:", "5 rounds:"),
        (11, "11\u00a0раундів:", "11 rounds:"),
        (22, "22\u00a0раунди:", "22 rounds:"),
    ],
)
def test_round_counts_agree_with_the_number(count: int, uk: str, en: str) -> None:
    assert uk in t("games.outcome.checkout", "uk", rounds=count)
    assert en in t("games.outcome.checkout", "en", rounds=count)
    started = t("games.started.training", "uk", player="p", set="s", rounds=count, time=30)
    assert uk.rstrip(":") in started
    assert "(s)" not in t("games.outcome.perfect", "en", min_rounds=count)


def test_other_features_counts_agree() -> None:
    assert "1\u00a0гра: перемоги 1 · нічиї 0 · поразки 0" in t(
        "leaderboards.duel.line", "uk", rank=1, user="u", rating=1016, games=1, wins=1, draws=0,
        losses=0,
    )  # fmt: skip
    assert "зіграно 2\u00a0раунди" in t("leaderboards.stats.avg_value", "uk", avg="7", rounds=2)
    assert "over 1 round" in t("leaderboards.stats.avg_value", "en", avg="7", rounds=1)
    assert "3\u00a0раунди (" in t("sets.list.line", "uk", rounds=3, start=1, goal=1, bonus=1)
    assert t("sets_admin.problems", "uk", count=2).endswith("2\u00a0проблеми")
    assert t("sets_admin.imported", "en", count=1, added="a", updated="—").startswith(
        "✅ Imported 1 Set."
    )
    assert "5\u00a0Сетів" in t("sets_admin.exported", "uk", count=5)


def test_not_finite_and_too_long_errors_are_localized() -> None:
    nan = EvalError(ErrorCode.NOT_FINITE, "the result is NAN")
    assert (
        describe_eval_error(nan, "uk", lang=FormulaLanguage.PHP)
        == "результат PHP — NAN, а не скінченне число."
    )
    assert "the result is" not in describe_eval_error(nan, "uk", lang=FormulaLanguage.PHP)
    inf = EvalError(ErrorCode.NOT_FINITE, "the result is -INF")
    assert (
        describe_eval_error(inf, "en", lang=FormulaLanguage.PHP)
        == "PHP's result is -INF, not a finite number."
    )
    long = EvalError(ErrorCode.TOO_LONG, "at most 256 characters", params=(("limit", "256"),))
    text = describe_eval_error(long, "en", "1" * 300, lang=FormulaLanguage.PHP)
    assert text == "the formula is too long: 300 characters; at most 256."
    uk = describe_eval_error(long, "uk", "1" * 300, lang=FormulaLanguage.PHP)
    assert "300\u00a0символів, а можна щонайбільше 256" in uk


@session_loop
async def test_a_forbidden_character_reads_as_one_sentence(world) -> None:
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    bad = reply_text(await answer(world.alice, thread.last_message, "😀3489"))
    assert "is not a valid formula: the character `😀` at column 1 is not allowed." in bad
    assert "— The" not in bad


@session_loop
async def test_a_too_long_formula_is_measured_and_not_echoed_whole(world) -> None:
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "training")
    formula = "(" * 100 + "3489" + ")" * 100 + "+" * 96
    text = reply_text(await world.alice.slash(world.thread(), "answer", formula=formula))
    assert "300 characters; at most 256" in text
    assert formula not in text and "(" * 59 + "…" in text


@session_loop
async def test_ukrainian_round_and_descriptions_have_no_english(world) -> None:
    speak(world.env, world.alice, "uk")
    world.digits.extend("3489")
    started = await world.alice.slash(world.channel, "training", set="blitz")
    assert "7\u00a0раундів, 30\u00a0с на хід" in public_message(started).content
    embed = world.thread().last_message.embeds[0]
    assert embed.fields[2].name == "Кінець раунду" and embed.fields[2].value.endswith("(30\u00a0с)")
    assert "Ціль 100, Бонус 50" in embed.footer.text
    listed = message_text((await world.alice.slash(world.channel, "sets list")).response.message)
    assert "Класична гра за оригінальними правилами." in listed
    assert "The classic game" not in listed and "раундів (Супер-гра ≤ 4)" in listed
    shown = await world.alice.slash(world.channel, "sets show", name="sprint")
    assert "Коротша гра: Рахунок починається з 301." in message_text(shown.response.message)
    choices = await world.alice.autocomplete(world.channel, "training", "set", "bli")
    assert [c["name"] for c in choices] == ["blitz (501, 7×30\u00a0с)"]
    english = await world.bob.autocomplete(world.channel, "training", "set", "bli")
    assert [c["name"] for c in english] == ["blitz (501, 7×30 s)"]


def test_no_guessed_plurals_or_jargon_left_in_the_catalog() -> None:
    book = catalog()
    found = []
    for key in book.messages:
        for text in book.forms(key, "uk"):
            for bad in ("(-ла)", "(и)", "(ів)", "едлайн", "закриття", "Закриття"):
                if bad in text:
                    found.append(f"{key} uk: {bad}")
        found += [f"{key} en: (s)" for text in book.forms(key, "en") if "(s)" in text]
    assert found == []
