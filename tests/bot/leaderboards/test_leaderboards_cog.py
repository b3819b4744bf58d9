"""/leaderboard, /stats, /history and /game on a simulated Discord."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
import simcord

from bot.i18n.translator import CatalogTranslator
from bot.leaderboards._cog import LeaderboardsCog
from tests.bot.leaderboards.games_played import (
    CHECKOUT_4,
    CHECKOUT_5,
    DARTS,
    NO_CHECKOUT,
    duel,
    qualification,
)
from tests.support.sim import shown, speak


def text(result: simcord.InteractionResult) -> str:
    message = shown(result)
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "" if embed.footer else "")
    return "\n".join(parts)


def buttons(result: simcord.InteractionResult) -> dict[str, dict[str, Any]]:
    found = {}
    for row in shown(result).components:
        for child in row.get("components", []):
            found[child["label"]] = child
    return found


def line_of(body: str, mention: str) -> int:
    return next(i for i, line in enumerate(body.splitlines()) if mention in line)


async def test_qualification_board_order_and_periods(board) -> None:
    guild = board.guild.id
    a, b, c = board.alice, board.bob, board.carol
    await qualification(board.store, guild, "a-five", a.id, CHECKOUT_5)
    await qualification(board.store, guild, "b-perfect", b.id, CHECKOUT_4, seconds=30)
    await qualification(board.store, guild, "c-max", c.id, NO_CHECKOUT)
    await qualification(board.store, guild, "a-old", a.id, CHECKOUT_4, period="2025-12-01")

    today = await a.slash(board.channel, "leaderboard qualification")
    body = text(today)
    assert "Qualification · darts · today" in body
    assert line_of(body, b.mention) < line_of(body, a.mention) < line_of(body, c.mention)
    assert "Perfect in 4 rounds" in body and "Score 0 in 5 rounds" in body
    assert "494 left after 7 rounds" in body
    assert not shown(today).ephemeral and not buttons(today)

    alltime = text(await a.slash(board.channel, "leaderboard qualification", period="all"))
    assert line_of(alltime, a.mention) < line_of(alltime, b.mention)  # a's older Perfect

    empty = text(await a.slash(board.channel, "leaderboard qualification", set="sprint"))
    assert "Nobody has finished a Qualification of sprint" in empty


async def test_a_board_ranks_one_version_the_current_one_unless_chosen(board) -> None:
    """darts played by other numbers earlier today is another board, offered by `version`."""
    guild, a, b = board.guild.id, board.alice, board.bob
    before = dataclasses.replace(DARTS, time_limit=90)
    await qualification(board.store, guild, "old-v", a.id, CHECKOUT_4, game_set=before)
    await qualification(board.store, guild, "new-v", b.id, CHECKOUT_5, created_at=1_767_229_200.0)
    current = text(await a.slash(board.channel, "leaderboard qualification"))
    assert b.mention in current and a.mention not in current
    assert "version 2" in current and DARTS.version not in current  # a number, not a hash
    offered = await a.autocomplete(board.channel, "leaderboard qualification", "version", "")
    assert [c["value"] for c in offered] == [DARTS.version, before.version]
    assert [c["name"] for c in offered] == ["version 2 (current)", "version 1"]
    chosen = text(await a.slash(board.channel, "leaderboard qualification", version=before.version))
    assert a.mention in chosen and b.mention not in chosen
    assert "version 1" in chosen and before.version not in chosen
    wrong = await a.slash(board.channel, "leaderboard qualification", version="abc")
    assert wrong.ephemeral
    assert "`darts` has no Qualification games of version `abc` here" in text(wrong)


async def test_pages_turn_for_the_asker_and_privately_for_others(board) -> None:
    for index in range(12):
        await qualification(board.store, board.guild.id, f"p{index:02d}", 5000 + index,
                            CHECKOUT_5, seconds=float(index + 1))  # fmt: skip
    first = await board.alice.slash(board.channel, "leaderboard qualification")
    assert text(first).count("<@50") == 10
    assert "Page 1 of 2" in shown(first).embeds[0].footer.text
    controls = buttons(first)
    assert controls["◀ Previous"].get("disabled") and not controls["Next ▶"].get("disabled")
    message = shown(first).message
    await board.alice.click(message, custom_id=controls["Next ▶"]["custom_id"])
    edited = board.channel.last_message
    assert edited.id == message.id
    assert "Page 2 of 2" in edited.embeds[0].footer.text
    assert edited.embeds[0].description.count("<@50") == 2

    other = await board.bob.click(edited, label="◀ Previous")
    assert other.ephemeral
    assert "Only the person who asked" in other.response.content
    assert other.response.embeds[0].description.count("<@50") == 10


async def test_paging_buttons_survive_a_restart(board, make_bot) -> None:
    for index in range(11):
        await qualification(board.store, board.guild.id, f"r{index:02d}", 6000 + index, CHECKOUT_5)
    first = await board.alice.slash(board.channel, "leaderboard qualification", period="week")
    await board.env.restart_bot(make_bot())
    next_id = buttons(first)["Next ▶"]["custom_id"]
    await board.alice.click(shown(first).message, custom_id=next_id)
    assert "Page 2" in board.channel.last_message.embeds[0].footer.text


async def test_duel_board_stats_and_history(board) -> None:
    a, b = board.alice, board.bob
    guild = board.guild.id
    await duel(
        board.store, guild, "duel-one", (a.id, b.id), [(100, 1), (100, 1), (100, 1), (51, 1)]
    )
    await qualification(board.store, guild, "q-perfect", a.id, CHECKOUT_4)

    ratings = text(await b.slash(board.channel, "leaderboard duel"))
    assert line_of(ratings, a.mention) < line_of(ratings, b.mention)
    assert "**1016** · 1 game: 1 won · 0 drawn · 0 lost" in ratings
    assert "**984**" in ratings

    stats = text(await b.slash(board.channel, "stats", user=a))
    assert "Stats of alice" in stats
    assert "2 finished · 2 won" in stats
    assert "Perfect in 4 rounds · darts · 2026-01-01 · `q-perfec`" in stats
    assert "rating **1016** (#1) · 1 W / 0 D / 0 L" in stats
    mine = text(await board.carol.slash(board.channel, "stats"))
    assert f"{board.carol.mention} has not finished a game on this server yet" in mine

    history = text(await a.slash(board.channel, "history"))
    assert "Games of alice" in history
    assert "`duel-one` " in history and "🏆 won" in history
    assert "`q-perfec` " in history and "Perfect in 4" in history
    lost = text(await a.slash(board.channel, "history", user=b))
    assert "❌ lost" in lost


async def test_game_replay_hides_an_open_duel_round(board) -> None:
    a, b = board.alice, board.bob
    guild = board.guild.id
    await duel(board.store, guild, "live0001xyz", (a.id, b.id), [(100, 1)], open_round=(77, None))
    shown = text(await b.slash(board.channel, "game", id="live0001"))
    assert "`1` **4589** · `4*5+89` = 100" in shown
    assert "round 2 is being played" in shown
    assert "77" not in shown.split("Rounds", 1)[1]

    elsewhere = board.env.create_guild("Elsewhere")
    stranger = elsewhere.add_member(board.env.create_user("dave"))
    missing = await stranger.slash(elsewhere.create_text_channel("x"), "game", id="live0001")
    assert "No game `live0001` on this server" in text(missing)
    assert missing.ephemeral


async def test_game_without_an_id_says_so_privately(board) -> None:
    blank = await board.alice.slash(board.channel, "game", id="  ")
    assert blank.ephemeral
    assert "Give a game id" in text(blank)
    punctuation = await board.alice.slash(board.channel, "game", id="???")
    assert punctuation.ephemeral and "Give a game id" in text(punctuation)


async def test_an_unknown_set_is_named_as_such(board) -> None:
    reply = await board.alice.slash(board.channel, "leaderboard qualification", set="nosuch")
    assert reply.ephemeral
    body = text(reply)
    assert "There is no Set called `nosuch` here" in body and "darts" in body
    assert "Nobody has finished" not in body


async def test_history_pages_name_the_player_without_the_member_cache(board) -> None:
    a = board.alice
    for index in range(12):
        await qualification(board.store, board.guild.id, f"h{index:02d}", a.id, NO_CHECKOUT,
                            period=f"2025-12-{index + 1:02d}")  # one attempt a day  # fmt: skip
    first = await board.bob.slash(board.channel, "history", user=a, share=True)
    assert shown(first).embeds[0].title == "Games of alice"
    assert "Page 1 of 2" in shown(first).embeds[0].footer.text
    await board.bob.click(shown(first).message, label="Next ▶")
    second = board.channel.last_message.embeds[0]
    assert "Page 2 of 2" in second.footer.text
    assert str(a.id) not in (second.title or "")
    assert second.description.splitlines()[0] == a.mention
    assert second.description.count("`h0") == 2


async def test_ukrainian_board(board) -> None:
    await qualification(board.store, board.guild.id, "uk-1", board.alice.id, CHECKOUT_4)

    def rewrite(event: str, payload: Any) -> None:
        if event == "INTERACTION_CREATE":
            payload["locale"] = discord.Locale.ukrainian.value

    board.env.backend.subscribers.insert(0, rewrite)
    shown = text(await board.alice.slash(board.channel, "leaderboard qualification"))
    assert "Кваліфікація · darts · сьогодні" in shown
    assert "Супер-гра за 4\u00a0раунд" in shown


async def test_command_names_have_valid_ukrainian_translations() -> None:
    translator = CatalogTranslator()
    names = []
    for command in LeaderboardsCog.__cog_app_commands__:
        for each in [command, *getattr(command, "commands", [])]:
            names.append(each._locale_name)
            names.extend(p.locale_name for p in getattr(each, "parameters", []))
    translated = [
        await translator.translate(name, discord.Locale.ukrainian, None)  # type: ignore[arg-type]
        for name in names
    ]
    assert len(translated) == 14  # 6 commands, 8 options (share on /stats and /history)
    valid = re.compile(r"^[-_\w]{1,32}$")
    assert all(name and valid.match(name) and name == name.lower() for name in translated)


async def test_a_page_that_fails_to_load_gets_a_polite_reply(board, monkeypatch) -> None:
    for index in range(11):
        await qualification(board.store, board.guild.id, f"f{index:02d}", 7000 + index, CHECKOUT_5)
    first = await board.alice.slash(board.channel, "leaderboard qualification")

    async def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the database is down")

    monkeypatch.setattr(board.store.boards, "qualification_page", down)
    clicked = await board.bob.click(shown(first).message, label="Next ▶")
    assert "Something went wrong" in (clicked.response.content or "") + "".join(
        m.content for m in clicked.followups
    )


async def test_a_page_button_this_bot_never_made_is_refused_in_the_players_language(
    board,
) -> None:
    """A message carrying a damaged or foreign `fd:pg:` button (the bot's own post, as an
    earlier or a broken version would leave): the click gets a private refusal in the
    player's language, not "Something went wrong" nor a failed interaction."""
    forged = ["fd:pg:h:1:0:alice", "fd:pg:q:1:0:yesterday:darts:", "fd:pg:d:1:99999999999:"]
    view = discord.ui.View()
    for number, custom_id in enumerate(forged):
        view.add_item(discord.ui.Button(label=f"b{number}", custom_id=custom_id))
    channel = board.env.bot.get_channel(board.channel.id)
    await channel.send("old buttons", view=view)
    view.stop()  # the bot keeps no view for them: each click reaches PageButton alone
    posted = board.channel.last_message
    for number in range(len(forged)):
        clicked = await board.alice.click(posted, label=f"b{number}")
        assert clicked.ephemeral
        said = clicked.response.content or ""
        assert "does not open any of the bot's pages" in said, said
    speak(board.env, board.alice, discord.Locale.ukrainian.value)
    clicked = await board.alice.click(posted, label="b0")
    assert "не відкриває жодної сторінки бота" in (clicked.response.content or "")
