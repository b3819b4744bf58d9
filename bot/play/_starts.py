"""How a game starts: the checks, its place (a thread, or the player's private
messages), its first save, round 1 (`Starts`, behind `GameService`'s start methods).

A start reserves its players' seats for its whole check-and-save, so two starts of one
player cannot both pass the checks; the thread (or whatever `open_channel` makes) comes
after every check and before the save, so a start Discord refuses leaves nothing used.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Literal

import rules
from bot.common import SetsDirectory
from bot.play._active import ActiveGames
from bot.play._challenges import Challenges, duel_locale
from bot.play._flow import RoundFlow
from bot.play._refusals import Refusal
from bot.play._seats import Seats
from bot.play._types import Clock, OpenChannel, OpenDuelChannel, Via
from bot.storage import AttemptsUsed, Face, GameMeta, GameRecord, ServerSettings, Store
from rules import GameSet, Mode
from rules.modes import declared
from solver.practice import Level

Solo = Literal[Mode.TRAINING, Mode.QUALIFICATION]
"""The modes `start_single` starts (Practice has its level, a duel its challenge)."""


class Starts:
    def __init__(
        self, store: Store, sets: SetsDirectory, seats: Seats, challenges: Challenges,
        active: ActiveGames, flow: RoundFlow, clock: Clock, *, private_solo: bool = False,
    ) -> None:  # fmt: skip
        """`private_solo`: the bot's `SOLO_GAMES=private`, unless a server chose
        (`/config games`)."""
        self.private_solo = private_solo
        self.store = store
        self.sets = sets
        self.seats = seats
        self.challenges = challenges
        self.active = active
        self.flow = flow
        self.clock = clock

    async def _ensure_may_start(self, guild_id: int, user_id: int) -> None:
        """In no game, with no challenge waiting, and not starting too often."""
        await self.seats.ensure_free(guild_id, user_id, Refusal.BUSY)
        await self.challenges.ensure_none_pending(guild_id, user_id)
        await self.seats.ensure_can_start(guild_id, user_id)

    async def single(
        self, mode: Solo, guild_id: int, user_id: int, set_name: str | None, locale: str,
        open_channel: OpenChannel, *, parent_channel_id: int | None = None,
        privately: Via | None = None, face: Face = Face.DISCORD,
    ) -> GameRecord:  # fmt: skip
        """Check, open the game's channel (the caller's thread), save, start round 1.

        `parent_channel_id`: the channel the thread hangs off, where a Share is posted.
        `privately`: the start's interaction, to play in messages only the player sees
        when the Set's rounds fit its life (`Via.outlives`); it carries round 1. `face`: where it is
        played, stored with it: that face announces it (`Faces`)."""
        game_set = await self.sets.resolve(guild_id, set_name)
        async with self.seats.reserve(guild_id, [user_id]):
            await self._ensure_may_start(guild_id, user_id)
            server = await self.store.servers.settings(guild_id)
            attempt = None
            if declared(mode).seeded:  # the window's Digits, its attempts counted
                attempt = await self.seats.qualification(guild_id, user_id, game_set, server.zone)
            state = rules.new_game(uuid.uuid4().hex, mode, game_set, [str(user_id)])
            channel_id, via = await self._place(game_set, server, open_channel, privately)
            meta = GameMeta(
                locale=server.language or locale, parent_channel_id=parent_channel_id,
                private=via is not None,
            )  # fmt: skip
            record = GameRecord(
                state=state, guild_id=guild_id, channel_id=channel_id,
                period=attempt.period if attempt else None, seed=attempt.seed if attempt else None,
                meta=meta, created_at=self.clock(), face=face,
            )  # fmt: skip
            try:
                await self.store.games.save_game(record, now=self.clock())
            except AttemptsUsed as exc:  # another bot process started one meanwhile
                assert attempt is not None  # only a Qualification counts attempts
                raise attempt.used_up() from exc
            self.active.remember(record)
        return await self.flow.first_round(record, via)

    async def _place(
        self,
        game_set: GameSet,
        server: ServerSettings,
        open_channel: OpenChannel,
        privately: Via | None,
    ) -> tuple[int, Via | None]:
        """The game's channel, and the interaction carrying it when it is private: the
        server's choice, else the bot's, for a Set whose rounds a token outlives."""
        chosen = server.solo_games
        private = chosen == "private" if chosen is not None else self.private_solo
        channel_id = privately.channel_id if privately is not None else None
        if (
            private
            and channel_id
            and privately is not None
            and privately.outlives(game_set.time_limit)
        ):
            return channel_id, privately
        return await open_channel(game_set), None

    async def public_locale(self, guild_id: int, locale: str) -> str:
        """The language of a game's public messages: the server's (`/config language`),
        else the language of whoever started it."""
        return (await self.store.servers.settings(guild_id)).language or locale

    async def accept(
        self, challenge_id: str, user_id: int, locale: str, open_channel: OpenDuelChannel
    ) -> GameRecord:
        """Both players free, the challenge still pending: open the thread, close the
        challenge as accepted, play round 1. The thread comes first, so a thread Discord
        will not make ("busy") leaves the challenge open to accept again; a challenge
        cancelled while its thread was being made leaves that thread empty (it
        auto-archives) and the accept is told the challenge closed.

        The duel's language is decided here (`duel_locale`: the server's, else the one
        both players speak, else English; `locale` is the opponent's client's), and
        `open_channel` gets the challenge with that as its `locale`, to name the thread."""
        challenge = await self.challenges.take(challenge_id, user_id)
        game_set = await self.sets.resolve(challenge.guild_id, challenge.set_name)
        players = [challenge.challenger_id, challenge.opponent_id]
        async with self.seats.reserve(challenge.guild_id, players):
            await self.seats.ensure_free(
                challenge.guild_id, challenge.challenger_id, Refusal.OPPONENT_BUSY
            )
            await self.seats.ensure_free(challenge.guild_id, challenge.opponent_id, Refusal.BUSY)
            await self.seats.ensure_may_rank(challenge.guild_id, challenge.opponent_id)
            await self.seats.ensure_may_rank(
                challenge.guild_id, challenge.challenger_id, other=True
            )
            state = rules.new_game(uuid.uuid4().hex, Mode.DUEL, game_set, [str(p) for p in players])
            server = await self.store.servers.settings(challenge.guild_id)
            spoken = duel_locale(server.language, challenge.locale, locale)
            # the thread first: one Discord will not make ("busy") leaves the challenge open
            channel_id = await open_channel(replace(challenge, locale=spoken), game_set)
            await self.challenges.close_accepted(challenge)
            meta = GameMeta(locale=spoken, parent_channel_id=challenge.channel_id)
            record = GameRecord(
                state=state, guild_id=challenge.guild_id, channel_id=channel_id, meta=meta,
                created_at=self.clock(),
            )  # fmt: skip
            await self.store.games.save_game(record, now=self.clock())
            self.active.remember(record)
        return await self.flow.first_round(record)

    async def practice(
        self, guild_id: int, user_id: int, bot_id: int, level: Level, set_name: str | None,
        locale: str, open_channel: OpenChannel, *, parent_channel_id: int | None = None,
        privately: Via | None = None,
    ) -> GameRecord:  # fmt: skip
        """A duel against the bot itself, unranked: the same checks as any start."""
        game_set = await self.sets.resolve(guild_id, set_name)
        async with self.seats.reserve(guild_id, [user_id]):
            await self._ensure_may_start(guild_id, user_id)
            players = [str(user_id), str(bot_id)]
            state = rules.new_game(uuid.uuid4().hex, Mode.PRACTICE, game_set, players)
            server = await self.store.servers.settings(guild_id)
            channel_id, via = await self._place(game_set, server, open_channel, privately)
            meta = GameMeta(
                locale=server.language or locale,
                practice_level=level.value,
                parent_channel_id=parent_channel_id,
                private=via is not None,
            )
            record = GameRecord(
                state=state, guild_id=guild_id, channel_id=channel_id, meta=meta,
                created_at=self.clock(),
            )  # fmt: skip
            await self.store.games.save_game(record, now=self.clock())
            self.active.remember(record)
        return await self.flow.first_round(record, via)
