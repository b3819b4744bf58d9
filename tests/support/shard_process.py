"""One bot process for some shards, driven by a test over stdin/stdout (JSON lines).

    python -m tests.support.shard_process --database URL --shard-count 2 --shard-ids 1 \
        [--sets FILE] [--at SECONDS]

simcord allows one environment per event loop, so two shard processes are two OS
processes, each with its own simulated Discord and virtual clock, on one PostgreSQL.
Each environment holds the same world: one server per shard (`shard-0`, `shard-1`, ids
on their shard by `(guild_id >> 22) % count`), a `games` channel in each and the same
players. simcord's clock starts at the same instant and hands out ids in order, so
building the world first, before anything else, gives every process the same ids, as
one Discord would. A process's gateway only carries its own shards' servers (simcord
routes by the same formula), so a command there reaches the owner alone.

`--at` starts a process again after a crash: the world is built as before, the game
threads that Discord still has (the active games' channels in the database) are put
back under their ids, the clock moves on to `--at`, then the bot starts and recovers.
Discord keeps the commands one process synced; a fresh environment has none, so the
driver syncs the tree into it once the bot is up.

Every command gets one reply line, `{"ok": true, ...}` or `{"ok": false, "error": ...}`:
- `{"op": "world"}`: guild, channel and user ids.
- `{"op": "training", "shard": 0, "player": "alice"}`: /training; the game and thread.
- `{"op": "duel", "shard": 0, "player": "bob", "opponent": "carol", "set": "darts"}`:
  /duel and its acceptance; the game and thread.
- `{"op": "advance", "seconds": 60}`: virtual time passes.
- `{"op": "report"}`: what this process holds and times, what it wrote where, errors.
- `{"op": "stop"}`: a clean shutdown.
Between commands the loop waits on stdin: virtual time stands still meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord

from bot.app import create_bot
from bot.settings import BotSettings, SoloGames
from bot.sharding import shard_of
from bot.storage import Store, open_store
from evaluator import EvaluatorSettings, open_evaluator
from tests.support.sim import RealWorkEnv, button_id, public_message

PLAYERS = ("alice", "bob", "carol")


@dataclass
class World:
    guilds: dict[int, simcord.GuildHandle] = field(default_factory=dict)
    channels: dict[int, simcord.ChannelHandle] = field(default_factory=dict)
    players: dict[str, dict[int, simcord.MemberActor]] = field(default_factory=dict)


def build_world(env: simcord.Env, shard_count: int) -> World:
    """The same servers, channels and players, in the same order, in every process."""
    world = World()
    users = {name: env.create_user(name) for name in PLAYERS}
    for shard in range(shard_count):
        guild = env.create_guild(f"shard-{shard}", shard_id=shard)
        world.guilds[shard] = guild
        world.channels[shard] = guild.create_text_channel("games")
        for name, user in users.items():
            world.players.setdefault(name, {})[shard] = guild.add_member(user)
    return world


async def restore_threads(env: simcord.Env, world: World, store: Store, owned: set[int]) -> int:
    """Put back the threads of this process's running games: Discord kept them while the
    bot was down, but this environment is new."""
    restored = 0
    by_guild = {guild.id: shard for shard, guild in world.guilds.items()}
    for record in await store.games.active_games():
        shard = by_guild.get(record.guild_id)
        if shard is None or shard not in owned:
            continue
        parent = world.channels[shard]
        env.backend.create_thread(
            parent.id,
            f"game {record.state.id[:8]}",
            env.backend.bot_user.id,
            message_id=record.channel_id,  # a thread started on a message takes its id
            broadcast=False,
        )
        restored += 1
    return restored


class Written:
    """What the bot posted or edited, per channel, as text (gateway events it caused)."""

    def __init__(self, bot_id: int) -> None:
        self.bot_id = bot_id
        self.by_channel: dict[str, list[str]] = {}

    def __call__(self, event: str, payload: Any) -> None:
        if event not in {"MESSAGE_CREATE", "MESSAGE_UPDATE"}:
            return
        author = (payload.get("author") or {}).get("id")
        if str(author) != str(self.bot_id):
            return
        parts = [payload.get("content") or ""]
        for embed in payload.get("embeds") or []:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
        self.by_channel.setdefault(str(payload["channel_id"]), []).append("\n".join(parts))


class Driver:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.owned = {int(i) for i in args.shard_ids.split(",")}

    async def run(self) -> None:
        settings = BotSettings(
            discord_token=None,
            database_url=self.args.database,
            dev_guild_id=None,
            metrics_port=None,
            shard_count=self.args.shard_count,
            shard_ids=self.args.shard_ids,
            sets_file=self.args.sets,
            solo_games=SoloGames.THREAD,
        )
        local = EvaluatorSettings(evaluator="local", pool_size=1)
        async with await open_store(settings.database_url) as store, await open_evaluator(
            local
        ) as evaluator:  # fmt: skip
            bot = create_bot(settings, store=store, evaluator=evaluator)
            env = RealWorkEnv(bot)
            self.world = build_world(env, self.args.shard_count)
            restored = await restore_threads(env, self.world, store, self.owned)
            if self.args.at:
                env.backend.clock.advance(self.args.at)
            self.written = Written(env.backend.bot_user.id)
            env.backend.subscribers.insert(0, self.written)
            await env.start()
            await bot.tree.sync()
            self.env, self.bot, self.store = env, bot, store
            reply({"ok": True, "ready": True, "restored": restored, **self._world()})
            try:
                await self._serve()
            finally:
                await env.shutdown()

    async def _serve(self) -> None:
        for line in sys.stdin:  # blocking on purpose: nothing runs between commands
            if not line.strip():
                continue
            command = json.loads(line)
            op = command.pop("op")
            if op == "stop":
                reply({"ok": True})
                return
            handlers: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
                "world": self.op_world,
                "training": self.op_training,
                "duel": self.op_duel,
                "advance": self.op_advance,
                "report": self.op_report,
            }
            try:
                answer = await handlers[op](**command)
            except Exception as exc:  # a bad command is the test's to see, not a crash
                logging.exception("command %s failed", op)
                reply({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
            else:
                reply({"ok": True, **answer})

    def _world(self) -> dict[str, Any]:
        return {
            "guilds": {str(s): g.id for s, g in self.world.guilds.items()},
            "channels": {str(s): c.id for s, c in self.world.channels.items()},
            "users": {name: m[0].id for name, m in self.world.players.items()},
            "now": self.env.backend.clock.elapsed,
        }

    async def op_world(self) -> dict[str, Any]:
        return self._world()

    async def _game(self, shard: int, player: str) -> dict[str, Any]:
        guild = self.world.guilds[shard]
        record = await self.store.games.active_game_of(
            guild.id, self.world.players[player][shard].id
        )
        assert record is not None, f"no game for {player} on shard {shard}"
        assert shard_of(record.guild_id, self.args.shard_count) == shard
        return {"game": record.state.id, "thread": record.channel_id, "guild": guild.id}

    async def op_training(self, shard: int, player: str, set: str = "darts") -> dict[str, Any]:
        actor = self.world.players[player][shard]
        await actor.slash(self.world.channels[shard], "training", set=set)
        return await self._game(shard, player)

    async def op_duel(
        self, shard: int, player: str, opponent: str, set: str = "darts"
    ) -> dict[str, Any]:
        challenger = self.world.players[player][shard]
        accepting = self.world.players[opponent][shard]
        sent = await challenger.slash(
            self.world.channels[shard], "duel", opponent=accepting, set=set
        )
        message = public_message(sent)
        yes = button_id(message, "fd:duel:yes:")
        await accepting.click(message, custom_id=yes)
        return await self._game(shard, player)

    async def op_advance(self, seconds: float) -> dict[str, Any]:
        await self.env.advance_time(seconds)
        return {"now": self.env.backend.clock.elapsed}

    async def op_report(self) -> dict[str, Any]:
        service = self.bot.service
        held = sorted(r.state.id for r in service.active)
        return {
            "now": self.env.backend.clock.elapsed,
            "held": held,
            "armed": [g for g in held if service.flow.timers.armed(g)],
            "written": self.written.by_channel,
            "errors": [repr(e) for e in self.env.errors],
        }


def reply(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True)
    parser.add_argument("--shard-count", type=int, required=True)
    parser.add_argument("--shard-ids", required=True)
    parser.add_argument("--sets", type=Path, default=None)
    parser.add_argument("--at", type=float, default=0.0, help="virtual seconds to start at")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(Driver(args).run())


if __name__ == "__main__":
    main()
