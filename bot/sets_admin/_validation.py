"""From Discord input to what rules.validate_set reads: option values and uploads.

The ranges themselves live in rules.LIMITS; Discord options use them too so the
client refuses most bad numbers before they are sent, and the bot checks again
because a client's limits are a convenience, not a guarantee.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.sets_admin._manager import SetsAdminError
from rules.sets import FIELDS, LIMITS

MAX_FILE_BYTES = 64 * 1024
"""An import file; 25 Sets in the sets.yaml format are about 5 KB."""


def ranged(field: str) -> Any:
    """The Discord option type for a numeric field: an integer within its LIMITS."""
    low, high = LIMITS[field]
    return app_commands.Range[int, low, high]


def fields_from_options(**options: Any) -> dict[str, Any]:
    """Only the options the admin gave, in the usual field order.

    `functions` stays the typed string: rules accepts "pow, sqrt abs" and lists
    any name outside the vetted functions with the allowed ones.
    """
    return {key: options[key] for key in FIELDS if options.get(key) is not None}


def check_upload_size(size: int) -> None:
    """Refuse a file too big before downloading it."""
    if size > MAX_FILE_BYTES:
        raise SetsAdminError("file_too_big", size=size, max=MAX_FILE_BYTES)


def decode_upload(data: bytes) -> str:
    """The text of an uploaded Sets file, or a refusal saying why not."""
    check_upload_size(len(data))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SetsAdminError("file_not_text", position=exc.start) from None
