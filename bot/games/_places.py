"""Where a game is played: the permissions it needs, checked first, and its thread.

Discord refuses a missing permission only when the call is made, by which time a
half-started game has posted in the channel or used a Qualification attempt. So
every start asks `interaction.app_permissions` (the bot's permissions in that
channel, which Discord sends with the interaction) before anything is created,
and names what is missing in the player's language.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import discord

from bot.games._discord import Bucket, RestBudget, threads_in, with_retry
from bot.play import GameError, Refusal
from rules import Mode

THREAD_EXISTS = 160004
"""Discord's code when a message already has a thread (a retried create that had landed)."""
TOO_MANY_THREADS = 160006
"""Discord's code when the server has as many active threads as it may."""
AUTO_ARCHIVE_MINUTES: Literal[60] = 60
"""A game's thread archives itself an hour after its last message: active threads are
capped per server (1,000), and a game lasts minutes, not a day."""

PLAYING = ("view_channel", "send_messages_in_threads", "embed_links", "read_message_history")
NEEDED: dict[Mode, tuple[str, ...]] = {
    Mode.TRAINING: (*PLAYING, "create_public_threads"),
    Mode.QUALIFICATION: (*PLAYING, "create_private_threads"),
    Mode.DUEL: (*PLAYING, "create_public_threads"),
    Mode.PRACTICE: (*PLAYING, "create_public_threads"),
}
POSTING = ("view_channel", "send_messages", "embed_links")
"""What a post in a channel (a Rematch challenge) needs."""
INVITE = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    manage_threads=True,
)
"""Everything the bot does in a channel; its value is the invite URL's `permissions`."""


def missing(permissions: discord.Permissions, needed: Iterable[str]) -> list[str]:
    """The names (discord.Permissions flags) of what `permissions` lacks of `needed`."""
    return [name for name in needed if not getattr(permissions, name)]


def require(permissions: discord.Permissions, needed: Iterable[str]) -> None:
    """GameError naming what is missing; the names are rendered in the reader's language."""
    lacking = missing(permissions, needed)
    if lacking:
        raise GameError(Refusal.MISSING_PERMISSIONS, permissions=lacking)


async def public_thread(message: discord.PartialMessage, name: str, budget: RestBudget) -> int:
    """A thread on `message`; one that a retry already made is reused.

    A partial message of a text channel: a webhook's message (a followup) carries no
    guild, and a thread needs one. A long 429 holds thread creation in that channel
    alone: `BucketBusy` ("try again in N minutes"), and the next start there is told
    so before anything is posted.
    """
    try:
        thread = await with_retry(
            lambda: message.create_thread(name=name, auto_archive_duration=AUTO_ARCHIVE_MINUTES),
            "creating a game thread",
            budget,
            bucket=threads_in(message.channel.id),
        )
    except discord.HTTPException as error:
        if error.code == THREAD_EXISTS:
            return message.id  # a thread made from a message has the message's id
        if error.code == TOO_MANY_THREADS:
            raise GameError(Refusal.THREAD_LIMIT) from error
        raise
    return thread.id


async def private_thread(
    channel: discord.TextChannel, name: str, player: discord.abc.Snowflake, budget: RestBudget
) -> int:
    """A private thread only its player (and the bot) can see; nobody can invite others."""
    try:
        thread = await with_retry(
            lambda: channel.create_thread(
                name=name,
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=AUTO_ARCHIVE_MINUTES,
            ),
            "creating a private game thread",
            budget,
            bucket=threads_in(channel.id),
        )
    except discord.HTTPException as error:
        if error.code == TOO_MANY_THREADS:
            raise GameError(Refusal.THREAD_LIMIT) from error
        raise
    members = Bucket("PUT /channels/{channel_id}/thread-members/{user_id}", thread.id)
    await with_retry(lambda: thread.add_user(player), "adding the player", budget, bucket=members)
    return thread.id
