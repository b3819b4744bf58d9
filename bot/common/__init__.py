"""What the features (games, Sets, leaderboards) share, so none of them repeats it.

`UserError` is the one shape of a refusal a user caused; `text` has the small formatters;
`SetsDirectory` is the one reading of "the Sets playable on this server". Nothing here
loads discord: what speaks discord.py (`reply`/`refuse`, `loaded_cog`, `set_choices`,
`echo_formula`) is in `bot.common.interactions`, for the Discord faces only.
"""

from bot.common._errors import UnknownSet, UserError
from bot.common._sets import (
    CHOICE_NAME_MAX,
    CHOICES_MAX,
    ListedSet,
    SetsDirectory,
    clean_name,
)
from bot.common._text import code, fmt, language_label, mention, set_label, shorten, timestamp

__all__ = [
    "CHOICES_MAX",
    "CHOICE_NAME_MAX",
    "ListedSet",
    "SetsDirectory",
    "UnknownSet",
    "UserError",
    "clean_name",
    "code",
    "fmt",
    "language_label",
    "mention",
    "set_label",
    "shorten",
    "timestamp",
]
