"""What a JavaScript Set says to its players: /rules lists JavaScript's surprises (uk, en),
the terminal game plays `--set js-darts` with real node, and the daily post names it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rules
from bot.daily._content import DailyContent
from bot.daily._render import daily_embed
from bot.storage import LeaderRow, PeriodSummary, RoundBest, Store
from evaluator import Evaluator
from rules import FormulaLanguage
from solver.result import Candidate
from tests.bot.terminal.test_terminal import cli_env, played
from tests.support.paths import ROOT
from tests.support.sim import embed_text, speak

SESSION = pytest.mark.asyncio(loop_scope="session")
JS = rules.load_sets()["js-darts"]
SURPRISES_EN = ("`023` is 19", "`08` is 8", "`-2**2` is a SyntaxError", "`1<<32` = 1",
                "with the dividend's sign", "`7/2` = 3.5", "NaN or Infinity", "32-bit")  # fmt: skip
SURPRISES_UK = ("`023` — це 19", "`08` — це 8", "`-2**2` — синтаксична помилка", "`1<<32` = 1",
                "зі знаком діленого", "`7/2` = 3.5", "NaN чи Infinity", "32-бітними")  # fmt: skip


@SESSION
async def test_rules_for_a_javascript_set_list_its_surprises_in_both_languages(world) -> None:
    php = await world.alice.slash(world.channel, "rules")
    php_text = "\n".join(embed_text(e) for e in php.response.embeds)
    js = await world.alice.slash(world.channel, "rules", set="js-darts")
    js_text = "\n".join(embed_text(e) for e in js.response.embeds)
    assert "The formula in JavaScript" in js_text and "The formula in JavaScript" not in php_text
    assert all(s in js_text for s in SURPRISES_EN), js_text
    assert "`hexdec(63)` = 99" in php_text and "hexdec" not in js_text
    assert [e.title for e in php.response.embeds][3:] == [e.title for e in js.response.embeds][3:]
    speak(world.env, world.bob, "uk")
    uk = await world.bob.slash(world.channel, "rules", set="js-darts")
    uk_text = "\n".join(embed_text(e) for e in uk.response.embeds)
    assert "Формула в JavaScript" in uk_text
    assert all(s in uk_text for s in SURPRISES_UK), uk_text
    unknown = await world.alice.slash(world.channel, "rules", set="nosuch")
    assert unknown.response is not None and "nosuch" in (unknown.response.content or "")


@SESSION
async def test_the_terminal_plays_a_javascript_set_with_node(
    store: Store, evaluator: Evaluator
) -> None:
    lines = ["0x1+649", "Math.sqrt(16)+49", "9**87+6", ":q"]
    record, text = await played(store, evaluator, JS, lines, ["1649", "9876", "1111"])
    state = record.state
    assert "Type a JavaScript formula" in text
    assert (
        "✗ `0x1` at column 1 is not allowed: JavaScript would read it as a number written"
        " otherwise (hexadecimal" in text
    )
    assert "✓ Math.sqrt(16)+49 = 53 (number)" in text
    assert "1.0449567633177832e+83" in text and "E+83" not in text
    assert state.rounds[0].answers[0] is not None
    assert isinstance(state.rounds[0].answers[0].result, float)


def test_formula_darts_play_set_js_darts(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--set", "js-darts"],
        input="0x1\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
        env=cli_env(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert "Formula Darts — js-darts" in proc.stdout and "JavaScript formula" in proc.stdout
    assert (
        "`0x1` at column 1 is not allowed: JavaScript would read it as a number written"
        " otherwise (hexadecimal" in proc.stdout
    )
    assert "You resigned" in proc.stdout


def test_the_daily_post_of_a_javascript_set_names_it_and_prints_its_numbers() -> None:
    row = LeaderRow(1, 7, "g" * 32, "js-darts", "2026-01-01", 1, 7, 1e21, 3.0, False, "")
    summary = PeriodSummary([row], 1, 0, [RoundBest(1, "9876", 7, "9**87+6", "1e+83", 1e83)])
    closest: dict[str, Candidate | None] = {"9876": Candidate("98+7-6", 99.0, 99.0, 402.0, 6)}
    content = DailyContent(
        1, "js-darts", "2026-01-01", summary, closest, "en",
        language=rules.FormulaLanguage.JAVASCRIPT,
    )  # fmt: skip
    text = embed_text(daily_embed(content))
    assert "js-darts · JavaScript" in text
    assert "1e+21 left after 7 rounds" in text and "= 1e+83" in text and "= 99" in text
    php = embed_text(
        daily_embed(
            DailyContent(1, "darts", "2026-01-01", summary, closest, "en", FormulaLanguage.PHP)
        )
    )
    assert "1.0E+21 left" in php and "= 1.0E+83" in php and "JavaScript" not in php
