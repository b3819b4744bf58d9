"""What a chaos run must still hold when it ends (tests/support/chaos.py plays it).

Each invariant reads what the players can see (simcord's channels) and what the store
keeps, never the bot's memory: a promise is kept when both agree with the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
import sqlalchemy as sa

from bot.daily._render import marked
from bot.storage import GameRecord, Store
from tests.support.sim import message_text

if TYPE_CHECKING:
    from tests.support.chaos import Chaos


async def all_games(store: Store) -> list[GameRecord]:
    async with store.engine.connect() as conn:
        ids = [row[0] for row in await conn.execute(sa.text("SELECT id FROM games"))]
    games = [await store.games.load_game(game_id) for game_id in ids]
    return [g for g in games if g is not None]


async def finished_qualifications(store: Store) -> list[GameRecord]:
    return [
        g for g in await all_games(store)
        if g.period is not None and g.state.outcome is not None
    ]  # fmt: skip


def _is_summary(message: discord.Message, game_id: str = "") -> bool:
    """A game's summary; with `game_id`, that game's (a Cup's match thread holds several
    legs' summaries; each footer names its game)."""
    return any(
        "game over" in (e.title or "") and game_id[:8] in (e.footer.text or "")
        for e in message.embeds
    )


async def invariants(chaos: Chaos) -> list[str]:
    """Every promise the run broke, each a line naming the game or the post."""
    broken: list[str] = []
    store = chaos.store
    games = await all_games(store)
    for record in games:
        game = record.state.id
        outcome = record.state.outcome
        if outcome is None:
            broken.append(f"{game}: never ended")
            continue
        thread = chaos.thread_of(record)
        history = thread.history() if thread is not None else []
        summaries = [m for m in history if _is_summary(m, game)]
        void = outcome.termination.value == "void"
        if len(summaries) > 1 or (not void and len(summaries) != 1):
            broken.append(f"{game}: {len(summaries)} summaries for one {outcome.termination}")
        shown_rounds = [message_text(m) for m in history if not _is_summary(m)]
        for rnd in record.state.rounds:
            timed_out = any(a is not None and a.auto for a in rnd.answers) or (
                outcome.termination.value == "timeout" and rnd.number == len(record.state.rounds)
            )
            if not timed_out:
                continue
            if not any(rnd.digits in text and str(rnd.number) in text for text in shown_rounds):
                broken.append(f"{game}: round {rnd.number} ({rnd.digits}) lost on time unseen")
    ratings = await store.boards.duel_leaderboard(chaos.guild.id, limit=1000)
    drift = sum(row.rating - 1000 for row in ratings)
    if drift != 0:
        broken.append(f"Elo is not zero-sum: {drift:+d} over {len(ratings)} players")
    broken += await _attempts(chaos, games)
    broken += _daily_posts(chaos, games)
    broken += [f"Digits of a running period shown: {leak}" for leak in chaos.leaks]
    broken += [
        f"a player saw a traceback: {text[:200]}" for text in chaos.seen if "Traceback" in text
    ]
    return broken


async def _attempts(chaos: Chaos, games: list[GameRecord]) -> list[str]:
    broken = []
    qualifications = [g for g in games if g.period is not None]
    keys = {(g.state.players[0], g.state.game_set.name, g.period) for g in qualifications}
    for player, set_name, period in sorted(keys, key=str):
        assert period is not None
        mine = [
            g for g in qualifications
            if (g.state.players[0], g.state.game_set.name, g.period) == (player, set_name, period)
        ]  # fmt: skip
        counted = [g for g in mine if g.state.outcome and g.state.outcome.termination != "void"]
        used = await chaos.store.games.count_attempts(chaos.guild.id, int(player), set_name, period)
        if used != len(counted):
            broken.append(f"{player} {period}: {used} attempts used for {len(counted)} games")
        ranked = [g for g in counted if g.state.outcome and g.state.outcome.winner == 0]
        if ranked:
            board = await chaos.store.boards.qualification_leaderboard(
                chaos.guild.id, set_name, period, limit=1000,
                version=ranked[0].state.game_set.version,
            )  # fmt: skip
            if not any(str(row.user_id) == player for row in board):
                broken.append(f"{player} {period}: a ranked game is not on the board")
    return broken


def _daily_posts(chaos: Chaos, games: list[GameRecord]) -> list[str]:
    """Each day's post made once, found as the bot finds it: by the marker its footer
    carries (`DailyContent.marker`), not by its title, whose date is written for readers."""
    posts = list(chaos.board.history())
    broken = []
    played = {(g.state.game_set.name, g.period) for g in games if g.period is not None}
    for set_name, period in sorted(played, key=str):
        made = [m for m in posts if marked(m, f"{set_name}/{period}")]
        if len(made) != 1:
            broken.append(f"daily post of {set_name} {period}: made {len(made)} times")
    return broken
