"""Readers for what the bot answered (text, embeds, files) on simcord."""

from __future__ import annotations

import discord
import simcord


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    for field in embed.fields:
        parts.extend([field.name or "", field.value or ""])
    return "\n".join(parts)


def reply_text(result: simcord.InteractionResult) -> str:
    """Everything a user got back, response and followups, content and embeds."""
    messages = [result.response] if result.response is not None else []
    messages += result.followups
    parts: list[str] = []
    for message in messages:
        parts.append(message.content)
        parts.extend(embed_text(e) for e in message.embeds)
    return "\n".join(parts)


def only_ephemeral(result: simcord.InteractionResult) -> bool:
    messages = [result.response] if result.response is not None else []
    messages += result.followups
    return bool(messages) and all(m.ephemeral for m in messages)


def speak(env: simcord.Env, member: simcord.MemberActor, locale: str) -> None:
    """Give `member`'s interactions a Discord client locale (simcord sends en-US).

    The rewrite runs first among the backend's subscribers, before the bot's
    gateway sees the interaction.
    """

    def rewrite(event: str, payload: dict[str, object]) -> None:
        if event != "INTERACTION_CREATE":
            return
        member_data = payload.get("member") or {}
        user = member_data.get("user") if isinstance(member_data, dict) else None
        if isinstance(user, dict) and str(user.get("id")) == str(member.id):
            payload["locale"] = locale

    env.backend.subscribers.insert(0, rewrite)  # type: ignore[arg-type]


QUICK = {
    "name": "quick",
    "start_score": 301,
    "goal": 100,
    "bonus": 50,
    "max_rounds": 3,
    "time_limit": 60,
    "functions": "pow, abs",
}
"""A server Set: 301 in at most 3 rounds of 60 s, with abs besides pow."""
