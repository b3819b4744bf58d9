"""`formula-darts eval` for JavaScript: `--language javascript` and a line's "language"."""

from __future__ import annotations

import json

from tests.evaluator.test_cli_eval import cli, jsonl


def test_one_javascript_formula() -> None:
    proc = cli("--language", "javascript", "--digits", "3489", "34+89")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "34+89 = 123 (number)\n"
    octal = cli("--language", "javascript", "--digits", "1023", "1+023")
    assert octal.stdout == "1+023 = 20 (number)\n"  # 023 is 19, as node reads it


def test_a_javascript_error_exits_1_with_nodes_words() -> None:
    proc = cli("--language", "javascript", "--digits", "3489", "--", "-3**489")
    assert proc.returncode == 1
    assert "[syntax]" in proc.stdout and "(SyntaxError)" in proc.stdout
    refused = cli("--language", "javascript", "--digits", "3489", "3--4+89")
    assert refused.returncode == 1
    assert "[forbidden] `--` at column 2" in refused.stdout


def test_jsonl_lines_name_their_language() -> None:
    out = jsonl(
        {"digits": "3489", "formula": "34+89", "language": "javascript"},
        {"digits": "3489", "formula": "34+89"},
        {"digits": "3489", "formula": "3--4+89", "language": "javascript"},
        {"digits": "1000", "formula": "1/0+0+0", "language": "javascript"},
        {"digits": "7200", "formula": "7/200", "language": "javascript", "score": 501},
        {"digits": "3489", "formula": "Math.sqrt(3489)", "language": "php"},
        {"digits": "3489", "formula": "34+89", "language": "cobol"},
    )
    assert out[0] == {"ok": True, "type": "number", "value": 123}
    assert out[1] == {"ok": True, "type": "int", "value": 123}
    assert out[2]["ok"] is False and out[2]["error"]["code"] == "forbidden"
    assert out[3]["ok"] is False and out[3]["error"]["code"] == "not_finite"
    # points and score in doubles, as JavaScript computes |100 - |0.035 - 100||
    assert out[4] == {"ok": True, "type": "number", "value": 0.035,
                      "points": 0.03499999999999659, "score": 500.96500000000003}  # fmt: skip
    assert out[5]["ok"] is False and out[5]["error"]["code"] == "forbidden"  # PHP: `.`
    assert out[6]["ok"] is False and out[6]["error"]["code"] == "input"
    assert json.dumps(out[0]) == '{"ok": true, "type": "number", "value": 123}'
