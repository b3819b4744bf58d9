"""The store's side of issues 20 and 21, on SQLite and PostgreSQL: a taken-over daily
post says since when it may already be in its channel; a channel cleared with its
reason (and forgotten when an admin sets one); the day's players counted when all
lost; a void game is not voided twice; a voided duel's players leave the Elo board
unless they have another rated duel."""

from __future__ import annotations

from bot.storage import ChannelGone, PostClaim, Store
from tests.bot.storage.builders import DAY, GUILD, duel, record, single

KEY = (GUILD, "darts", DAY)
ADMIN = 99


async def test_a_claim_taken_over_says_when_it_was_first_made(store: Store) -> None:
    assert await store.servers.claim_post(KEY, "a", 1000.0, lease=300.0) == PostClaim()
    assert await store.servers.claim_post(KEY, "b", 1100.0, lease=300.0) is None
    # "a" again: its own done mark failed; it looks for its post before posting again
    assert await store.servers.claim_post(KEY, "a", 1200.0, lease=300.0) == PostClaim(1000.0)
    assert await store.servers.claim_post(KEY, "b", 1400.0, lease=300.0) is None
    assert await store.servers.claim_post(KEY, "b", 1501.0, lease=300.0) == PostClaim(1200.0)
    await store.servers.finish_post(KEY, "b", 5, 1502.0)
    assert await store.servers.claim_post(KEY, "a", 9999.0, lease=300.0) is None


async def test_a_cleared_channel_keeps_why_until_an_admin_sets_one(store: Store) -> None:
    await store.servers.update(GUILD, 10.0, channel_id=500, language="uk")
    assert not await store.servers.clear_channel(GUILD, 501, ChannelGone.FORBIDDEN, 20.0)
    assert (await store.servers.settings(GUILD)).channel_id == 500  # another channel: kept
    assert await store.servers.clear_channel(GUILD, 500, ChannelGone.FORBIDDEN, 30.0)
    settings = await store.servers.settings(GUILD)
    assert (settings.channel_id, settings.channel_since, settings.language) == (None, None, "uk")
    assert (settings.cleared_channel_id, settings.cleared_at) == (500, 30.0)
    assert settings.cleared_reason is ChannelGone.FORBIDDEN
    assert await store.servers.with_channel() == []
    assert not await store.servers.clear_channel(GUILD, None, ChannelGone.BOT_REMOVED, 40.0)
    await store.servers.update(GUILD, 50.0, timezone="Europe/Kyiv")  # not a channel choice
    assert (await store.servers.settings(GUILD)).cleared_reason is ChannelGone.FORBIDDEN
    await store.servers.update(GUILD, 60.0, channel_id=502)
    settings = await store.servers.settings(GUILD)
    assert (settings.channel_id, settings.cleared_channel_id, settings.cleared_reason) == (
        502,
        None,
        None,
    )
    assert await store.servers.clear_channel(GUILD, None, ChannelGone.BOT_REMOVED, 70.0)
    assert (await store.servers.settings(GUILD)).cleared_reason is ChannelGone.BOT_REMOVED


async def test_a_day_everyone_lost_counts_its_players(store: Store) -> None:
    await store.games.save_game(record(single("lost-on-time", 1, [], timeout=True)))
    await store.games.save_game(record(single("lost-later", 2, [100], timeout=True)))
    await store.games.save_game(record(single("still-playing", 3, [100])))
    summary = await store.servers.summary(GUILD, "darts", DAY)
    assert (summary.board, summary.players, summary.played) == ([], 0, 2)


async def test_a_void_game_is_not_voided_again(store: Store) -> None:
    await store.games.save_game(record(single("q1", 1, [100, 100, 100, 51])))
    assert await store.moderation.void_game(GUILD, "q1", ADMIN, "copied", 10.0)
    assert not await store.moderation.void_game(GUILD, "q1", ADMIN, "copied again", 11.0)
    log = await store.moderation.log(GUILD)
    assert [e.reason for e in log] == ["copied"]  # logged once


async def test_a_voided_duels_players_leave_the_board_unless_they_have_another(
    store: Store,
) -> None:
    first = record(duel("d1", (1, 2), [(701, 1234)]))
    second = record(duel("d2", (1, 3), [(701, 1234)]))
    for game in (first, second):
        await store.games.save_game(game)
        await store.boards.record_duel_result(game)
    assert await store.moderation.void_game(GUILD, "d1", ADMIN, "collusion", 10.0)
    board = {
        row.user_id: (row.games, row.wins) for row in await store.boards.duel_leaderboard(GUILD)
    }
    assert board == {1: (1, 1), 3: (1, 0)}  # player 2 had d1 only
    assert await store.boards.duel_count(GUILD) == 2
    assert await store.moderation.unvoid_game(GUILD, "d1", ADMIN, "fair after all", 11.0)
    assert await store.boards.duel_count(GUILD) == 3
