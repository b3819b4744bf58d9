"""The private phase of `bench_memory`: N private Trainings running on the real bot under
simcord, with discord.py's own objects, and who allocated what they hold.

The games' clock is `RealWorkEnv`'s (tests/support/sim.py): game time moves only when the
run moves it, so every round is still open at 'running' however slow the machine is. On
simcord's plain `Env` a settle's real-time fallback fired the round deadlines while a
loaded machine played round 1: a 500-game run held 156 games at 'running' and its figure
was per game started, not per game running.

Who allocated what (`traced`): each allocation goes to the innermost frame of its
traceback that belongs to simcord, discord.py, the bot or the database layers. A JSON
payload decoded, a dict or a task made by the standard library on behalf of one of them is
theirs; "other" is what has none of them on its stack (the event loop's own work).
Attributing by the allocating frame alone gave 15 of 28 MiB per 1,000 games to "the
standard library" and told nothing.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

MIB = 1024 * 1024
FRAMES = 25
"""Frames kept per traced allocation: deep enough to reach the caller through asyncio."""

OWNERS = ("simcord", "discord", "bot", "database")
_PARTS = {"simcord": "simcord", "discord": "discord", "bot": "bot", "sqlalchemy": "database",
          "aiosqlite": "database"}  # fmt: skip
MOMENTS = ("idle", "running", "ended", "warm", "running2", "ended2", "later")
"""When RSS and discord.py's objects are counted; 'warm' and 'ended2' after simcord's
logs and copies are let go; the '2' ones only with `batches=2`."""
DROPPED = "running-nologs"
"""'running' again once simcord's logs are let go (`drop_logs`); 'ended' comes after it."""
ENDED_DROPPED = "ended-nologs"
"""'ended' again once the logs of the ends (each /resign's calls) are let go too."""
WARM = MOMENTS[3]
"""'ended' again once simcord's copies of the ended games (their messages and
interactions, which Discord keeps, not a bot) are let go too: the warm idle, where a
second batch starts."""
TRACED = ("running", DROPPED, "ended", ENDED_DROPPED, WARM)
"""Traced moments of the first batch, each against 'idle'."""
TRACED2 = ("running2", "running2-nologs", "ended2")
"""Traced moments of the second batch (`batches=2`), each against the warm idle; its
'ended2' has the logs and copies let go, as the warm idle has."""


def owner(traceback: tracemalloc.Traceback) -> str:
    """The package of the innermost frame that is one of `OWNERS`' (tracemalloc lists
    frames oldest first), else "other"."""
    for frame in reversed(traceback):
        for part in Path(frame.filename).parts:
            if part in _PARTS:
                return _PARTS[part]
    return "other"


def by_owner(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot) -> dict[str, float]:
    """MiB added between two snapshots, by `owner`."""
    added = dict.fromkeys((*OWNERS, "other"), 0.0)
    for stat in after.compare_to(before, "traceback"):
        added[owner(stat.traceback)] += stat.size_diff / MIB
    return added


def alive() -> dict[str, int]:
    """discord.py's objects a game could leave behind, and the tasks, after a full GC."""
    import discord

    gc.collect()
    kinds = {"views": discord.ui.View, "interactions": discord.Interaction,
             "webhooks": discord.Webhook}  # fmt: skip
    counts = dict.fromkeys(kinds, 0)
    for thing in gc.get_objects():
        for name, kind in kinds.items():
            if isinstance(thing, kind):
                counts[name] += 1
    counts["tasks"] = len(asyncio.all_tasks())
    return counts


def resident(metrics: Any) -> float:
    gc.collect()
    value = metrics.registry.get_sample_value("process_resident_memory_bytes")
    return float(value) / MIB


@asynccontextmanager
async def memory_bot(db: Path, *, private: bool) -> AsyncIterator[tuple[Any, Any]]:
    """The real bot (`create_bot`, every cog) and its own `Metrics` (whose resident memory
    the phases read), on a SQLite file at `db` and the local PHP pool of 2 (processes of
    their own, not counted); private solo games or threads. Not yet on simcord."""
    from bot.app import create_bot
    from bot.observability import Metrics
    from bot.settings import BotSettings, SoloGames
    from bot.storage import open_store
    from evaluator import EvaluatorSettings, open_evaluator

    metrics = Metrics()
    settings = BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{db}",
        solo_games=SoloGames.PRIVATE if private else SoloGames.THREAD,
    )
    pool = EvaluatorSettings(evaluator="local", pool_size=2)
    async with await open_store(settings.database_url) as store, await open_evaluator(
        pool
    ) as evaluator:  # fmt: skip
        yield create_bot(settings, store=store, evaluator=evaluator, metrics=metrics), metrics


async def private(
    tmp: Path, count: int, *, traced: bool = False, batches: int = 1
) -> dict[str, float]:
    """`count` private Trainings started and round 1 answered, then each ended by /resign;
    with `batches=2`, then `count` more with other players the same way. RSS, discord.py's
    objects and (`traced`) the growth by owner at each moment.

    Tracing starts at 'idle', after the warm-up, so the snapshots hold only what was
    allocated since: what the games hold, not the whole process (tracing from the start
    with 25 frames took 2 GiB and most of an hour for 5 games on a loaded machine).

    Why a second batch: what one batch leaves after it ends is either held per game (a
    leak: a second batch leaves as much again) or the first use of something bounded
    (SQLAlchemy's and sqlite3's caches, discord.py's state, the evaluator's cache of
    checked formulas, the names of players seen lately): the second batch, measured
    against the warm idle the first left, tells which."""
    from tests.support.sim import RealWorkEnv

    async with memory_bot(tmp / "p.db", private=True) as (bot, metrics):
        env = RealWorkEnv(bot, shard_count=1)
        await env.start()
        guild = env.create_guild("Memory Club")
        channel = guild.create_text_channel("games")
        players = [guild.add_member(env.create_user(f"p{i}")) for i in range(batches * count + 1)]

        async def play_round_one(player: Any) -> None:
            started = await player.slash(channel, "training")
            # the round is one of the command's own messages, read as simcord holds it: the
            # channel's whole history made each start slower as games piled up, and built a
            # discord.py Message per message that simcord's record of the click then kept
            mine = [started.response, *started.followups]
            shown = [m for m in mine if m is not None and m.components][-1]
            fields = {field.name: field.value for field in shown.embeds[0].fields}
            ids = [c.get("custom_id") for row in shown.components for c in row["components"]]
            answer = next(i for i in ids if i and i.startswith("fd:ans:"))
            clicked = await player.click(shown, custom_id=answer)
            digits = (fields["Digits"] or "").strip("*")
            await player.submit_modal(clicked, {"formula": digits})

        seen: dict[str, tuple[float, dict[str, int]]] = {}
        snapshots: dict[str, tracemalloc.Snapshot] = {}

        def drop_logs() -> None:
            """Let go simcord's logs of every call and event (`http_requests`, and the
            `transcript`, which keeps each request's payload as discord.py built it, with
            the bot's strings in it): a test's record that no bot process has."""
            env.backend.http_requests.clear()
            env.backend.transcript.clear()

        def drop_copies() -> None:
            """Let go simcord's copies of what Discord keeps (every message, ephemeral
            ones too, and every interaction with its token), which share the bot's
            strings and payloads: only when no game runs, as they are the games' places."""
            for messages in env.backend.messages.values():
                messages.clear()
            env.backend.interactions.clear()
            env.backend.interaction_tokens.clear()

        def trace(moment: str) -> None:
            if traced:
                gc.collect()
                snapshots[moment] = tracemalloc.take_snapshot()

        def measure(moment: str) -> None:
            seen[moment] = (resident(metrics), alive())
            trace(moment)

        await play_round_one(players[0])  # warms every path
        await players[0].slash(channel, "resign")
        await env.advance_time(1)
        drop_logs()  # the warm-up's, and its copies: idle holds none of simcord's
        drop_copies()
        if traced:
            tracemalloc.start(FRAMES)
        measure("idle")
        held: list[int] = []
        for batch in range(batches):
            second = "2" if batch else ""
            playing = players[1 + batch * count : 1 + (batch + 1) * count]
            for player in playing:
                await play_round_one(player)
            measure(f"running{second}")
            held.append(len(bot.service.active))
            drop_logs()
            trace(f"running{second}-nologs")
            for player in playing:
                await player.slash(channel, "resign")
            await env.advance_time(1)
            if not second:
                measure("ended")
            drop_logs()
            if not second:
                trace(ENDED_DROPPED)
            drop_copies()
            measure(f"ended{second}" if second else WARM)
        await env.advance_time(16 * 60)
        measure("later")
        await env.shutdown()
    result: dict[str, float] = {f"held{i + 1}": n for i, n in enumerate(held)}
    for moment, (rss, counts) in seen.items():
        result[f"{moment}_rss"] = rss
        result |= {f"{moment}_{name}": n for name, n in counts.items()}
    if snapshots:
        for moment in TRACED:
            added = by_owner(snapshots["idle"], snapshots[moment])
            result |= {f"traced_{moment}_{k}": v for k, v in added.items()}
        for moment in TRACED2 if batches > 1 else ():
            added = by_owner(snapshots[WARM], snapshots[moment])
            result |= {f"traced_{moment}_{k}": v for k, v in added.items()}
    return result


def kept_via_bytes(count: int = 1000) -> float:
    """Bytes per `KeptVia` (bot/games/_riding.py), what a running private game keeps of
    its player's interaction: built from a followup `Webhook` the way
    `Interaction.followup` builds one (`Webhook.from_state` on the client's state), with
    one posted message, the `Webhook` itself let go as the bot does; traced over `count`
    (the tokens, which exist either way, made before tracing)."""
    import types

    import discord

    from bot.games._riding import KeptVia

    http = types.SimpleNamespace(
        _HTTPClient__session=object(), proxy=None, proxy_auth=None, token="bot-token"
    )  # fmt: skip
    state: Any = types.SimpleNamespace(http=http)
    tokens = [f"aW50ZXJhY3Rpb246{i:020d}:" + "x" * 150 for i in range(count)]
    app_id, channel_id, first_message = 1456074443980800000, 1456074443980800001, 1 << 60
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = []
    for i, token in enumerate(tokens):
        data: Any = {"id": app_id, "type": 3, "token": token}
        via = KeptVia(discord.Webhook.from_state(data, state), lambda: 0.0, 1e9 + i, channel_id)
        posted = first_message + i
        if isinstance(via.posted, set):  # the code before mem3 kept a set
            via.posted.add(posted)
        else:
            via.posted = (*via.posted, posted)
        kept.append(via)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    return sum(s.size_diff for s in after.compare_to(before, "filename")) / count
