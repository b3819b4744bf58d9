"""A room's spoiler-free share card: the player's place and one emoji per round, with the
same marks and legend as a game's card (`bot.share`)."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_date

from bot.common import set_label
from bot.i18n import t
from bot.share import EMOJI, ShareCard, round_mark
from bot.storage import RoomRecord


def room_card(record: RoomRecord, player: str, locale: str) -> str:
    state = record.state
    index = state.players.index(player)
    marks = tuple(round_mark(rnd.answers[index], state.game_set) for rnd in state.rounds)
    title = t(
        "share.title",
        locale,
        set=set_label(state.game_set.name, state.game_set.language).replace("_", "\\_"),
        mode=t("rooms.mode", locale),
        date=format_date(datetime.fromtimestamp(record.created_at, UTC).date(), "long", locale),
    )
    place = next(s.place for s in state.standings if s.player == index)
    outcome = t("rooms.share.place", locale, place=place, count=len(state.players))
    used = set(marks)
    legend = " · ".join(
        f"{emoji} {t(f'share.legend.{mark.value}', locale)}"
        for mark, emoji in EMOJI.items()
        if mark in used
    )
    return ShareCard(title, outcome, marks, legend).text()
