"""/config on simcord: hidden from players and refused to them anyway, a channel the bot
cannot post in named by its missing permission, timezones checked, a Kyiv day."""

from __future__ import annotations

from datetime import UTC, datetime

import discord
import pytest

from tests.support.sim import message_text, reply_text, shown, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_config_is_hidden_from_players_and_shows_the_defaults(world, admin) -> None:
    assert "config show" in admin.available_commands(world.channel)
    assert not any(c.startswith("config") for c in world.carol.available_commands(world.channel))
    text = reply_text(await admin.slash(world.channel, "config show"))
    assert "Daily post: off" in text and "`UTC`" in text


async def test_a_channel_without_embed_links_is_refused_naming_it(world, admin) -> None:
    speak(world.env, admin, "uk")
    board = world.guild.create_text_channel(
        "board", overwrites={world.guild.me: discord.PermissionOverwrite(embed_links=False)}
    )
    refused = reply_text(await admin.slash(world.channel, "config channel", channel=board))
    assert "бракує дозволу «Вбудовувати посилання»" in refused
    assert (await world.store.servers.settings(world.guild.id)).channel_id is None
    ok = reply_text(await admin.slash(world.channel, "config channel", channel=world.channel))
    assert f"<#{world.channel.id}>" in ok
    stored = await world.store.servers.settings(world.guild.id)
    assert stored.channel_id == world.channel.id


async def test_timezones_are_checked_and_completed(world, admin) -> None:
    refused = reply_text(
        await admin.slash(world.channel, "config timezone", timezone="Mars/Olympus")
    )
    assert "`Mars/Olympus` is not a timezone I know" in refused
    set_ = reply_text(await admin.slash(world.channel, "config timezone", timezone="Europe/Kyiv"))
    assert "`Europe/Kyiv`" in set_
    assert (await world.store.servers.settings(world.guild.id)).timezone == "Europe/Kyiv"
    language = reply_text(await admin.slash(world.channel, "config language", language="uk"))
    assert "Language of public messages: Ukrainian" in language


async def test_a_kyiv_server_starts_its_qualification_day_at_kyiv_midnight(world, admin) -> None:
    """simcord's clock starts at 2026-01-01 00:00 UTC, 02:00 in Kyiv (UTC+2 in winter)."""
    await admin.slash(world.channel, "config timezone", timezone="Europe/Kyiv")
    await world.alice.slash(world.channel, "qualification")
    first = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert first.period == "2026-01-01"
    await world.alice.slash(world.channel, "resign")
    game = shown(await world.bob.slash(world.channel, "game", id=first.state.id[:8]))
    kyiv_midnight = int(datetime(2026, 1, 1, 22, tzinfo=UTC).timestamp())
    assert f"<t:{kyiv_midnight}:R>" in message_text(game)
    await world.env.advance_time(21.9 * 3600)  # 23:54 in Kyiv: the day's attempt is used
    assert "Qualification" in reply_text(await world.alice.slash(world.channel, "qualification"))
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    await world.env.advance_time(0.2 * 3600)  # 00:06 on 2 January in Kyiv, 22:06 UTC
    await world.alice.slash(world.channel, "qualification")
    second = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert second is not None and second.period == "2026-01-02"


async def test_a_server_language_is_the_language_of_its_public_game_messages(world, admin) -> None:
    await admin.slash(world.channel, "config language", language="uk")
    started = reply_text(await world.alice.slash(world.channel, "training"))
    assert "Your game is in" in started  # her own reply stays in her language
    assert "раунд 1 з" in message_text(world.thread().last_message)


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        ("view_channel", "View Channel"),
        ("send_messages", "Send Messages"),
        ("attach_files", "Attach Files"),
        ("read_message_history", "Read Message History"),
    ],
)
async def test_each_permission_the_post_needs_is_named_when_missing(
    world, admin, denied, named
) -> None:
    closed = world.guild.create_text_channel(
        "closed", overwrites={world.guild.me: discord.PermissionOverwrite(**{denied: False})}
    )
    refused = reply_text(await admin.slash(world.channel, "config channel", channel=closed))
    assert f"I lack the “{named}” permission in that channel" in refused


async def test_a_member_granted_the_command_without_manage_server_is_refused(world) -> None:
    [config] = [c for c in await world.bot.tree.fetch_commands() if c.name == "config"]
    world.guild.set_command_permissions(config, {world.carol: True})
    assert "config show" in world.carol.available_commands(world.channel)
    refused = reply_text(
        await world.carol.slash(world.channel, "config timezone", timezone="Europe/Kyiv")
    )
    assert "Only members with Manage Server can change these settings." in refused
    assert (await world.store.servers.settings(world.guild.id)).timezone == "UTC"


async def test_timezone_completion_puts_the_common_names_first() -> None:
    from bot.config import zone_choices

    assert zone_choices("kyiv") == ["Europe/Kyiv"]
    assert zone_choices("")[:2] == ["UTC", "Europe/Kyiv"]
    assert len(zone_choices("america")) == 25


async def test_a_zone_whose_date_is_behind_is_refused_until_its_midnight(world, admin) -> None:
    """03:00 UTC on 1 January: Los Angeles is still on 31 December, a day that ended here."""
    await world.env.advance_time(3 * 3600)
    refused = reply_text(
        await admin.slash(world.channel, "config timezone", timezone="America/Los_Angeles")
    )
    la_midnight = int(datetime(2026, 1, 1, 8, tzinfo=UTC).timestamp())
    assert "it is still December 31, 2025 there" in refused and f"<t:{la_midnight}:f>" in refused
    assert (await world.store.servers.settings(world.guild.id)).timezone == "UTC"
    speak(world.env, admin, "uk")
    honolulu = await admin.slash(world.channel, "config timezone", timezone="Pacific/Honolulu")
    uk = reply_text(honolulu)
    assert "Поки що не можу перейти на `Pacific/Honolulu`: там ще 31 грудня 2025\u202fр.," in uk
    assert "р.." not in uk
    ahead = reply_text(await admin.slash(world.channel, "config timezone", timezone="Asia/Tokyo"))
    assert "`Asia/Tokyo`" in ahead  # 12:00 on 1 January there: the same day, longer
    await admin.slash(world.channel, "config timezone", timezone="UTC")  # and back: the same
    await world.env.advance_time(5 * 3600 + 60)  # 08:01 UTC, 00:01 on 1 January in LA
    speak(world.env, admin, "en")
    await admin.slash(world.channel, "config timezone", timezone="America/Los_Angeles")
    assert (await world.store.servers.settings(world.guild.id)).timezone == "America/Los_Angeles"


async def test_a_server_of_a_thread_bot_may_choose_private_games(world, admin) -> None:
    """The suites' bot plays threads (SOLO_GAMES=thread); a server's `/config games
    place:private` plays its solo games privately, costing no bot-token call."""
    from tests.bot.games.test_interaction_rounds import bot_token_calls

    settings = await admin.slash(world.channel, "config show")
    assert "in a thread per game, the bot's default" in reply_text(settings)
    await admin.slash(world.channel, "config games", place="private")
    since = len(world.env.http_requests)
    started = await world.alice.slash(world.channel, "training")
    assert started.response is not None and started.response.ephemeral
    assert "round 1 of 7" in started.response.embeds[0].title
    assert not world.channel.threads and bot_token_calls(world.env, since) == []
