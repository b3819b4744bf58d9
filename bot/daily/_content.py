"""What a daily post is made of, and the seams the post's service calls through.

Apart from `DailyPosts` so the renderer and Discord's side (`_render`, `_discord`) import
the post's content without the service that decides what is due.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

from bot.storage import ChannelGone, PeriodSummary
from rules import FormulaLanguage
from solver.result import Candidate


class DayWinners(Protocol):
    """Told the first of a closed day's Qualification board of a Set."""

    async def day_won(
        self, guild_id: int, user_id: int, set_name: str, period: str, game_id: str
    ) -> None: ...


class DayExtras(Protocol):
    """More of a closed day for its post: lines under the board (the day's puzzle, once
    its seal is off), in the post's language; none to leave the post as it is."""

    async def day_lines(
        self, guild_id: int, set_name: str, period: str, locale: str
    ) -> list[str]: ...


@dataclass(frozen=True)
class DailyContent:
    """One post: `closest` maps Digits to the solver's formula; None when there is no
    solver (its lines are left out)."""

    guild_id: int
    set_name: str
    period: str
    summary: PeriodSummary
    closest: dict[str, Candidate | None] | None
    locale: str
    language: FormulaLanguage
    """The language of the Set as the day's games had it: named, and its numbers."""
    link: str | None = None
    """The server's board on the web, when its pages are on (`/config web`)."""
    extra: tuple[str, ...] = ()
    """`DayExtras`' lines (the day's puzzle), shown under the board."""

    @property
    def marker(self) -> str:
        """What the post carries (in its Play button's custom_id, unseen) so it is found
        in its channel: the Set and the day, the same in every language."""
        return f"{self.set_name}/{self.period}"

    @property
    def nonce(self) -> str:
        """The same for every try of one post (Discord keeps a nonce a few minutes)."""
        key = f"formula-darts/daily/{self.guild_id}/{self.set_name}/{self.period}"
        return hashlib.sha256(key.encode()).hexdigest()[:25]


class PostChannel(Protocol):
    async def post(self, channel_id: int, content: DailyContent) -> int | ChannelGone:
        """Send the post (with `content.nonce`); the message id, or why the channel is
        gone or closed to the bot (nothing to retry). A transient failure raises."""
        ...

    async def find(self, channel_id: int, marker: str, since: float) -> int | ChannelGone | None:
        """The bot's message carrying `marker` posted in the channel since `since`, None
        when there is none (or the channel's history cannot be read)."""
        ...
