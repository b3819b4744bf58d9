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


async def test_another_players_live_private_game_shows_only_that_it_goes_on(board) -> None:
    """Alice's Training in private messages: Bob's /game of it names no Digits and no
    formula until it ends; Alice's own /game shows her rounds."""
    import dataclasses

    import rules
    from bot.storage import GameMeta, GameRecord

    state = rules.new_game("priv0001abc", rules.Mode.TRAINING, rules.CLASSIC, [str(board.alice.id)])
    state = rules.apply(state, rules.StartRound("4589", 0.0))
    state = rules.apply(state, rules.Submit(str(board.alice.id), "4*5+89", 109, 5.0))
    state = rules.apply(state, rules.StartRound("7316", 200.0))
    record = GameRecord(
        state=state, guild_id=board.guild.id, channel_id=1, created_at=1_767_225_600.0,
        meta=GameMeta(private=True),
    )  # fmt: skip
    await board.store.games.save_game(record)
    seen = text(await board.bob.slash(board.channel, "game", id="priv0001"))
    assert "4589" not in seen and "4*5+89" not in seen and "7316" not in seen
    assert "played privately" in seen
    own = text(await board.alice.slash(board.channel, "game", id="priv0001"))
    assert "4*5+89" in own
    await board.store.games.save_game(dataclasses.replace(
        record, state=rules.apply(state, rules.Resign(str(board.alice.id))),
    ))  # fmt: skip
    ended = text(await board.bob.slash(board.channel, "game", id="priv0001"))
    assert "4*5+89" in ended
