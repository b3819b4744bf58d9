"""bench_rest's followup model (issue 28), so the script cannot rot: 10,000 games make
about 220 answers a second, which need two processes at one process's 200/s knee."""

from __future__ import annotations

import re

from bench.bench_rest import answers_per_game, followup_lines


def test_ten_thousand_games_need_two_processes() -> None:
    text = "\n".join(followup_lines(10_000))
    found = re.search(r"answers \(each an interaction\) \| [\d.]+ \| \*\*([\d,]+)\*\*", text)
    assert found is not None, text
    per_s = int(found.group(1).replace(",", ""))
    assert 200 <= per_s <= 250, text
    assert "**2 processes**" in text


def test_a_duel_has_twice_the_answers_of_a_training_that_never_times_out_early() -> None:
    duel, _ = answers_per_game("duel")
    training, _ = answers_per_game("training")
    assert duel > 2 * training * 0.9  # a training ends at its first timeout
