"""Rooms in the chaos walk (tests/support/chaos.py): players open rooms, join, start them,
answer in secret, leave, and let deadlines auto-move, among the walk's faults, restarts
and crashes. What it opened is kept here, for `chaos_room_invariants` to find every one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.storage import RoomRecord
from rules.room_state import Phase

if TYPE_CHECKING:
    from tests.support.chaos import Chaos


def button(message: discord.Message, prefix: str) -> str | None:
    """The custom_id of the message's button starting with `prefix`, if it has one."""
    for row in message.components:
        for child in getattr(row, "children", []):
            custom_id = getattr(child, "custom_id", None) or ""
            if custom_id.startswith(prefix):
                return str(custom_id)
    return None


@dataclass
class RoomWalk:
    """The walk's room moves; `opened` holds every room whose lobby a player saw."""

    chaos: Chaos
    opened: set[str] = field(default_factory=set)

    async def step(self) -> None:
        chaos = self.chaos
        rooms = await chaos.quietly(chaos.store.rooms.open_rooms())
        lobbies = [r for r in rooms if r.state.phase is Phase.LOBBY]
        playing = [r for r in rooms if r.state.phase is Phase.PLAYING]
        roll = chaos.side.random()
        if playing and roll < 0.7:
            await self._in_play(chaos.side.choice(playing))
        elif lobbies:
            await self._in_lobby(chaos.side.choice(lobbies))
        elif len(rooms) < 2:
            await self._open()

    async def _open(self) -> None:
        chaos = self.chaos
        host = chaos.side.choice(chaos.players)
        size = chaos.side.randint(3, len(chaos.players))
        result = await host.slash(chaos.channel, "room", size=size)
        chaos.saw(result)
        if result.response is not None:
            custom_id = button(result.response.message, "fd:room:join:")
            if custom_id is not None:
                self.opened.add(custom_id.split(":")[3])

    def _message(self, channel_id: int | None, message_id: int | None) -> discord.Message | None:
        chaos = self.chaos
        places = [chaos.channel, *chaos.channel.threads]
        channel = next((c for c in places if c.id == channel_id), None)
        if channel is None or message_id is None:
            return None
        return next((m for m in channel.history() if m.id == message_id), None)

    async def _in_lobby(self, record: RoomRecord) -> None:
        """Someone joins; now and then the host starts it, or a player leaves."""
        chaos = self.chaos
        lobby = self._message(record.channel_id, record.lobby_message_id)
        if lobby is None:
            return
        joined = set(record.state.players)
        outside = [p for p in chaos.players if str(p.id) not in joined]
        inside = [p for p in chaos.players if str(p.id) in joined]
        roll = chaos.side.random()
        if outside and roll < 0.7:
            await self.chaos.press(chaos.side.choice(outside), lobby, "fd:room:join:")
        elif roll < 0.9 and len(inside) >= 2:
            host = next((p for p in inside if str(p.id) == record.state.host), inside[0])
            await self.chaos.press(host, lobby, "fd:room:start:")
        elif inside:
            await self.chaos.press(chaos.side.choice(inside), lobby, "fd:room:leave:")

    async def _in_play(self, record: RoomRecord) -> None:
        """A player still in answers the live round in secret (now and then wrongly, or
        twice); one in twenty leaves the room; the rest is left to the deadline."""
        chaos = self.chaos
        current = record.state.current_round
        message = self._message(record.thread_id, record.round_message_id)
        if current is None or message is None:
            return
        still_in = {record.state.players[i] for i in record.state.still_in}
        members = [p for p in chaos.players if str(p.id) in still_in]
        if not members:
            return
        member = chaos.side.choice(members)
        if chaos.side.random() < 0.05:
            await self.chaos.press(member, message, "fd:room:quit:")
            return
        custom_id = button(message, "fd:room:answer:")
        if custom_id is None:
            return
        shown = await member.click(message, custom_id=custom_id)
        if shown.modal is None:
            chaos.saw(shown)
            return
        formula = chaos.formula(current.digits, chaos.side)
        chaos.saw(await member.submit_modal(shown, {"formula": formula}))
