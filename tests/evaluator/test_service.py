"""The bot's API: check() errors and PHP verdicts through one call, and backend choice."""

from __future__ import annotations

import dataclasses
import importlib
import logging

import pytest

from evaluator import ErrorCode, EvalError, Evaluation, Evaluator, EvaluatorSettings, open_evaluator
from evaluator.sandbox.local import LocalWorkerFactory, SandboxUnavailable
from evaluator.sandbox.pool import WorkerPool
from evaluator.service import make_factory
from evaluator.settings import SettingsError
from rules.sets import CLASSIC
from tests.evaluator.conftest import test_settings

FUNCTIONS = ("pow", "sqrt", "hexdec", "octdec", "bindec")


@pytest.fixture
async def evaluator(pool: WorkerPool) -> Evaluator:
    return Evaluator(pool, "test")


async def test_valid_formula(evaluator: Evaluator) -> None:
    assert await evaluator.evaluate("34+89", "3489", FUNCTIONS) == Evaluation("34+89", 123)
    assert await evaluator.evaluate("pow(3,4)-8*9", "3489", CLASSIC) == Evaluation(
        "pow(3,4)-8*9", 9
    )


async def test_normalized_formula_reaches_php(evaluator: Evaluator) -> None:
    verdict = await evaluator.evaluate("3 × 4 + 89", "3489", FUNCTIONS)
    assert verdict == Evaluation("3 * 4 + 89", 101)


@pytest.mark.parametrize(
    ("formula", "digits", "code"),
    [
        ("43+89", "3489", ErrorCode.DIGITS),
        ("34+8", "3489", ErrorCode.DIGITS),
        ("$x=34+89", "3489", ErrorCode.FORBIDDEN),
        ("34+89;", "3489", ErrorCode.FORBIDDEN),
        ("exec(34)+89", "3489", ErrorCode.FORBIDDEN),
        ("1" * 300, "3489", ErrorCode.TOO_LONG),
        ("34 89", "3489", ErrorCode.SYNTAX),
        ("3--4+89", "3489", ErrorCode.FORBIDDEN),  # PHP reads `--`, a decrement
        ("08+00", "0800", ErrorCode.SYNTAX),
        ("3/(4-4)*0", "3440", ErrorCode.PHP),
        ("sqrt(3-489)", "3489", ErrorCode.NOT_FINITE),
    ],
)
async def test_errors_are_values(
    evaluator: Evaluator, formula: str, digits: str, code: ErrorCode
) -> None:
    verdict = await evaluator.evaluate(formula, digits, FUNCTIONS)
    assert isinstance(verdict, EvalError), verdict
    assert verdict.code == code
    assert verdict.message


async def test_set_functions_are_the_whitelist(evaluator: Evaluator) -> None:
    verdict = await evaluator.evaluate("pow(3,4)-8*9", "3489", ("sqrt",))
    assert isinstance(verdict, EvalError)
    assert verdict.code == ErrorCode.FORBIDDEN


async def test_evaluate_many_keeps_order(evaluator: Evaluator) -> None:
    items = [
        ("34+89", "3489", FUNCTIONS),
        ("43+89", "3489", FUNCTIONS),
        ("2*47+6", "2476", CLASSIC),
        ("1/0+00", "1000", FUNCTIONS),
        ("700+1", "7001", FUNCTIONS),
    ]
    verdicts = await evaluator.evaluate_many(items)  # type: ignore[arg-type]
    assert verdicts[0] == Evaluation("34+89", 123)
    assert isinstance(verdicts[1], EvalError)
    assert verdicts[1].code == ErrorCode.DIGITS
    assert verdicts[2] == Evaluation("2*47+6", 100)
    assert isinstance(verdicts[3], EvalError)
    assert verdicts[3].error_class == "DivisionByZeroError"
    assert verdicts[4] == Evaluation("700+1", 701)


async def test_open_evaluator_local(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="evaluator.service")
    async with await open_evaluator(test_settings("local")) as evaluator:
        assert evaluator.backend == "local"
        assert await evaluator.evaluate("34+89", "3489", CLASSIC) == Evaluation("34+89", 123)
    assert "EVALUATOR=local" in caplog.text
    closed = await evaluator.evaluate("34+89", "3489", CLASSIC)
    assert isinstance(closed, EvalError)
    assert closed.code == ErrorCode.SANDBOX


async def test_auto_falls_back_to_local_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    factory, reason = make_factory(test_settings("auto"))
    assert isinstance(factory, LocalWorkerFactory)
    assert "local" in reason
    assert "Docker" in reason


def test_docker_required_but_missing_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxUnavailable, match="EVALUATOR=docker"):
        make_factory(test_settings("docker"))


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALUATOR", "local")
    monkeypatch.setenv("POOL_SIZE", "3")
    monkeypatch.setenv("TIMEOUT_S", "0.5")
    monkeypatch.setenv("ALLOW_UNSANDBOXED", "false")
    settings = EvaluatorSettings()
    assert (settings.evaluator, settings.pool_size, settings.timeout_s) == ("local", 3, 0.5)
    assert settings.allow_unsandboxed is False
    assert EvaluatorSettings(memory_mb=256).php_memory_limit_mb == 128


def test_bad_settings_are_refused_with_every_problem_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POOL_SIZE", "many")
    monkeypatch.setenv("allow_unsandboxed", "perhaps")
    with pytest.raises(SettingsError) as refused:
        EvaluatorSettings(evaluator="remote", timeout_s=0)  # type: ignore[arg-type]
    message = str(refused.value)
    assert "EVALUATOR must be one of auto, docker, local, got 'remote'" in message
    assert "POOL_SIZE must be an integer, got 'many'" in message
    assert "TIMEOUT_S must be more than 0" in message
    assert "ALLOW_UNSANDBOXED must be true or false, got 'perhaps'" in message
    monkeypatch.setenv("POOL_SIZE", "257")
    with pytest.raises(SettingsError, match="POOL_SIZE must be at most 256"):
        EvaluatorSettings()


def test_a_changed_copy_is_checked_again() -> None:
    settings = EvaluatorSettings(evaluator="local", pool_size=2)
    assert dataclasses.replace(settings, pool_size=3).pool_size == 3
    assert dataclasses.replace(settings, pool_size=3).evaluator == "local"
    with pytest.raises(SettingsError, match="POOL_SIZE must be at least 1"):
        dataclasses.replace(settings, pool_size=0)
    with pytest.raises(SettingsError, match="must be an integer"):
        EvaluatorSettings(pool_size=2.5)  # type: ignore[arg-type]


def test_evaluator_does_not_load_discord_or_docker() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, evaluator, rules; "
        "bad = [m for m in ('discord', 'docker', 'sqlmodel') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == ""
    assert importlib.import_module("evaluator").__all__


@pytest.mark.parametrize(
    ("formula", "digits"),
    [("1034+", "1034"), ("34*89-", "3489"), ("pow(3,4)+89*", "3489"), ("3489 <<", "3489")],
)
async def test_an_unfinished_formula_is_told_about_its_end(
    evaluator: Evaluator, formula: str, digits: str
) -> None:
    """PHP sees `return (1034+\\n);` and complains about a `)` the player never typed."""
    verdict = await evaluator.evaluate(formula, digits, FUNCTIONS)
    assert isinstance(verdict, EvalError), verdict
    assert verdict.code == ErrorCode.SYNTAX
    assert verdict.message == "syntax error, unexpected end of the formula"
    assert ")" not in verdict.message


@pytest.mark.parametrize(
    ("formula", "digits", "message"),
    [
        ("34 89", "3489", 'syntax error, unexpected integer "89"'),
        ("()3489", "3489", 'syntax error, unexpected token ")"'),  # the player's own `)`
        ("08+00", "0800", "Invalid numeric literal"),
    ],
)
async def test_phps_own_message_stays_when_it_is_about_the_formula(
    evaluator: Evaluator, formula: str, digits: str, message: str
) -> None:
    verdict = await evaluator.evaluate(formula, digits, FUNCTIONS)
    assert isinstance(verdict, EvalError), verdict
    assert (verdict.code, verdict.message) == (ErrorCode.SYNTAX, message)
