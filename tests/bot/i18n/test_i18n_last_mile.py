"""Issue 21, the last mile: error details, PHP's words, numbers, zones and command names."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from babel.numbers import format_decimal

from bot.common.interactions import echo_formula
from bot.i18n import Catalog, catalog, describe_eval_error, t
from evaluator.check import check
from evaluator.result import ErrorCode, EvalError, FormulaError
from rules import FormulaLanguage
from tests.support.sim import reply_text, speak

session_loop = pytest.mark.asyncio(loop_scope="session")
LANGUAGES = ("en", "uk")


def refusal(formula: str, digits: str = "3489") -> EvalError:
    """The checker's own verdict on `formula`, as a player would get it."""
    with pytest.raises(FormulaError) as raised:
        check(formula, digits, ("pow", "sqrt"))
    return raised.value.error


def invalid_reply(formula: str, language: str) -> str:
    """What the player reads after sending `formula`, built as bot/games does it."""
    error = describe_eval_error(refusal(formula), language, formula, lang=FormulaLanguage.PHP)
    return t("games.invalid", language, formula=echo_formula(formula), error=error)


INLINE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def code_spans(text: str) -> list[str]:
    """Discord's inline code spans of `text` (CommonMark's rule: a run of n backticks closes
    at the next run of exactly n; one space inside each end is dropped); AssertionError
    when a backtick is left unmatched or a ``` would open a code block."""
    assert "```" not in text, f"a code block opens: {text!r}"
    spans, rest = [], text
    while "`" in rest:
        start = rest.index("`")
        match = INLINE.match(rest, start)
        assert match is not None, f"an unmatched backtick: {rest[start:]!r}"
        inner = match.group(2)
        if len(inner) > 2 and inner[0] == inner[-1] == " ":
            inner = inner[1:-1]
        spans.append(inner)
        rest = rest[match.end() :]
    return spans


def test_the_markdown_reader_finds_what_it_should() -> None:
    assert code_spans("a `b` and `` ` `` c") == ["b", "`"]
    with pytest.raises(AssertionError):
        code_spans("``` at column 2")
    with pytest.raises(AssertionError):
        code_spans("`a` b `c")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("formula", ["3`4`89", "`3489`", "34``89", "3489`"])
def test_a_backtick_in_an_error_detail_keeps_the_markdown_balanced(
    formula: str, language: str
) -> None:
    spans = code_spans(invalid_reply(formula, language))
    assert "`" in spans, "the refused backtick itself is shown"


def test_a_backtick_is_a_shell_command() -> None:
    assert "shell command" in describe_eval_error(refusal("3`4`89"), "en", lang=FormulaLanguage.PHP)
    uk = describe_eval_error(refusal("3`4`89"), "uk", lang=FormulaLanguage.PHP)
    assert "команду оболонки" in uk and "оператор" not in uk


@pytest.mark.parametrize(
    ("formula", "uk"),
    [
        ("$a+3489", "змінна"),
        ("34#89", "коментар"),
        ("'34'+89", "рядок"),
        ("3489&&1", "логічне"),
        ("3489==1", "порівняння"),
    ],
)
def test_php_openers_and_operators_are_named_for_what_they_are(formula: str, uk: str) -> None:
    assert uk in describe_eval_error(refusal(formula), "uk", lang=FormulaLanguage.PHP)


@pytest.mark.parametrize(
    ("formula", "fixed"),
    [("5--2", "5- -2"), ("3489++1", "3489+ +1"), ("--3489", "- -3489"), ("3 --489", "3 - -489")],
)
def test_the_twice_hint_shows_the_players_own_formula(formula: str, fixed: str) -> None:
    for language in LANGUAGES:
        text = describe_eval_error(refusal(formula), language, formula, lang=FormulaLanguage.PHP)
        assert fixed in code_spans(text), (language, text)
        assert "3- -4" not in text


def test_the_twice_hint_without_the_formula_keeps_its_example() -> None:
    assert "3- -4" in describe_eval_error(refusal("5--2"), "uk", lang=FormulaLanguage.PHP)


def test_an_echoed_formula_is_one_line() -> None:
    assert echo_formula("34\n+89") == "34 +89"
    assert echo_formula("34\r\n\t+ 89\n") == "34 + 89"
    assert invalid_reply("34\n+8`9", "uk").startswith("❌ `34 +8ˋ9`")


PHP_MESSAGES = [
    ("DivisionByZeroError", "Division by zero", "ділення на нуль"),
    ("DivisionByZeroError", "Modulo by zero", "остачі"),
    ("ParseError", "Invalid numeric literal", "вісімкове"),
    ("ParseError", 'syntax error, unexpected integer "4"', "число `4`"),
    ("ParseError", 'syntax error, unexpected token ","', "`,`"),
    ("ParseError", 'syntax error, unexpected identifier "pow"', "`pow`"),
    ("ParseError", "syntax error, unexpected end of the formula", "обривається"),
    ("ArithmeticError", "Bit shift by negative number", "відʼємн"),
    ("ArgumentCountError", "pow() expects exactly 2 arguments, 1 given", "рівно 2\u00a0аргументи"),
    ("ArgumentCountError", "hexdec() expects exactly 1 argument, 0 given", "рівно 1\u00a0аргумент"),
    ("ArgumentCountError", "max() expects at least 1 argument, 0 given", "щонайменше 1"),
    ("ArgumentCountError", "round() expects at most 3 arguments, 4 given", "щонайбільше 3"),
    ("Error", "Value of type int is not callable", "бракує оператора"),
]


@pytest.mark.parametrize(("php_class", "message", "uk"), PHP_MESSAGES)
def test_phps_common_errors_are_translated_and_framed(
    php_class: str, message: str, uk: str
) -> None:
    error = EvalError(ErrorCode.PHP, message, error_class=php_class)
    ukrainian = describe_eval_error(error, "uk", lang=FormulaLanguage.PHP)
    assert ukrainian.startswith("PHP повідомляє"), ukrainian
    assert uk in ukrainian and php_class not in ukrainian  # translated: no code name
    assert message not in ukrainian
    english = describe_eval_error(error, "en", lang=FormulaLanguage.PHP)
    assert english.startswith(f"PHP {php_class}: {message}"), "English keeps PHP's own words"
    code_spans(ukrainian)


def test_an_unknown_php_message_is_quoted_as_phps_own() -> None:
    message = "max(): Argument #1 ($value) must be of type array, int given"
    error = EvalError(ErrorCode.PHP, message, error_class="TypeError")
    ukrainian = describe_eval_error(error, "uk", lang=FormulaLanguage.PHP)
    assert ukrainian == f"PHP повідомляє англійською (TypeError): {message}"
    assert describe_eval_error(error, "en", lang=FormulaLanguage.PHP) == f"PHP TypeError: {message}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_large_numbers_are_grouped_as_babel_writes_them(language: str) -> None:
    text = t("sets_admin.error.file_too_big", language, size=70002, max=65536)
    assert format_decimal(65536, locale=language) in text
    assert format_decimal(70002, locale=language) in text
    assert "65536" not in text
    if language == "uk":
        assert "65\u00a0536" in text and "70\u00a0002\u00a0байти" in text


def test_grouping_leaves_what_is_not_a_whole_number_as_it_is() -> None:
    assert "abc" in t("sets_admin.problem.not_integer", "uk", low=1, high=100000, value="abc")
    assert "100\u00a0000" in t("sets_admin.problem.not_integer", "uk", low=1, high=100000, value=2)
    assert "1.5\u00a0байта" in t("sets_admin.error.file_too_big", "uk", size=1.5, max=65536)
    assert "1024\u00a0символи" in t("eval.too_long.length", "uk", length=1024, limit=256)


def test_ukrainian_command_references_are_clickable() -> None:
    book = Catalog.load()
    book.command_ids.use([SimpleNamespace(name="sets", id=7), SimpleNamespace(name="resign", id=8)])
    assert book.commands_in("{/sets import}", "uk") == "</sets import:7>"
    assert book.commands_in("{/resign}", "uk") == "</resign:8>"
    assert book.commands_in("{/sets import:plain}", "uk") == "/сети імпортувати"
    assert "</resign:8>" in book.format("errors.busy", "uk")


def command_names(language: str) -> dict[str, str]:
    return {
        key: texts[language]  # type: ignore[misc]
        for key, texts in catalog().messages.items()
        if key.startswith("commands") and key.endswith(".name") and isinstance(texts[language], str)
    }


def test_one_separator_in_command_names() -> None:
    hyphened = [f"{k}: {v}" for k, v in command_names("uk").items() if "-" in v]
    assert hyphened == []
    assert catalog().command_name("config timezone", "uk") == "налаштування часовий_пояс"


def test_the_start_field_is_the_start_score() -> None:
    messages = catalog().messages
    assert messages["sets_admin.field.start_score"]["uk"] == "Початковий рахунок"
    assert messages["commands.sets.option.start_score.name"]["uk"] == "початковий_рахунок"


ENGLISH_IDENTIFIERS = (
    "maxRound", "minRound", "timeLimit", "start_score", "min_rounds", "max_rounds",
    "time_limit", "goal", "bonus",
)  # fmt: skip


def ukrainian_texts() -> list[tuple[str, str]]:
    from tests.bot.i18n.i18n_texts import texts

    return texts("uk")


def test_no_english_field_names_outside_code_in_ukrainian() -> None:
    found = []
    for where, text in ukrainian_texts():
        prose = re.sub(r"```.*?```|`[^`]*`|\{[^{}]*\}", "", text, flags=re.DOTALL)
        found += [f"{where}: {name}" for name in ENGLISH_IDENTIFIERS if name in prose]
    assert found == []


CALQUES = (
    "від найкращого можливого", "не один з операторів", "виклик для", "його власна",
    "Число ділиться", "ділиться на два",
)  # fmt: skip


def test_no_calques() -> None:
    found = [f"{w}: {c}" for w, text in ukrainian_texts() for c in CALQUES if c in text]
    assert found == []


def test_a_count_is_never_headed_by_score_0() -> None:
    """«Рахунок 0» over a number reads "Score 0: 5"; the heading says what is counted."""
    messages = catalog().messages
    for key in ("leaderboards.stats.checkouts", "charts.stats.checkout"):
        assert "Рахунок 0" not in messages[key]["uk"], key
        assert "Рахунком 0" in messages[key]["uk"], key


def test_the_qualification_day_is_the_servers_in_the_text() -> None:
    for language in LANGUAGES:
        text = t(
            "errors.qualification_used", language, set="darts", attempts=1,
            timezone="Europe/Kyiv", next_day=1767304800,
        )  # fmt: skip
        assert "UTC" not in text and "`Europe/Kyiv`" in text
        assert "<t:1767304800:t>" in text and "<t:1767304800:R>" in text


@session_loop
async def test_a_used_qualification_names_the_servers_zone_and_the_next_day(world, admin) -> None:
    """simcord's clock starts at 2026-01-01 00:00 UTC: Kyiv's next day starts at 22:00 UTC."""
    await admin.slash(world.channel, "config timezone", timezone="Europe/Kyiv")
    speak(world.env, world.alice, "uk")
    await world.alice.slash(world.channel, "qualification")
    await world.alice.slash(world.channel, "resign")
    used = reply_text(await world.alice.slash(world.channel, "qualification"))
    kyiv_midnight = int(datetime(2026, 1, 1, 22, tzinfo=UTC).timestamp())
    assert "`Europe/Kyiv`" in used and "UTC" not in used
    assert f"<t:{kyiv_midnight}:t>" in used and f"<t:{kyiv_midnight}:R>" in used


def rules(language: str) -> str:
    from bot.rules_text import rules_pages

    return "\n".join(
        f"{title}\n{body}" for title, body in rules_pages(language, FormulaLanguage.PHP)
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["**Practice**", "remainder", "bitwise AND", "bitwise OR", "shift", "leading 0"]),
        ("uk", ["**Практика**", "остача", "побітове «і»", "побітове «або»", "зсув", "з 0 на"]),
    ],
)
def test_rules_explain_practice_the_operators_and_octal(language: str, words: list[str]) -> None:
    text = rules(language)
    assert [word for word in words if word not in text] == []
    for operator in ("`%`", "`&`", "`|`", "`^`", "`<<`", "`>>`"):
        assert operator in text, operator


def test_phps_fatal_timeout_reads_as_a_timeout() -> None:
    message = "Maximum execution time of 1 second exceeded"
    error = EvalError(ErrorCode.TIMEOUT, message, error_class="FatalError")
    assert (
        describe_eval_error(error, "uk", lang=FormulaLanguage.PHP)
        == "PHP рахував цю формулу надто довго."
    )
    assert (
        describe_eval_error(error, "en", lang=FormulaLanguage.PHP)
        == "PHP took too long to compute it."
    )


def test_the_twice_hint_of_a_long_formula_shows_the_fix_and_its_surroundings() -> None:
    formula = "pow(3,4)+" * 3 + "5--2" + "+pow(3,4)" * 3
    text = describe_eval_error(
        refusal(formula, "34343452" + "343434"), "uk", formula, lang=FormulaLanguage.PHP
    )
    fixed = [span for span in code_spans(text) if "- -" in span]
    assert len(fixed) == 1 and fixed[0].startswith("…") and fixed[0].endswith("…")
    assert "5- -2" in fixed[0] and len(fixed[0]) <= 42


@session_loop
async def test_a_backtick_and_a_newline_in_a_played_formula(world) -> None:
    """Through simcord, as the player sees it: one line, and markdown that holds."""
    world.digits.extend("3489")
    await world.alice.slash(world.channel, "training")
    reply = reply_text(await world.alice.slash(world.thread(), "answer", formula="3`4\n`89"))
    first = reply.partition("\n")[0]
    assert first.startswith("❌ `3ˋ4 ˋ89`") and "shell command" in first
    assert "`" in code_spans(reply)


@session_loop
async def test_real_phps_errors_read_in_ukrainian(world) -> None:
    """Real PHP's messages are the ones `_php` reads: each arrives translated."""
    speak(world.env, world.alice, "uk")
    world.digits.extend("1000", "1089", "3489", "3489")
    await world.alice.slash(world.channel, "training")
    expected = [
        ("1/000", "PHP повідомляє про ділення на нуль."),
        ("1%000", "ділення на нуль під час обчислення остачі `%`"),
    ]
    for formula, text in expected:
        reply = reply_text(await world.alice.slash(world.thread(), "answer", formula=formula))
        assert text in reply, reply
    await world.alice.slash(world.thread(), "answer", formula="1000")  # round 2: 1089
    octal = reply_text(await world.alice.slash(world.thread(), "answer", formula="1+089"))
    assert "число з 0 на початку PHP читає як вісімкове" in octal, octal
    await world.alice.slash(world.thread(), "answer", formula="1089")  # round 3: 3489
    spaced = reply_text(await world.alice.slash(world.thread(), "answer", formula="34 89"))
    assert "тут не може стояти число `89`" in spaced, spaced
    assert "syntax error" not in spaced and "Division" not in octal


def test_every_php_reading_is_tested_and_has_its_texts() -> None:
    from bot.i18n._php import PREFIX, READINGS, read_php_message

    read = {read_php_message(message)[0] for _, message, _ in PHP_MESSAGES}  # type: ignore[index]
    assert read == {PREFIX + kind for kind in READINGS}
    assert all(set(catalog().messages[key]) == set(LANGUAGES) for key in read)
