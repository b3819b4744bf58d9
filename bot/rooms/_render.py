"""What a room's messages say: the lobby, a round (who has answered, never what), its
reveal, the final table. Pure functions of a stored room, in the room's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.common import code, fmt, mention, set_label, timestamp
from bot.i18n import t
from bot.storage import RoomRecord
from rules.room import ExitReason, Phase, RoomEnd, RoomState
from solver.result import Candidate

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
DESCRIPTION_MAX = 4096


def _set(state: RoomState) -> str:
    return set_label(state.game_set.name, state.game_set.language)


def lobby_text(record: RoomRecord) -> str:
    state, locale = record.state, record.locale
    players = ", ".join(mention(p) for p in state.players)
    head = t("rooms.lobby.head", locale, host=mention(state.host), set=_set(state),
             count=len(state.players), size=state.size)  # fmt: skip
    rule = t("rooms.lobby.rule", locale, when=timestamp(state.lobby_deadline))
    return f"{head}\n{players}\n{rule}"


def lobby_closed_text(record: RoomRecord) -> str:
    state, locale = record.state, record.locale
    if state.end in (RoomEnd.CANCELLED, RoomEnd.HOST_LEFT):
        key = "rooms.lobby.host_left" if state.end is RoomEnd.HOST_LEFT else "rooms.lobby.too_few"
        return t(key, locale, host=mention(state.host))
    if state.end is RoomEnd.VOID:
        key = "rooms.lobby.no_thread" if record.thread_id is None else "rooms.final.void"
        return t(key, locale, host=mention(state.host))
    if record.thread_id is None:
        return t("rooms.lobby.starting", locale, host=mention(state.host))
    players = ", ".join(mention(p) for p in state.players)
    thread = f"<#{record.thread_id}>"
    text = t("rooms.lobby.started", locale, host=mention(state.host), thread=thread,
             count=len(state.players))  # fmt: skip
    return f"{text}\n{players}"


def _title(state: RoomState, locale: str, number: int) -> str:
    return t("rooms.round.title", locale, number=number, max=state.game_set.max_rounds,
             set=_set(state))  # fmt: skip


def round_embed(record: RoomRecord) -> discord.Embed:
    """The open round: its Digits, its deadline, and who has answered (not what)."""
    state, locale = record.state, record.locale
    rnd = state.rounds[-1]
    lines = []
    for index, player in enumerate(state.players):
        mark = "✅" if rnd.answers[index] is not None else "⏳"
        score = fmt(state.scores[index], state.game_set.language)
        lines.append(f"{mark if state.is_in(index) else '🚪'} {mention(player)} · {score}")
    answered = sum(rnd.answers[i] is not None for i in state.still_in)
    description = "\n".join([
        t("rooms.round.digits", locale, digits=rnd.digits),
        t("rooms.round.deadline", locale, when=timestamp(rnd.deadline)),
        t("rooms.round.answered", locale, count=answered, total=len(state.still_in)),
        "",
        *lines,
    ])  # fmt: skip
    return discord.Embed(
        title=_title(state, locale, rnd.number), description=description[:DESCRIPTION_MAX]
    )


def reveal_embed(
    record: RoomRecord, best: Sequence[Candidate | None], number: int | None = None
) -> discord.Embed:
    """A round that is over (the last, or `number`): every formula, its points and the new
    Score, the best answer when known."""
    state, locale = record.state, record.locale
    rnd = state.rounds[(number or len(state.rounds)) - 1]
    lang = state.game_set.language
    lines = [t("rooms.round.digits", locale, digits=rnd.digits), ""]
    for index, player in enumerate(state.players):
        answer = rnd.answers[index]
        if answer is None:  # out before it, or the room ended while they were thinking
            lines.append(f"{'⏳' if state.is_in(index) else '🚪'} {mention(player)}")
            continue
        key = "rooms.reveal.auto" if answer.auto else "rooms.reveal.answer"
        line = t(key, locale, player=mention(player), formula=code(answer.formula),
                 result=fmt(answer.result, lang), points=fmt(answer.points, lang),
                 score=fmt(answer.score, lang))  # fmt: skip
        found = best[index] if index < len(best) else None
        if found is not None:
            line += t("rooms.reveal.best", locale, formula=code(found.formula),
                      score=fmt(found.score, lang))  # fmt: skip
        lines.append(line)
    out = [e for e in state.exits if e.round == rnd.number and e.reason is ExitReason.MISSED]
    for exit_ in out:
        lines.append(t("rooms.reveal.out", locale, player=mention(state.players[exit_.player])))
    title = _title(state, locale, rnd.number) + " · " + t("rooms.reveal.over", locale)
    return discord.Embed(title=title, description="\n".join(lines)[:DESCRIPTION_MAX])


def replay_pages(record: RoomRecord) -> int:
    """`/game` of a room: its table, then one page per round that is over."""
    return 1 + sum(rnd.resolved for rnd in record.state.rounds)


def replay_embed(record: RoomRecord, page: int, locale: str) -> discord.Embed:
    """Page 0 the final table (or that it is still being played), page n round n's reveal;
    an open round is never shown (its answers are secret until it ends)."""
    shown = replace(record, locale=locale)
    if page > 0:
        return reveal_embed(shown, [], page)
    if record.state.phase is not Phase.OVER:
        title = t("rooms.replay.playing", locale, id=record.state.id[:8])
        return discord.Embed(title=title, description=lobby_text(shown).split("\n")[0])
    return discord.Embed(description=final_text(shown)[:DESCRIPTION_MAX])


def final_text(record: RoomRecord) -> str:
    """The final table, or why the room has none."""
    state, locale = record.state, record.locale
    end = state.end
    if end is RoomEnd.VOID:
        return t("rooms.final.void", locale)
    head = t(f"rooms.final.{end}", locale, rounds=len(state.rounds), set=_set(state))
    exits = {e.player: e for e in state.exits}
    lines = [head]
    for standing in state.standings:
        index = standing.player
        line = t("rooms.final.line", locale, medal=MEDALS.get(standing.place, "▫️"),
                 place=standing.place, player=mention(state.players[index]),
                 score=fmt(state.scores[index], state.game_set.language))  # fmt: skip
        gone = exits.get(index)
        if gone is not None:
            line += t(f"rooms.final.{gone.reason}", locale, round=gone.round)
        lines.append(line)
    lines.append(t("rooms.final.unranked", locale, id=state.id[:8]))
    return "\n".join(lines)[:2000]


HISTORY_ROOMS = 5
"""Rooms shown under a player's /history (the newest; /game shows each whole)."""


def history_field(records: Sequence[RoomRecord], player: str, locale: str) -> tuple[str, str]:
    """(name, value) of the /history field listing `player`'s rooms, newest first."""
    lines = []
    for record in records:
        state = record.state
        index = state.players.index(player)
        place = next(s.place for s in state.standings if s.player == index)
        lines.append(t("rooms.history.line", locale, id=state.id[:8], set=_set(state),
                       when=timestamp(record.created_at), place=place,
                       count=len(state.players)))  # fmt: skip
    return t("rooms.history.title", locale), "\n".join(lines)[:1024]
