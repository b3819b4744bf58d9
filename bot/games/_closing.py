"""Game threads archived once the game is over and its end-of-game buttons have lapsed.

Discord caps a server at 1,000 active threads (error 160006), and a thread left to
auto-archive stays active for an hour after its last message. A busy server would hit
the cap, so each game's thread is archived END_BUTTONS_S after the game ends: Rematch
and Share are pressed in the first minutes, and they keep working in an archived
thread (Discord unarchives a thread the bot posts in). Nothing of this is kept in
memory only: the games' `finished_at` is the schedule, so after a restart every game
that ended within the auto-archive hour is archived again at its time (archiving an
archived thread is harmless; older ones Discord has archived by itself).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.games._discord import Lane, RestBudget, RestBusy, with_retry
from bot.games._places import AUTO_ARCHIVE_MINUTES
from bot.play import Clock, Timers
from bot.storage import FinishedThread, GameRecord, GameStore

log = logging.getLogger(__name__)

END_BUTTONS_S = 15 * 60
"""How long a finished game's thread stays open for its Rematch and Share buttons."""
ARCHIVE_WAIT_S = 1.0
"""An archive is optional traffic: when the optional lane is further behind than this,
the thread is left to Discord's auto-archive (an hour) rather than queued."""


class ThreadCloser:
    def __init__(
        self,
        client: discord.Client,
        budget: RestBudget,
        clock: Clock,
        owns: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.client = client
        self.budget = budget
        self.clock = clock
        self.owns = owns
        self._timers = Timers(clock, "archive")
        self.left_to_discord = 0
        """Archives not made because the optional lane was busy (Discord auto-archives)."""

    def game_over(self, record: GameRecord) -> None:
        """The game has just ended: archive its thread END_BUTTONS_S from now, if the bot
        may (without Manage Threads the PATCH would only 403: the thread auto-archives)."""
        self._schedule(FinishedThread(record.guild_id, record.channel_id, self.clock()))

    def may_archive(self, guild_id: int, thread_id: int) -> bool:
        """Whether the bot has Manage Threads where the thread is, as the gateway's cache
        knows (guilds intent: channels, threads and the bot's own roles); unknown: try."""
        guild = self.client.get_guild(guild_id)
        me = guild.me if guild is not None else None
        place = guild.get_channel_or_thread(thread_id) if guild is not None else None
        if me is None or place is None:
            return True
        return place.permissions_for(me).manage_threads

    def _schedule(self, thread: FinishedThread) -> None:
        if not self.may_archive(thread.guild_id, thread.thread_id):
            log.info("thread %s: no Manage Threads; it will auto-archive", thread.thread_id)
            return
        if self.owns(thread.guild_id):
            key = str(thread.thread_id)
            self._timers.at(key, thread.finished_at + END_BUTTONS_S, lambda: self._archive(thread))

    async def recover(self, games: GameStore) -> int:
        """Schedule again every thread of a game that ended within the auto-archive hour."""
        since = self.clock() - END_BUTTONS_S - AUTO_ARCHIVE_MINUTES * 60
        threads = [t for t in await games.finished_since(since) if self.owns(t.guild_id)]
        for thread in threads:
            self._schedule(thread)
        return len(threads)

    async def _archive(self, thread: FinishedThread) -> None:
        what = f"archiving thread {thread.thread_id}"
        behind = self.budget.delay_s(Lane.OPTIONAL)
        if behind > ARCHIVE_WAIT_S:
            self.left_to_discord += 1
            log.info("%s left to auto-archive: the optional lane is %.1f s behind", what, behind)
            return
        try:
            await with_retry(
                lambda: self.client.http.edit_channel(thread.thread_id, archived=True),
                what,
                self.budget,
                lane=Lane.OPTIONAL,
            )
        except RestBusy as busy:  # optional traffic stopped, or a backlog: it auto-archives
            log.warning("%s skipped (%s); it will auto-archive", what, busy.reason)
        except discord.NotFound:
            log.info("%s: it is gone already", what)
        except discord.HTTPException as error:  # no Manage Threads any more, say: it auto-archives
            log.warning("%s failed (%s %s); it will auto-archive", what, error.status, error.text)

    def close(self) -> None:
        self._timers.close()
