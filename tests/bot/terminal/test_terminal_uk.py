"""The terminal in its reader's language: a game played in Ukrainian on the real service
and sandbox (every line the terminal prints comes from the catalog), the language taken
from `--lang` or the environment (LC_ALL, LC_MESSAGES, LANG), English otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Store
from bot.terminal._text import reader_locale
from evaluator import Evaluator
from tests.bot.terminal.test_terminal import CLASSIC, SESSION, cli_env, played
from tests.support.fixtures import evaluator, store  # noqa: F401 (fixtures)

NBSP = "\u00a0"


@SESSION
async def test_a_game_is_played_in_ukrainian(store: Store, evaluator: Evaluator) -> None:
    lines = ["7+0+0+x", "700+1"]
    record, text = await played(store, evaluator, CLASSIC, lines, ["7001"], locale="uk")
    assert record.meta.locale == "uk"  # the game keeps the language it was played in
    assert "Formula Darts — darts: Рахунок 501, Ціль 100, Бонус 50, 7" in text
    assert "Введіть формулу мовою PHP" in text
    assert f"Раунд 1/7 · Рахунок 501 · Число 7001 · 120{NBSP}с" in text
    assert "`x` у позиції 7: такої функції" in text and "спробуйте ще раз (лишилося" in text
    assert "✗" in text and "    7+0+0+x\n          ^" in text  # the caret under column 7
    table = text[text.index("раунд  число") :]
    assert "формула" in table and "рахунок" in table
    assert f"Рахунок 0 за 1{NBSP}раунд. Перемога. Супер-гра!" in table
    for english in ("Round", "Score", "points", "try again", "You ", "resigned", "win"):
        assert english not in text, english


@SESSION
async def test_a_resigned_game_is_told_in_ukrainian(store: Store, evaluator: Evaluator) -> None:
    _, text = await played(store, evaluator, CLASSIC, ["34+89", ":q"], ["3489"], locale="uk")
    assert "✓ 34+89 = 123 (int) → Бали 77, Рахунок 424" in text
    assert "Ви здалися: гру програно." in text


def test_the_language_comes_from_the_option_or_the_environment() -> None:
    assert reader_locale(None, {}) == "en"
    assert reader_locale(None, {"LANG": "uk_UA.UTF-8"}) == "uk"
    assert reader_locale(None, {"LANG": "C.UTF-8"}) == "en"
    assert reader_locale(None, {"LC_ALL": "en_US.UTF-8", "LANG": "uk_UA.UTF-8"}) == "en"
    assert reader_locale(None, {"LC_MESSAGES": "uk_UA", "LANG": "en_GB.UTF-8"}) == "uk"
    assert reader_locale("uk", {"LC_ALL": "en_US.UTF-8"}) == "uk"
    assert reader_locale(None, {"LANG": "de_DE.UTF-8"}) == "en"  # not in the catalog


@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_the_command_speaks_ukrainian(tmp_path: Path, how: str) -> None:
    """The real command through a pipe, told the language by option or by environment."""
    env = {k: v for k, v in cli_env(tmp_path).items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "uk_UA.UTF-8" if how == "LANG" else "C.UTF-8"
    option = ["--lang", "uk"] if how == "--lang" else []
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--set", "blitz", *option],
        input=":q\n", capture_output=True, text=True, timeout=60, check=False, env=env,
        cwd=os.getcwd(),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Раунд 1/" in proc.stdout and "формула> :q" in proc.stdout
    assert "Ви здалися: гру програно." in proc.stdout
