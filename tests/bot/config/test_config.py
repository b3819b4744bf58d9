"""/config on simcord: hidden from players and refused to them anyway, a channel the bot
cannot post in named by its missing permission, timezones checked, a Kyiv day."""

from __future__ import annotations

import discord
import pytest

from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def admin(world):
    managers = world.guild.create_role(
        "Managers", permissions=discord.Permissions(manage_guild=True)
    )
    return world.guild.add_member(world.env.create_user("dana"), roles=[managers])


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
