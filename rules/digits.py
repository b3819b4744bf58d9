"""The round's Digits: uniform random, or a seeded sequence for Qualification.

Qualification must give every player of a server the same Digits for a Set in
a period, so the sequence is derived from (server, Set, period) alone.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from datetime import UTC, datetime, timedelta, tzinfo

LOW, HIGH = 1000, 9999


def valid_digits(digits: object) -> bool:
    """Whether `digits` is a round's number as text: four digits, 1000 to 9999."""
    return (
        isinstance(digits, str)
        and len(digits) == 4
        and digits.isascii()
        and digits.isdigit()
        and digits[0] != "0"
    )


def random_digits(rng: random.Random | None = None) -> str:
    """A uniform random four-digit number (system entropy by default)."""
    source = rng if rng is not None else random.SystemRandom()
    return str(source.randint(LOW, HIGH))


def qualification_seed(
    server_id: int | str, set_name: str, period: str, *, secret: str, version: str,
    started: int = 0,
) -> str:  # fmt: skip
    """A stable seed naming one (server, Set version, period) sequence.

    Keyed with the installation's `secret` (HMAC): the server id, the Set name
    and the date are public, so without a secret anyone could compute a future
    day's Digits offline and prepare formulas before the Qualification opens.
    The Set's `version` is in it, so a Set edited mid-day gets new Digits: nobody
    replays on the new board the Digits they have already seen. `started` is how
    many Qualifications of it the player started before (void ones included):
    everyone's first attempt has the same Digits, and a replay after a void (which
    gives the attempt back) or a Set's second attempt gets Digits of its own, never
    the ones the player has already seen.
    """
    if not secret:
        raise ValueError("a Qualification seed needs the installation's secret")
    message = f"formula-darts/qualification/{server_id}/{set_name}/{version}/{period}"
    if started:
        message += f"/{started}"
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def seeded_digits(seed: str, round_number: int) -> str:
    """The Digits of round `round_number` (1-based) of a seeded sequence."""
    if round_number < 1:
        raise ValueError("round numbers start at 1")
    return str(random.Random(f"{seed}/{round_number}").randint(LOW, HIGH))


def utc_day(moment: datetime | None = None) -> str:
    """The default Qualification period: the UTC date, e.g. 2026-11-29."""
    return period_of(moment or datetime.now(UTC), UTC)


def period_of(moment: datetime, tz: tzinfo = UTC) -> str:
    """The Qualification period holding `moment` on a server whose day runs in `tz`:
    the local date there (a Kyiv server's day changes at Kyiv midnight)."""
    return moment.astimezone(tz).strftime("%Y-%m-%d")


def period_end(period: str, tz: tzinfo = UTC) -> datetime:
    """When a Qualification period (a local date in `tz`) ends, as an aware UTC moment:
    the next local midnight. Where a DST jump skips midnight, the end is the jump's
    instant, the first moment the next date is shown (`period_of` agrees)."""
    day = datetime.strptime(period, "%Y-%m-%d")
    local = (day + timedelta(days=1)).replace(tzinfo=tz)
    return local.astimezone(UTC)


def auto_move(digits: str) -> tuple[str, int]:
    """The duel's auto-move: the Digits split into two two-digit numbers, added
    (4589 -> 45+89 = 134), and the formula shown for it.

    The value is the decimal sum RULES.md gives. The formula is the Digits as
    written, every digit in order, and one real PHP computes that same value for:
    `7001` -> `70+01` = 71 (`01` is PHP's octal 1, the same number, as are 00..07);
    a second half `08` or `09` is no PHP literal (a parse error as an octal), so its
    zero stands alone: `1008` -> `10+0+8` = 18.
    """
    if len(digits) != 4 or not digits.isdigit():
        raise ValueError(f"digits must be four digits, got {digits!r}")
    first, second = digits[:2], digits[2:]
    value = int(first) + int(second)
    if second in ("08", "09"):
        return f"{first}+0+{second[1]}", value
    return f"{first}+{second}", value
