"""What the features (games, Sets, leaderboards) share, so none of them repeats it.

`UserError` is the one shape of a refusal a user caused; `reply`/`refuse` answer an
interaction whether or not it was acknowledged; `text` has the small formatters;
`SetsDirectory` is the one reading of "the Sets playable on this server"; `loaded_cog`
lets a persistent button reach its cog (then checked against a typed Protocol).
"""

from bot.common._controls import loaded_cog
from bot.common._errors import UnknownSet, UserError
from bot.common._replies import refusal_text, refuse, reply, report_unexpected
from bot.common._sets import (
    CHOICE_NAME_MAX,
    CHOICES_MAX,
    ListedSet,
    SetsDirectory,
    clean_name,
    set_choices,
)
from bot.common._text import (
    code,
    echo_formula,
    fmt,
    language_label,
    mention,
    set_label,
    shorten,
    timestamp,
)

__all__ = [
    "CHOICES_MAX",
    "CHOICE_NAME_MAX",
    "ListedSet",
    "SetsDirectory",
    "UnknownSet",
    "UserError",
    "clean_name",
    "code",
    "echo_formula",
    "fmt",
    "language_label",
    "loaded_cog",
    "mention",
    "refusal_text",
    "refuse",
    "reply",
    "report_unexpected",
    "set_choices",
    "set_label",
    "shorten",
    "timestamp",
]
