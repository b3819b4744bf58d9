"""`/admin fairplay` on simcord: Manage Server only (refused in the asker's language), a
player with no games, and a player whose rounds all match the best with formulas unlike
their own standing out against the server's players, in words that are not a verdict."""

from __future__ import annotations

import pytest

from tests.bot.moderation.test_fairplay import PLAIN, SOLVED, played
from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_admin_fairplay_is_hidden_from_players(world, admin) -> None:
    assert "admin fairplay" in admin.available_commands(world.channel)
    assert "admin fairplay" not in world.alice.available_commands(world.channel)


async def test_a_member_granted_admin_without_manage_server_is_refused_in_their_language(
    world,
) -> None:
    [group] = [c for c in await world.bot.tree.fetch_commands() if c.name == "admin"]
    world.guild.set_command_permissions(group, {world.alice: True})
    speak(world.env, world.alice, "uk")
    refused = reply_text(await world.alice.slash(world.channel, "admin fairplay", user=world.bob))
    assert "лише учасники з дозволом «Керувати сервером»" in refused


async def test_a_player_with_no_games_has_nothing_to_look_at(world, admin) -> None:
    shown = reply_text(await admin.slash(world.channel, "admin fairplay", user=world.carol))
    assert f"<@{world.carol.id}> has no finished games on this server yet" in shown


async def test_a_player_matching_every_round_with_unusual_formulas_stands_out(world, admin) -> None:
    guild = world.guild.id
    for player in (world.bob.id, 9001, 9002):
        game = played(
            str(player), [(PLAIN, False)] * 4 + [("12+35", True)], seconds=30, guild=guild
        )
        await world.store.games.save_game(game)
    for _ in range(2):
        await world.store.games.save_game(played(str(world.alice.id), [(SOLVED, True)] * 6,
                                           seconds=4, guild=guild))  # fmt: skip

    shown = reply_text(await admin.slash(world.channel, "admin fairplay", user=world.alice))
    assert "not a verdict" in shown
    assert "12 rounds answered, 12 of them with the solver's best answer known" in shown
    assert "Matched the solver's best: **100\u00a0%** of rounds (12 of 12)" in shown
    assert "unlike their usual ones: **100\u00a0%** (12 of 12)" in shown
    assert "server median 20\u00a0% · higher than 3 of 3 players" in shown
    assert "server median 0\u00a0% · higher than 3 of 3 players" in shown
    assert "Median answer time: **4.0\u00a0s**" in shown
    assert "server median 30.0\u00a0s · quicker than 3 of 3 players" in shown
    assert "they have no answer of their own that did not match" in shown
    assert "From the server's last 5 finished games." in shown

    ordinary = reply_text(await admin.slash(world.channel, "admin fairplay", user=world.bob))
    assert "higher than 0 of 3 players" in ordinary and "quicker than 0 of 3" in ordinary

    speak(world.env, admin, "uk")
    shown = reply_text(await admin.slash(world.channel, "admin fairplay", user=world.alice))
    assert "не вирок" in shown and "вище, ніж у 3 з 3 гравців" in shown
    assert "**4,0\u00a0с**" in shown
