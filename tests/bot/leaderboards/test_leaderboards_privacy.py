"""Someone else's /stats and /history answer only the one who asked, unless they ask to
share it; your own are posted for the channel, as before."""

from __future__ import annotations

from tests.bot.leaderboards.games_played import CHECKOUT_4, qualification
from tests.bot.leaderboards.test_leaderboards_cog import text
from tests.support.sim import shown


async def test_another_players_stats_and_history_are_private_unless_shared(board) -> None:
    a, b = board.alice, board.bob
    await qualification(board.store, board.guild.id, "q-perfect", a.id, CHECKOUT_4)
    for command in ("stats", "history"):
        other = await b.slash(board.channel, command, user=a)
        assert shown(other).ephemeral, command
        assert "alice" in text(other), command
        shared = await b.slash(board.channel, command, user=a, share=True)
        assert not shown(shared).ephemeral, command
        mine = await a.slash(board.channel, command)
        assert not shown(mine).ephemeral, command
        named_self = await a.slash(board.channel, command, user=a)
        assert not shown(named_self).ephemeral, command


async def test_the_share_option_is_named_in_ukrainian(board) -> None:
    from bot.i18n import catalog

    assert catalog().messages["commands.details.option.share.name"]["uk"] == "поділитися"
