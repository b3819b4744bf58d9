"""What the Cup tells the rest of the bot and Discord: typed seams, no discord here.

`CupEvents` is for other features (a champion's role, achievements): the lead wires
them where the bot is assembled; `NoCupEvents` does nothing beyond what the Cup already
announces. `CupFace` is where a Cup is shown (the Discord channel, `bot.cup._discord`).
"""

from __future__ import annotations

from typing import Protocol

from bot.storage import CupRecord
from rules.cup import CupState, Match


class CupEvents(Protocol):
    async def champion_crowned(self, guild_id: int, user_id: int, cup_id: int) -> None:
        """A Cup's champion was decided (called once per Cup)."""
        ...


class NoCupEvents:
    async def champion_crowned(self, guild_id: int, user_id: int, cup_id: int) -> None:
        del guild_id, user_id, cup_id


class CupFace(Protocol):
    """Each call posts (or edits) one message in the Cup's channel and gives its id, None
    when the channel is gone or closed to the bot; a transient failure raises."""

    async def announce(self, cup: CupRecord, qualified: list[str], version: str) -> int | None: ...

    async def cancelled(self, cup: CupRecord, too_few: bool) -> int | None: ...

    async def bracket(self, cup: CupRecord, message_id: int | None) -> int | None:
        """The bracket as it stands: posted (`message_id` None) or edited in place."""
        ...

    async def champion(self, cup: CupRecord, bracket: CupState) -> int | None: ...

    async def match_opened(
        self, cup: CupRecord, match: Match, players: tuple[int, int]
    ) -> int | None:
        """A thread for the match, both players mentioned; its id."""
        ...

    async def match_thread(self, cup: CupRecord, match: Match) -> int | None:
        """The bot's own active thread for the match, made by a process that died before
        keeping it; None when there is none (or it cannot be told)."""
        ...

    async def leg_call_seen(self, cup: CupRecord, thread_id: int, match: Match, leg: int) -> bool:
        """Whether leg `leg`'s call (its Ready button) is in the match's thread; True when
        the thread cannot be read (posting again would not help)."""
        ...

    async def leg_called(
        self, cup: CupRecord, thread_id: int, match: Match, leg: int, players: tuple[int, int]
    ) -> None:
        """Leg `leg` is called: a Ready button for it."""
        ...

    async def match_decided(self, cup: CupRecord, thread_id: int, match: Match) -> None:
        """Who went through, and the thread archived (a server keeps 1,000 active)."""
        ...

    async def start_leg(self, cup: CupRecord, thread_id: int, players: tuple[int, int]) -> str:
        """The leg's Online Duel in the match's thread (`players[0]` plays first); its
        game id. A refusal the players caused (one is busy in another game) raises
        the games' `UserError`."""
        ...
