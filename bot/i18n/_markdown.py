"""Text a message quotes, made safe for Discord's markdown."""

from __future__ import annotations

import re

_BACKTICKS = re.compile(r"`+")
LOOKALIKE = "ˋ"
"""U+02CB, shown for a backtick where Discord's markdown cannot show one."""


def inline_code(text: str) -> str:
    """`text` as Discord inline code showing every character, a lone backtick too.

    Discord's rule (CommonMark's): a span opened by n backticks closes at the next run
    of exactly n, and one space inside each end is dropped, so `` ` `` shows a
    backtick. A single-backtick fence would let a backtick in the text close the span
    early, and three in a row open a code block; a text with a run of two or more
    would need such a fence, so its backticks are shown as their lookalike.
    """
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    if longest == 0:
        return f"`{text}`"
    if longest > 1:
        return "`" + text.replace("`", LOOKALIKE) + "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"``{pad}{text}{pad}``"
