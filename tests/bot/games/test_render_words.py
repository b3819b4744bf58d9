"""A round's message keeps its static words per language, mode and Set (`_round_words`):
each game still reads its own Set's time limit, goal and bonus, in its own language."""

from __future__ import annotations

from dataclasses import replace

from bot.games import _render
from bot.i18n import t
from bot.storage import GameRecord
from rules import CLASSIC, Mode, StartRound, apply, new_game

T0 = 1_700_000_000.0


def opened(mode: Mode, time_limit: int, goal: int) -> GameRecord:
    game_set = replace(CLASSIC, time_limit=time_limit, goal=goal)  # the same name, "darts"
    players = ["1", "2"] if mode.is_duel else ["1"]
    state = apply(new_game("w1", mode, game_set, players), StartRound("3489", T0))
    return GameRecord(state=state, guild_id=1, channel_id=2)


def test_each_game_reads_its_own_sets_words_in_its_own_language() -> None:
    for locale in ("en", "uk", "en", "uk"):  # made, then kept
        for mode in (Mode.TRAINING, Mode.DUEL):
            for limit, goal in ((120, 100), (60, 80)):
                embed = _render.round_embed(opened(mode, limit, goal), locale)
                how = "games.round.how_duel" if mode.is_duel else "games.round.how"
                assert embed.footer.text == t(how, locale, goal=goal, bonus=50) + " · darts"
                deadline = embed.fields[2]
                assert deadline.name == t("games.field.deadline", locale)
                assert (
                    deadline.value
                    == f"<t:{int(T0) + limit}:R> ("
                    + t("games.seconds", locale, seconds=limit)
                    + ")"
                )
                assert embed.title == t(
                    "games.round.title", locale, mode=t(f"games.mode.{mode.value}", locale),
                    number=1, max=7,
                )  # fmt: skip
                assert [f.name for f in embed.fields[:2]] == [
                    t("games.field.digits", locale), t("games.field.score", locale)
                ]  # fmt: skip
