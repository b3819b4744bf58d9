"""The values the storage layer hands to the bot: plain dataclasses, no ORM objects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, tzinfo
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import rules


class Face(StrEnum):
    """Which face started a game, stored with it (`games.face`): its events go to that
    face (`bot.play.Faces`), so a game played in the terminal is never announced by
    Discord. Rows stored before faces were kept are Discord's."""

    DISCORD = "discord"
    TERMINAL = "terminal"
    WEB = "web"


class StaleGame(ValueError):
    """A save that does not extend the stored game: it was changed by someone else first.

    Raised when a second resolution of the same round races the first one; the
    caller reloads the game and announces what is stored, never its own version.
    """


class RematchTaken(ValueError):
    """That duel already has its Rematch (another click, maybe in another process, won)."""


class TooManySets(ValueError):
    """A save of server Sets that would take the server past its cap; nothing was saved."""


class AttemptsUsed(ValueError):
    """A new Qualification game beyond the Set's attempts for that player and period.

    The bot checks `count_attempts` first; this is the same rule enforced inside
    the insert's transaction, so two quick clicks cannot both start a game.
    """


@dataclass(frozen=True, slots=True)
class Reveal:
    """The best answer a round allowed a player (seat), found by the solver and confirmed
    by real PHP: shown after the round (after the period for a Qualification)."""

    round: int
    seat: int
    formula: str
    result: rules.Number
    points: rules.Number
    score: rules.Number

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _REVEAL_FIELDS}  # asdict, ~10x cheaper


_REVEAL_FIELDS = tuple(f.name for f in fields(Reveal))


@dataclass(frozen=True, kw_only=True, slots=True)
class GameMeta:
    """What the bot keeps with a game beyond the rules state, so a restart loses none of it.

    Stored as JSON in `games.meta`; unknown keys (from a newer version) are ignored
    and missing ones take their defaults, so old rows read as they always did.
    Frozen, like `GameRecord`: a change is a new value (`dataclasses.replace`).
    """

    locale: str = "en"
    """The language of the game's public messages."""
    parent_channel_id: int | None = None
    """The channel a duel was challenged in: a Rematch is posted there."""
    round_message_id: int | None = None
    """The live round's message: edited into the round's result when it ends."""
    round_message_of: int | None = None
    """Which round `round_message_id` shows (None in games saved before it was kept: the
    live one). A round whose post failed has no message yet, and the last round's
    message is not its to edit."""
    pinged_at: float | None = None
    """When a round last pinged the players (a crash loop must not ping them every start)."""
    void_reason: str | None = None
    """Why the game was voided, when it was."""
    practice_level: str | None = None
    """A Practice game's level (solver.practice.Level): how the bot plays."""
    best: tuple[Reveal, ...] = ()
    """The best answers of the rounds played so far, as far as they were found in time."""
    writer: str | None = None
    """Which process's game flow wrote the current state (`RoundFlow.writer`)."""
    repost_round: int | None = None
    repost_tries: int | None = None
    """How many posts of round `repost_round` failed past their retries: a restart
    posts it again by the same bound before the game is void (`Shows`)."""
    waits_round: int | None = None
    """A private round never shown because its player's token aged or died (`Unreachable`
    `waits`): it waits for their next press, its clock not started, never voided on the
    re-post schedule nor timed out by a sweep; kept here so a restart keeps it waiting."""
    private: bool = False
    """Played in messages only its player sees (ephemeral, in `channel_id`, the channel
    the game was started in) instead of a thread: every message rides an interaction of
    the player's, so the game costs no bot-token call (`SOLO_GAMES=private`)."""

    def __post_init__(self) -> None:
        """A list handed in (JSON, a caller) is kept as a tuple: nothing to append to."""
        object.__setattr__(self, "best", tuple(self.best))

    def to_dict(self) -> dict[str, Any]:
        # field by field, not asdict (which copies every Reveal deeply): on every save
        data = {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}
        data["best"] = [b.to_dict() for b in self.best]
        if not self.best:
            data.pop("best", None)
        if not self.private:  # rows of thread games read and write as before
            data.pop("private", None)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameMeta:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["best"] = tuple(Reveal(**b) for b in values.get("best", []))
        return cls(**values)

    def best_of(self, round_number: int) -> list[Reveal]:
        return [b for b in self.best if b.round == round_number]


@dataclass(frozen=True, kw_only=True, slots=True)
class GameRecord:
    """A game as the bot keeps it: the rules state plus where it is played.

    Frozen and built by keyword: the store never writes into the record it was handed
    (tests/bot/storage/test_frozen_records.py); a step is `dataclasses.replace`.
    """

    state: rules.GameState
    guild_id: int
    channel_id: int
    period: str | None = None
    seed: str | None = None
    meta: GameMeta = field(default_factory=GameMeta)
    created_at: float = 0.0
    face: Face = Face.DISCORD
    """The face it was started from, which announces it."""

    @property
    def active(self) -> bool:
        return self.state.outcome is None


@dataclass(frozen=True)
class FinishedThread:
    """Where a finished game was played, and when it ended (to archive its thread)."""

    guild_id: int
    thread_id: int
    finished_at: float


class ChallengeStatus(StrEnum):
    """A challenge waits (`PENDING`) until it is accepted, declined or expires."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


@dataclass
class Challenge:
    id: str
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int
    set_name: str
    expires_at: float
    status: ChallengeStatus = ChallengeStatus.PENDING
    message_id: int = 0
    locale: str = "en"
    """The challenge's public language (the server's, else the challenger's), kept across a
    restart; the duel's own is decided at Accept (`bot.play._challenges.duel_locale`)."""
    rematch_of: str | None = None
    """The duel this challenge is the Rematch of (one per duel, kept by a unique key)."""


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class LeaderRow:
    """A player's best Qualification game. rank_class: 0 checkout, 1 finished; losses unranked."""

    rank: int
    user_id: int
    game_id: str
    set_name: str
    period: str | None
    rank_class: int
    rounds: int
    score: float
    answer_time: float
    perfect: bool
    termination: str


@dataclass(frozen=True)
class RatingRow:
    rank: int
    user_id: int
    rating: int
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class PlayerStats:
    """Finished games only; Practice (against the bot, unranked) is counted apart and in
    nothing else. `duel` is None before the first rated duel."""

    user_id: int
    games: int = 0
    wins: int = 0
    checkouts: int = 0
    perfects: int = 0
    rounds: int = 0
    avg_points: float | None = None
    best: LeaderRow | None = None
    duel: RatingRow | None = None
    practice: int = 0
    """Practice games against the bot."""
    practice_wins: int = 0


class ModerationAction(StrEnum):
    VOID = "void"
    UNVOID = "unvoid"
    BAR = "bar"
    UNBAR = "unbar"


@dataclass(frozen=True)
class ModerationEntry:
    """One line of a server's moderation log; `target` is a game id or a user id."""

    action: ModerationAction
    target: str
    actor_id: int
    reason: str
    at: float


class ChannelGone(StrEnum):
    """Why the daily post's channel was taken off a server's `/config` by the bot itself:
    Discord refused the post (403), the channel was gone (404), or the bot left the server."""

    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    BOT_REMOVED = "bot_removed"


@dataclass(frozen=True)
class ServerSettings:
    """A server's `/config`: `channel_id` None means no daily post; `language` None means
    each reader's own; `channel_since` is when the channel was set (no post for a period
    that ended before). `cleared_*`: the channel the bot took off itself, why and when
    (told to the admin by `/config show`, forgotten when a channel is set again)."""

    guild_id: int
    channel_id: int | None = None
    language: str | None = None
    timezone: str = "UTC"
    channel_since: float | None = None
    cleared_channel_id: int | None = None
    cleared_reason: ChannelGone | None = None
    cleared_at: float | None = None
    web_key: str | None = None
    """The page key of the server's web pages (`/config web`); None until first turned on."""
    web_on: bool = False
    solo_games: str | None = None
    """`/config games`: "private" or "thread" for one player's games here; None: the
    bot's own `SOLO_GAMES`."""
    guild_name: str | None = None
    """The server's name as the bot last saw it on Discord; None until seen."""

    @property
    def zone(self) -> tzinfo:
        """The server's timezone; UTC if the stored name is no longer known here."""
        try:
            return ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            return UTC


@dataclass(frozen=True)
class RoundBest:
    """The best answer players found to one round's Digits in a period (most points)."""

    number: int
    digits: str
    user_id: int
    formula: str
    result: str
    points: float

    @property
    def value(self) -> rules.Number:
        """The Result read back from its stored text (`_codec.number_text`: a float's repr
        keeps its dot or exponent), so it can be shown as the Set's language prints it."""
        text = self.result
        return float(text) if any(c in text for c in ".eEnN") else int(text)


@dataclass(frozen=True)
class PeriodSummary:
    """What a daily post shows of one (server, Set, period)."""

    board: list[LeaderRow]
    players: int
    perfects: int
    rounds: list[RoundBest]
    played: int = 0
    """Players with a finished game of the period, on the board or not (all may have lost)."""


@dataclass(frozen=True)
class PostClaim:
    """A daily post claimed. `resumed_since`: when an unfinished claim taken over (a crash
    mid-post, or this process's own failed done mark) was made; the post may be in the
    channel from then on. None for a new claim."""

    resumed_since: float | None = None
