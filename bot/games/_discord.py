"""Bot-token REST calls that stay under Discord's limits and survive its bad moments.

Every bot-token call goes through one `RestBudget` per process: a token bucket below
the global limit (~50 requests/s per token, shared by the shard processes), served in
FIFO order per lane, the games' lane before the optional one (daily posts, shares,
archives). The queue is bounded by time: a call that would wait past its deadline is
refused (`RestBusy`) instead of queued, and a new game is refused at its start when
the backlog would delay its first round past `START_DELAY_S`, or while the running
games ask for nearly the whole rate (`admit_start`).

One retry layer. discord.py's `HTTPClient.request` already tries a request 5 times on
500/502/504/524 (sleeping 1, 3, 5, 7, 9 s), on a connection reset, and on a 429 it
can wait out (the route's or the global limit, up to `max_ratelimit_timeout`, which
discord.py raises to 30 s at least). So `with_retry` retries only what discord.py
raises at once: a 503 and a connection that failed otherwise; a 500/502/504 it raises
has been tried 5 times already and is given up. A 429 that reaches us is never retried
by hand. One longer than `max_ratelimit_timeout` (`discord.RateLimited`) holds only
the bucket the caller named (`Bucket`: a route and its channel, guild or webhook) for
its `retry_after` and is raised as `BucketBusy` (the player is told how many minutes):
games in other channels, and starts elsewhere, go on. A global 429 is seen by the
trace and pauses every bot-token call. A Cloudflare ban (a 429 without Retry-After or
rate-limit headers, or an HTML page: `is_ban`) stops every call of the process, bot
token and webhooks, one probe at a time with a doubling backoff (`BanGate`). The whole call,
queue and tries, has a total deadline; a try still in discord.py's hands at the
deadline is left to finish there, not cancelled (cancelling it while discord.py waits
out a global 429 leaves discord.py's global lock shut for good), and the caller gets
`RestBusy`. What the waits cost a player is given back by timing rounds from when
their post appeared (`rules.RoundShown`). Interaction responses and webhook followups
are not under the bot token's global limit and do not go through here.

Discord bans an IP past 10,000 invalid requests (401, 403, 429) in 10 minutes: every
response is seen (`response_trace`, an aiohttp trace on discord.py's session), and
past `invalid_limit` in the last 10 minutes the optional lane refuses.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import aiohttp
import discord

from bot.play import (
    GLOBAL_LIMIT_PER_S,
    INVALID_LIMIT,
    SHARE_OF_GLOBAL,
    Bucket,
    BucketBusy,
    BudgetStats,
    Clock,
    Lane,
    PauseKind,
    RestBudget,
    RestBusy,
    StartRefused,
)

__all__ = [
    "GLOBAL_LIMIT_PER_S",
    "INVALID_LIMIT",
    "SHARE_OF_GLOBAL",
    "Bucket",
    "BucketBusy",
    "BudgetStats",
    "Lane",
    "PauseKind",
    "RestBudget",
    "RestBusy",
    "StartRefused",
    "admit_start",
    "edits_in",
    "followups_in",
    "followups_of",
    "followups_shared",
    "posts_in",
    "response_trace",
    "threads_in",
    "with_retry",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

BASE_DELAY = 0.5
DEADLINE_S = 30.0
"""How long one `with_retry` call may take in all: its wait in the queue and its tries."""
DISCORD_PY_RETRIES = frozenset({500, 502, 504, 524})
"""What discord.py's `HTTPClient.request` retries itself (5 tries): never again here."""
UNKNOWN_PAUSE_S = 1.0
"""A 429 that says nothing of how long to wait (no Retry-After) pauses this long."""


def posts_in(channel_id: int) -> Bucket:
    """The bucket of a channel's (or a thread's) new messages."""
    return Bucket("POST /channels/{channel_id}/messages", channel_id)


def edits_in(channel_id: int) -> Bucket:
    """The bucket of edits of a channel's messages."""
    return Bucket("PATCH /channels/{channel_id}/messages/{message_id}", channel_id)


def threads_in(channel_id: int) -> Bucket:
    """The bucket of new threads in a channel, from a message or not: Discord limits
    thread creation per server with long 429s of shared scope."""
    return Bucket("POST /channels/{channel_id}/threads", channel_id)


def followups_of(token: str) -> Bucket:
    """The bucket of one interaction's followups and edits (its token): Discord limits
    each interaction's webhook calls on their own."""
    return Bucket("/webhooks/{application_id}/{interaction_token}", zlib.crc32(token.encode()))


def followups_shared(token: str) -> Bucket:
    """Held while a 429 of shared scope on `token`'s followups lasts: the limit is the
    channel's, not the interaction's (`Followups` then holds `followups_in`)."""
    return Bucket(
        "/webhooks/{application_id}/{interaction_token} (shared)", zlib.crc32(token.encode())
    )


def followups_in(channel_id: int) -> Bucket:
    """The bucket of every interaction followup landing in a channel: private games
    put all their players' followups into the channel they started from."""
    return Bucket("followups in /channels/{channel_id}", channel_id)


def _webhook_token(path: str) -> str | None:
    """The token of a webhook call's path (/api/v10/webhooks/{id}/{token}/...), else None."""
    parts = path.split("/")
    if "webhooks" not in parts:
        return None
    at = parts.index("webhooks")
    return parts[at + 2] if len(parts) > at + 2 else None


def admit_start(budget: RestBudget, place: Bucket) -> None:
    """A new game's first bot-token calls (its thread in `place`) would go soon: else
    `BucketBusy` (that place is held: "try again in N minutes") or `StartRefused` (the
    process's backlog). Asked only of a game that will use the bot token: a private one
    rides its player's interactions and is never refused for a backlog it does not use."""
    held = budget.held_s(place)
    if held > 0:
        budget.refused_starts += 1
        raise BucketBusy(place, held)
    if not budget.admit_start():
        raise StartRefused(reason="the bot-token backlog would delay a first round")


def is_ban(status: int, headers: Mapping[str, str], content_type: str = "") -> bool:
    """Whether a 429 is Cloudflare's ban rather than Discord's limit: no Retry-After, no
    rate-limit header, or an HTML page."""
    if status != 429:
        return False
    limits = any(name.lower().startswith("x-ratelimit") for name in headers)
    return "Retry-After" not in headers or not limits or content_type == "text/html"


def response_trace(budget: RestBudget) -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's session (`http_trace=`), which carries every call
    of the process, bot token and interaction webhooks alike. Before a request leaves,
    a Cloudflare ban refuses it (`Banned`) unless it is the ban's one probe. Every
    response's status counts toward the invalid-request window, including the 429s
    discord.py waits out itself; a global 429 pauses the budget while discord.py waits
    it out; a ban's 429 stops every call; a webhook's 429 holds its interaction's
    followups (`followups_of`), which discord.py's webhook code would wait out uncapped."""
    trace = aiohttp.TraceConfig()

    async def on_request_start(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
    ) -> None:
        del session, params
        context.probe = budget.ban.enter()  # Banned: never sent
        context.sent_at = budget.clock()

    async def on_request_end(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        del session
        response = params.response
        headers = response.headers
        budget.saw_status(
            response.status, shared_scope=headers.get("X-RateLimit-Scope") == "shared"
        )
        if is_ban(response.status, headers, response.content_type):
            budget.saw_ban()
            return
        budget.ban.saw_answer(getattr(context, "sent_at", 0.0))
        if response.status == 429 and headers.get("X-RateLimit-Global"):
            budget.pause(_seconds(headers.get("Retry-After")), PauseKind.GLOBAL)
        elif response.status == 429 and (token := _webhook_token(params.url.path)):
            # discord.py's webhook code sleeps this out with no cap: `Followups` learns it here
            retry_after = _seconds(headers.get("Retry-After"))
            budget.hold(followups_of(token), retry_after)
            if headers.get("X-RateLimit-Scope") == "shared":
                budget.hold(followups_shared(token), retry_after)

    async def on_request_exception(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        del session, params
        budget.ban.gave_up(getattr(context, "probe", False))

    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_request_exception)
    return trace


def _seconds(text: str | None) -> float:
    try:
        return float(text) if text is not None else UNKNOWN_PAUSE_S
    except ValueError:
        return UNKNOWN_PAUSE_S


def _limited(budget: RestBudget, error: discord.HTTPException, bucket: Bucket | None) -> None:
    """A 429 raised to the caller: a ban's stops every call; Discord's own (its tries ran
    out) holds the caller's bucket for its Retry-After."""
    headers = getattr(error.response, "headers", None) or {}
    content_type = getattr(error.response, "content_type", "")
    if is_ban(429, headers, content_type if isinstance(content_type, str) else ""):
        budget.saw_ban()
    elif bucket is not None:
        budget.hold(bucket, _seconds(headers.get("Retry-After")))


def _ours_to_retry(error: BaseException) -> bool:
    """What discord.py raised without trying again: a 503 (or another 5xx it does not
    retry), or a connection that failed other than by a reset it retries."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 and error.status not in DISCORD_PY_RETRIES
    return isinstance(error, aiohttp.ClientError | OSError)


async def _try(
    call: Callable[[], Awaitable[T]], what: str, within: float, sleep: Callable[[float], Any]
) -> T:
    """One try, waited for `within` seconds at most; one still running then is left to
    finish in discord.py (its outcome is logged), never cancelled."""
    attempt: asyncio.Future[T] = asyncio.ensure_future(call())
    timer = asyncio.ensure_future(sleep(max(0.0, within)))
    try:
        await asyncio.wait({attempt, timer}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
    if attempt.done():
        return attempt.result()

    def finished(late: asyncio.Future[T]) -> None:
        if not late.cancelled() and late.exception() is not None:
            log.warning("%s: the try left at its deadline failed: %r", what, late.exception())
        else:
            log.info("%s: the try left at its deadline finished", what)

    attempt.add_done_callback(finished)
    raise RestBusy(reason=f"{what}: no answer within the deadline")


async def with_retry(
    call: Callable[[], Awaitable[T]],
    what: str,
    budget: RestBudget | None = None,
    *,
    lane: Lane = Lane.GAMES,
    deadline_s: float = DEADLINE_S,
    bucket: Bucket | None = None,
    through_pause: bool = True,
) -> T:
    """Run `call` within the budget and `deadline_s`, retrying only what discord.py does
    not (module docstring); the last failure is raised, `RestBusy` past the deadline.
    `bucket`: the rate limit `call` spends, which a long 429 holds (`BucketBusy`).
    Not `through_pause`: `Paused` instead of a wait for a 429's pause (`RestBudget.take`)."""
    clock: Clock = budget.clock if budget is not None else asyncio.get_running_loop().time
    sleep = budget.sleep if budget is not None else asyncio.sleep
    end = clock() + deadline_s
    attempt = 0
    while True:
        if budget is not None:
            await budget.take(
                lane, within=end - clock(), bucket=bucket, through_pause=through_pause
            )
        sent_at = clock()
        try:
            answer = await _try(call, what, end - clock(), sleep)
            if budget is not None:  # answered: a ban is over (the trace knows it first)
                budget.ban.saw_answer(sent_at)
            return answer
        except discord.RateLimited as limited:  # its bucket's alone (a global one: the trace)
            if budget is not None and budget.on_error is not None:
                budget.on_error(429)
            if budget is None or bucket is None:
                raise
            budget.hold(bucket, limited.retry_after)
            raise BucketBusy(bucket, limited.retry_after) from limited
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            status = error.status if isinstance(error, discord.HTTPException) else 0
            if budget is not None and budget.on_error is not None:
                budget.on_error(status)
            if status == 429:  # a ban, or discord.py's tries ran out: never retried here
                if budget is not None and isinstance(error, discord.HTTPException):
                    _limited(budget, error, bucket)
                raise
            delay = BASE_DELAY * 2**attempt
            if not _ours_to_retry(error) or clock() + delay >= end:
                raise
            log.warning("%s failed (%r); retry %d in %.1f s", what, error, attempt + 1, delay)
            await sleep(delay)
            attempt += 1
