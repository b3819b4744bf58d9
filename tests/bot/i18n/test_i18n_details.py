"""The Ukrainian a native editor asked for (issue 33's "Strings"), read as a player reads
each message: rendered with its values, in Ukrainian."""

from __future__ import annotations

from bot.i18n import set_description, t
from bot.rules_text import rules_pages
from rules import FormulaLanguage


def test_accuracy_is_of_the_best_possible_game() -> None:
    assert t("games.summary.accuracy", "uk", percent="87,5") == (
        "Точність: 87,5\u00a0% від найкращої можливої гри"
    )
    assert "від найкращої можливої гри" in t(
        "games.summary.accuracy_of", "uk", player="@ann", percent="90"
    )


def test_sprint_says_where_its_score_starts() -> None:
    text = set_description("sprint", "", "uk", is_global=True)
    assert text == "Коротша гра: Рахунок починається з 301."


def test_an_expired_challenge_says_whose_time_ran_out() -> None:
    text = t("duel.challenge.expired", "uk", challenger="@bob", opponent="@carol")
    assert text == "⌛ Виклик від @bob скасовано: час на відповідь для @carol вийшов."


def test_the_admin_log_names_each_action() -> None:
    values = {"when": "01.01", "actor": "@dana", "target": "`abcd1234`", "reason": "чит"}
    assert t("moderation.log.void", "uk", **values) == (
        "01.01 @dana: анулювання гри `abcd1234`: чит"
    )
    for action in ("unvoid", "bar", "unbar"):
        text = t(f"moderation.log.{action}", "uk", **values)
        assert text.startswith("01.01 @dana: ") and text.endswith(": чит"), text


def test_a_cast_is_a_type_conversion() -> None:
    text = t("eval.forbidden.operator.cast", "uk", text="`(int)`", column=1)
    assert "перетворення типу" in text and "зведення" not in text


def test_min_rounds_over_max_names_the_value() -> None:
    text = t("sets_admin.problem.min_over_max", "uk", min_rounds=5, max_rounds=3)
    assert text.startswith("значення 5 більше, ніж")


def test_the_web_link_and_the_sites_name() -> None:
    assert t("web.link", "uk", url="https://x") == "Сайт: https://x"
    assert t("web.site", "uk") == "Formula Darts"
    assert t("web.player.when", "uk") == "Початок"
    assert t("web.player.checkouts", "uk") == "Ігри з Рахунком 0"


def test_the_elo_table_has_one_name() -> None:
    name = "Рейтинг Elo в Онлайн-дуелях"
    for key in ("web.nav.duel", "web.duel.title", "leaderboards.duel.title"):
        assert t(key, "uk") == name, key


def test_config_games_place_option() -> None:
    assert t("commands.config.option.place.name", "uk") == "місце"
    assert t("commands.config.option.place", "uk") == "якщо не вказати, типове значення бота"


def test_a_perfect_game_says_what_made_it_perfect() -> None:
    assert t("games.outcome.perfect", "uk", min_rounds=4) == (
        "⭐ **Супер-гра!** Рахунок 0 не пізніше ніж у раунді 4."
    )


def test_javascripts_number_error_lists_nouns() -> None:
    text = t("eval.js.forbidden.number", "uk", text="`1e3`", column=2)
    assert "експоненційний запис" in text and "степінь" not in text
    assert "застаріл" in text and "старим" not in text


def test_javascripts_rules_page_reads_well() -> None:
    body = "\n".join(b for _, b in rules_pages("uk", FormulaLanguage.JAVASCRIPT))
    assert "8 — не вісімкова цифра" in body
    assert "застаріле вісімкове" in body and "старе вісімкове" not in body


def test_a_javascript_sets_first_page_says_javascript() -> None:
    for locale in ("en", "uk"):
        pages = rules_pages(locale, FormulaLanguage.JAVASCRIPT)
        assert len(pages) == len(rules_pages(locale, FormulaLanguage.PHP)), locale
        first = pages[0][1]
        assert "PHP" not in first and "JavaScript" in first and "Math.pow(3,4)" in first, locale
        assert "PHP" in rules_pages(locale, FormulaLanguage.PHP)[0][1], locale


def test_a_translated_engine_error_names_no_class_of_the_engine() -> None:
    """«(ParseError)», «(DivisionByZeroError)» are code names: a message translated in
    full needs none; an untranslated one still quotes the engine as it spoke."""
    from bot.i18n import describe_eval_error
    from evaluator.result import ErrorCode, EvalError

    zero = EvalError(ErrorCode.PHP, "Division by zero", error_class="DivisionByZeroError")
    assert (
        describe_eval_error(zero, "uk", lang=FormulaLanguage.PHP)
        == "PHP повідомляє про ділення на нуль."
    )
    assert (
        describe_eval_error(zero, "en", lang=FormulaLanguage.PHP)
        == "PHP DivisionByZeroError: Division by zero"
    )
    odd = EvalError(ErrorCode.PHP, "something new", error_class="TypeError")
    assert (
        describe_eval_error(odd, "uk", lang=FormulaLanguage.PHP)
        == "PHP повідомляє англійською (TypeError): something new"
    )
