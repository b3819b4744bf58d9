"""The simulated Discord every bot suite runs on (`RealWorkEnv`: it waits for the bot's real
work), small readers for what the bot posted, and a way to speak Ukrainian to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import simcord

from bot.play import game_time

REAL_WORK_S = 60.0
"""Real seconds a settle may wait for the bot's real work: longer than any real call's own
deadline (a reveal's solve 30 s, then PHP confirms it; a chart 10 s), so on a loaded machine
a slow call ends by the bot's own deadline, as in production, never by a test's.

Settling returns the moment the work is done, so the budget costs a healthy run nothing; it
only bounds how long a stuck bot takes to fail. simcord's 5 s default failed 14 tests of a
suite run beside other work, each while a real solve or PHP call was still running."""

GAME_TIME = "game time: only advance_time moves it"


class RealWorkEnv(simcord.Env):
    """simcord's `Env` that waits for the bot's real work as long as it takes, while the
    game's own clock stands still.

    simcord already waits for real work: the solver's process and chart threads run through
    `run_in_executor`, which it tracks as native work, and PHP's and node's pipes are tasks
    it waits on. What failed under load was its budget: 5 s for every settle, fixed for a
    start or restart (a restart that resumes a round and its solve). Here every settle has
    `REAL_WORK_S`.

    A longer settle alone would let game timers fire: simcord gives every virtual timer a
    real-time fallback, so a practice bot's "thinking" or a round's deadline would go off
    while a solve ran, and a test would see another game (a 60 s budget failed a practice
    test that way with no load at all). So the game's timers (`bot.play`'s `game_time`) are
    declared to simcord as `external_wait`s on game time: parked, moved only by
    `advance_time`. Real work is never declared so: that would park it too, and a settle
    would return before the reveal it waits for was posted."""

    def __init__(self, bot: discord.Client, **options: Any) -> None:
        options.setdefault("settle_timeout", REAL_WORK_S)
        super().__init__(bot, **options)
        self._kept_wait: Callable[[float], Awaitable[None]] | None = None

    async def start(self) -> None:
        self._kept_wait, game_time.wait = game_time.wait, self._game_time
        await super().start()

    async def shutdown(self) -> None:
        try:
            await super().shutdown()
        finally:
            if self._kept_wait is not None:
                game_time.wait, self._kept_wait = self._kept_wait, None

    async def _game_time(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        try:
            await self.external_wait(asyncio.sleep(seconds), reason=GAME_TIME)
        except simcord.SetupError:  # a test's own task, not the bot's: a plain wait
            await asyncio.sleep(seconds)

    async def _settle_internal(
        self,
        *,
        timeout: float | None = None,
        idle: float = 0.05,
        dispatch: str | None = None,
        _deadline: float | None = None,
    ) -> None:
        if timeout is not None:  # simcord's start and restart pass a fixed 5 s
            timeout = max(timeout, self.settle_timeout)
        await super()._settle_internal(
            timeout=timeout, idle=idle, dispatch=dispatch, _deadline=_deadline
        )


def button_id(message: discord.Message, prefix: str) -> str:
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None)
            if custom_id and custom_id.startswith(prefix):
                return str(custom_id)
    raise AssertionError(f"no {prefix} button on {message.content!r} {message.embeds!r}")


def answer_id(message: discord.Message) -> str:
    return button_id(message, "fd:ans:")


def reply_text(result: simcord.InteractionResult) -> str:
    """The (ephemeral) text a user got back, whether a response or a followup."""
    parts = []
    if result.response is not None:
        parts.append(result.response.content)
    parts.extend(message.content for message in result.followups)
    return "\n".join(parts)


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    for field in embed.fields:
        parts.extend([field.name or "", field.value or ""])
    if embed.footer and embed.footer.text:
        parts.append(embed.footer.text)
    return "\n".join(parts)


def message_text(message: discord.Message) -> str:
    return "\n".join([message.content, *(embed_text(e) for e in message.embeds)])


def round_messages(thread: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in thread.history() if any(c for c in m.components)]


def speak(env: simcord.Env, member: simcord.MemberActor, locale: str) -> None:
    """Make `member`'s interactions carry a Discord client locale.

    simcord 3.2 sends every interaction with locale en-US; this rewrites the
    payload before the bot's gateway feed sees it (it is first in line).
    """

    def rewrite(event: str, payload: Any) -> None:
        if event != "INTERACTION_CREATE":
            return
        member_data = payload.get("member") or {}
        user = member_data.get("user") or payload.get("user") or {}
        if str(user.get("id")) == str(member.id):
            payload["locale"] = locale

    env.backend.subscribers.insert(0, rewrite)


async def answer(
    actor: simcord.MemberActor, message: discord.Message, formula: str
) -> simcord.InteractionResult:
    """Click the round's Answer button and submit the modal."""
    shown = await actor.click(message, custom_id=answer_id(message))
    if shown.modal is None:
        return shown
    return await actor.submit_modal(shown, {"formula": formula})


def public_message(result: simcord.InteractionResult) -> discord.Message:
    """The public message a command posted besides its private reply (a challenge, a
    game's notice): the first followup that is not ephemeral."""
    for followup in result.followups:
        if not followup.ephemeral:
            return followup.message
    raise AssertionError(f"no public message in {result!r}")


def shown(result: simcord.InteractionResult) -> Any:
    """What the user sees as the command's answer: its public followup if it posted one
    (a page after a private deferral), else its response."""
    for followup in result.followups:
        if not followup.ephemeral:
            return followup
    assert result.response is not None, "the command did not answer"
    return result.response
