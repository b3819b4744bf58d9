"""The service's vocabulary: what it needs (an evaluator, an announcer), what it returns
(a submit result) and how it refuses (GameError). No Discord here either."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import rules
from bot.common import UserError
from bot.i18n import t
from bot.play._refusals import Refusal
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange
from evaluator.result import EvalError, Evaluation
from rules import GameSet, GameState
from solver.result import Candidate

log = logging.getLogger(__name__)

T = TypeVar("T")

CHALLENGE_TTL = 300.0
"""Seconds a duel challenge waits for the opponent (issue 4: five minutes)."""

ANSWER_GRACE_MARGIN_S = 3.0
"""Beyond PHP's time limit, how long a deadline waits for an answer received before it
(a queue in front of the PHP pool, the lock, the save)."""

DEADLINE_RETRY_FIRST_S = 1.0
DEADLINE_RETRY_MAX_S = 60.0
DEADLINE_TRIES = 8
"""A deadline whose save failed is retried after 1, 2, 4 ... 60 s, eight tries in all
(about two minutes); then the game waits for the next restart (`recover`)."""

UNPOSTED = "round_not_posted"
"""The void reason of a game whose round Discord never let the bot post."""

DigitsSource = Callable[[GameState, int], str]
"""The Digits of round n of a game that is not seeded (tests force them)."""

Clock = Callable[[], float]
OpenChannel = Callable[[GameSet], Awaitable[int]]
OpenDuelChannel = Callable[[Challenge, GameSet], Awaitable[int]]


def random_digits_source(state: GameState, number: int) -> str:
    del state, number
    return rules.random_digits()


class Evaluating(Protocol):
    """The PHP judge as the service uses it (`evaluator.Evaluator` is one)."""

    @property
    def timeout_s(self) -> float:
        """The longest one formula may take in PHP: a deadline waits that long for it."""
        ...

    def evaluate(
        self, formula: str, digits: str, functions: Iterable[str] | GameSet, *,
        who: str | None = None,
    ) -> Awaitable[Evaluation | EvalError]:  # fmt: skip
        """`functions` is the game's Set, whose language chooses the checker and the
        sandbox (PHP's, node's). `who` (the player) lets the sandbox slow down one player
        whose formulas keep ending its workers, and nobody else."""
        ...


def answer_grace(evaluator: Evaluating) -> float:
    """The longest a deadline waits for answers still in PHP: its time limit plus a margin."""
    return float(evaluator.timeout_s) + ANSWER_GRACE_MARGIN_S


@dataclass(frozen=True, slots=True)
class Posted:
    """A round's message as Discord took it: its id, when it appeared, whether it pinged."""

    message_id: int
    at: float
    pinged: bool = False


class Unreachable(Exception):
    """Nothing can show this now: a private game's message with no fresh interaction
    of its player's to ride (no bot token can post or edit an ephemeral message). Not a
    fault to log with a traceback: the step waits for the player, as for a refused post.

    `waits`: the game had its player's token in this process and it aged or died, so
    what it would post was never seen: a round waits unseen for the next press, with
    no end (`waits_for_player`). Else no token is known (after a restart) and a round
    may have been seen before the crash: it goes the re-post way, to a void."""

    def __init__(self, message: str, *, waits: bool = False) -> None:
        super().__init__(message)
        self.waits = waits


class ChannelLost(Exception):
    """Discord took the game's place away (the thread or channel deleted, the bot removed
    or its permissions taken): the game cannot go on and ends as void (RULES.md)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Paused(Exception):
    """A bot-token call of a game's announcement met a REST pause (a global 429, a
    Cloudflare ban, its bucket's 429) and was not made: the announcement leaves the
    game's voice, waits `seconds` and goes on (`Shows.show`). Sleeping through the
    pause inside the voice would hold every later step's announcement of the game,
    a player's answer among them, behind it (issue 29)."""

    def __init__(self, seconds: float, reason: str) -> None:
        super().__init__(f"{reason}: {seconds:.1f} s")
        self.seconds = seconds


class Via(Protocol):
    """The interaction an answer came through, which announcements may ride.

    Its response and followups are not under the bot token's global limit: the
    response may edit the message its component is on (the round's, for the Answer
    button's modal) and a followup posts in the interaction's channel. Each call
    raises on failure; the announcer then falls back to the bot token.
    """

    source: int | None
    """The message of its component (an Answer button's), if any: the only one it edits."""

    def can_edit(self, message_id: int | None) -> bool:
        """Whether it may edit `message_id` (the message of its component, or one its
        followups made)."""
        ...

    def can_post(self, channel_id: int) -> bool:
        """Whether a followup lands in `channel_id` (the interaction's channel)."""
        ...

    @property
    def channel_id(self) -> int | None:
        """Where its followups land: a private game is played there."""
        ...

    def outlives(self, round_s: float) -> bool:
        """Whether what it posts can still be edited at the deadline of a round of
        `round_s` seconds: a private game's rounds must be (its messages are only its
        interactions'), so a longer Set is played in a thread. How long an interaction
        lives is the face's to know (Discord: its token's 15 minutes)."""
        ...

    async def edit(self, message_id: int, **fields: Any) -> None: ...

    async def post(self, **fields: Any) -> Posted: ...


class GameEvents(Protocol):
    """What the service announces; the Discord side renders it. Called after saving,
    never under the game's lock (an announcement may wait out Discord's retries).

    `via` is the answer's interaction when one carries the step (`Via`), else None.
    An announcement that finds the game's channel gone raises `ChannelLost`.
    """

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Via | None = None
    ) -> Posted | None:
        """Post the open round; what was posted, so the service can keep it."""
        ...

    async def answer_received(
        self, record: GameRecord, player: int, via: Via | None = None
    ) -> None: ...

    async def round_resolved(
        self, record: GameRecord, number: int, via: Via | None = None
    ) -> None: ...

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        """The open round was posted again (a replay): its old message `message_id`
        says so and loses its Answer button."""
        ...

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Via | None = None
    ) -> None: ...

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None: ...


class Presence(Protocol):
    """Whether a player is still on the server (the game's front end knows)."""

    async def has_left(self, guild_id: int, user_id: str) -> bool: ...


class NoEvents:
    """Announces nothing and knows nobody left: a service without a front end (tests,
    the benchmarks)."""

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Via | None = None
    ) -> Posted | None:
        del record, replayed, via
        return None

    async def has_left(self, guild_id: int, user_id: str) -> bool:
        del guild_id, user_id
        return False

    async def answer_received(
        self, record: GameRecord, player: int, via: Via | None = None
    ) -> None:
        del record, player, via

    async def round_resolved(self, record: GameRecord, number: int, via: Via | None = None) -> None:
        del record, number, via

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        del record, message_id

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Via | None = None
    ) -> None:
        del record, ratings, via

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        del challenge, status


class GameError(UserError):
    """A refusal the player caused. `code` (a `Refusal`) names a catalog message under
    `errors.`; the rules' own refusals keep the rules' code (`rules.RulesError.code`)."""

    prefix = "errors."
    players = ("user", "opponent")
    moments = ("expires",)
    places = ("channel",)
    code: Refusal

    def __init__(self, code: Refusal, **params: Any) -> None:
        super().__init__(code, **params)

    @classmethod
    def of(cls, problem: rules.RulesError) -> GameError:
        """The rules' refusal under its own code (every one is a `Refusal`, tested)."""
        return cls(Refusal(problem.code))

    def display_params(self, locale: str) -> dict[str, Any]:
        params = super().display_params(locale)
        if "permissions" in params:  # discord.Permissions flag names
            params["permissions"] = ", ".join(
                t("permissions.quoted", locale, name=t(f"permissions.{name}", locale))
                for name in params["permissions"]
            )
        return params


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What became of one submitted formula: an error to retry, or an accepted answer."""

    record: GameRecord
    round_number: int
    evaluation: Evaluation | None = None
    error: EvalError | None = None
    secret: bool = False


async def announce(what: str, call: Awaitable[T]) -> T | None:
    """Run one announcement; a failed one is logged and the game goes on (it is saved).

    `ChannelLost` is not a failure to log but news: it goes to the caller, which
    voids the game; so is `Paused`, which the caller waits out outside the voice.
    """
    try:
        return await call
    except (ChannelLost, Paused):
        raise
    except Unreachable as unreachable:
        log.info("announcing %s: %s", what, unreachable)
        return None
    except Exception:
        log.exception("announcing %s failed", what)
        return None


class Revealer(Protocol):
    """The best answer a round allowed, found off the event loop and confirmed by real PHP
    (`bot.solving.ConfirmedSolver`); None when none could be had in time."""

    async def best(
        self, digits: str, score: rules.Number, game_set: GameSet, *, aim: int = 0
    ) -> Candidate | None: ...

    async def finish(
        self, digits: str, score: rules.Number, game_set: GameSet, *, last: bool = False
    ) -> Candidate | None:
        """How a perfect player plays: the formula likeliest to check out next round."""
        ...
