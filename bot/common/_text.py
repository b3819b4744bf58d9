"""Small text pieces every message uses: PHP numbers, mentions, times, cut text, code."""

from __future__ import annotations

import rules

ECHO_MAX = 60
"""A refused formula is echoed back this short: the player knows what they typed."""


def fmt(value: rules.Number) -> str:
    """A PHP number exactly as PHP 8 echoes it with precision=-1.

    Without var_export's ".0" on whole floats, so a whole Score reads 274
    whether a float or an int (the boards store Scores as floats and could
    not tell the two apart).
    """
    return rules.php_text(value, zero_fraction=False)


def shorten(text: str, limit: int = ECHO_MAX) -> str:
    """`text` whole, or its start with an ellipsis: never longer than `limit` (at least 1)."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def mention(user_id: int | str) -> str:
    return f"<@{user_id}>"


def timestamp(moment: float, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    return f"<t:{int(moment)}:{style}>"


CODE_MAX = 100
"""User text shown as inline code (a name, a file's key) is cut this short."""


def code(text: str, limit: int = CODE_MAX) -> str:
    """User text as inline code that a backtick in it cannot break out of."""
    return "`" + shorten(text.replace("`", "ˋ"), limit) + "`"
