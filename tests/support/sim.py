"""Small readers for what the bot posted, and a way to speak Ukrainian to it."""

from __future__ import annotations

from typing import Any

import discord
import simcord


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
