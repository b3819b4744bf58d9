"""Streaks read back from the store by /stats and the Qualification board (simcord).

simcord's clock is on 2026-01-01 (UTC). Alice finished on the 30th, the 31st and
today, and four days in a row earlier; a voided game on the 29th would join the
two runs if it counted. Bob played only on the 30th: missing the 31st broke it.
"""

from __future__ import annotations

from typing import Any

import discord

from tests.bot.leaderboards.games_played import CHECKOUT_4, NO_CHECKOUT, qualification
from tests.bot.leaderboards.test_leaderboards_cog import line_of, text

ALICE_DAYS = ["2025-12-24", "2025-12-25", "2025-12-26", "2025-12-27", "2025-12-30", "2025-12-31"]


async def _fill(board: Any) -> None:
    guild, a, b = board.guild.id, board.alice.id, board.bob.id
    for index, day in enumerate(ALICE_DAYS):
        results = NO_CHECKOUT if index % 2 else CHECKOUT_4  # all rounds played counts too
        await qualification(board.store, guild, f"a-{day}", a, results, period=day)
    await qualification(board.store, guild, "a-today", a, CHECKOUT_4)
    await qualification(board.store, guild, "a-void-28", a, CHECKOUT_4, period="2025-12-28")
    await qualification(board.store, guild, "a-void-29", a, CHECKOUT_4, period="2025-12-29")
    for game_id in ("a-void-28", "a-void-29"):
        assert await board.store.moderation.void_game(guild, game_id, 1, "cheating", 0.0)
    await qualification(board.store, guild, "b-30", b, CHECKOUT_4, period="2025-12-30")
    await qualification(board.store, guild, "b-today", b, CHECKOUT_4)


async def test_stats_show_the_current_and_the_longest_streak(board) -> None:
    await _fill(board)
    stats = text(await board.bob.slash(board.channel, "stats", user=board.alice))
    assert "Qualification streaks" in stats
    assert "**darts**: 3\u00a0days now · longest 4\u00a0days" in stats
    bobs = text(await board.bob.slash(board.channel, "stats"))
    assert "**darts**: 1\u00a0day now · longest 1\u00a0day" in bobs  # today's game
    carol = text(await board.carol.slash(board.channel, "stats"))
    assert "streaks" not in carol


async def test_the_board_shows_each_players_current_streak(board) -> None:
    await _fill(board)
    await qualification(board.store, board.guild.id, "c-old", board.carol.id, CHECKOUT_4,
                        period="2025-12-31")  # fmt: skip
    shown = text(await board.carol.slash(board.channel, "leaderboard qualification", period="all"))
    lines = shown.splitlines()
    assert f"{board.alice.mention} 🔥3 —" in lines[line_of(shown, board.alice.mention)]
    assert f"{board.bob.mention} 🔥1 —" in lines[line_of(shown, board.bob.mention)]
    assert f"{board.carol.mention} 🔥1 —" in lines[line_of(shown, board.carol.mention)]


async def test_ukrainian_streaks_use_the_plural_forms(board) -> None:
    await _fill(board)

    def rewrite(event: str, payload: Any) -> None:
        if event == "INTERACTION_CREATE":
            payload["locale"] = discord.Locale.ukrainian.value

    board.env.backend.subscribers.insert(0, rewrite)
    stats = text(await board.alice.slash(board.channel, "stats"))
    assert "Серії Кваліфікацій" in stats
    assert "**darts**: зараз 3\u00a0дні · найдовша 4\u00a0дні" in stats


async def test_stats_count_the_days_of_the_servers_timezone(board) -> None:
    """Kyiv is two hours ahead: at 22:30 UTC its day 2026-01-02 has begun; /stats counts
    the same days as the board (the server's), not UTC's."""
    await board.store.servers.update(board.guild.id, 0.0, timezone="Europe/Kyiv")
    await board.env.advance_time(22.5 * 3600)
    guild, a = board.guild.id, board.alice.id
    for day in ("2025-12-31", "2026-01-01", "2026-01-02"):
        await qualification(board.store, guild, f"k-{day}", a, CHECKOUT_4, period=day)
    stats = text(await board.bob.slash(board.channel, "stats", user=board.alice))
    assert "**darts**: 3\u00a0days now" in stats
