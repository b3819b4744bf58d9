"""Embeds and texts for a game, from its stored record alone, in one language.

Pure functions of (record, locale): the same record renders the same message,
whether it is announced live or again after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import discord

from bot.common import fmt, mention, timestamp
from bot.i18n import catalog, t
from bot.play import best_field
from bot.storage import Challenge, ChallengeStatus, GameRecord
from rules import GameState, Mode, Termination

COLOR_ROUND = discord.Colour.blurple()
COLOR_RESULT = discord.Colour.teal()
COLOR_WIN = discord.Colour.green()
COLOR_LOSS = discord.Colour.red()
CHALLENGE_TEXT = {
    ChallengeStatus.PENDING: "duel.challenge.pending",
    ChallengeStatus.ACCEPTED: "duel.challenge.accepted",
    ChallengeStatus.DECLINED: "duel.challenge.declined",
    ChallengeStatus.EXPIRED: "duel.challenge.expired",
    ChallengeStatus.CANCELLED: "duel.challenge.cancelled",
}


def mode_name(mode: Mode, locale: str) -> str:
    return t(f"games.mode.{mode.value}", locale)


def _round_note(record: GameRecord, locale: str, *, replayed: bool) -> str | None:
    """Why the round starts now: replayed after downtime, or it waited unseen for its
    player's press (a private round no token could carry, issue 28)."""
    waited = record.meta.waits_round == record.state.rounds[-1].number
    notes = [
        t("games.round.replayed", locale) if replayed else None,
        t("token.waited", locale) if waited else None,
    ]
    return "\n".join(n for n in notes if n is not None) or None


@dataclass(frozen=True, slots=True)
class _RoundWords:
    """A round message's words that follow from its language, mode and Set alone."""

    mode: str
    digits: str
    score: str
    deadline: str
    seconds: str
    footer: str


@lru_cache(maxsize=256)
def _round_words(
    locale: str, mode: Mode, name: str, time_limit: int, goal: int, bonus: int,
    commands: int,
) -> _RoundWords:  # fmt: skip
    """Made once per language, mode and Set (and sync of the commands, `commands`, which
    a text's command could name), not on every round's post: six of its eight texts."""
    del commands  # only part of the key
    how = "games.round.how_duel" if mode.is_duel else "games.round.how"
    return _RoundWords(
        mode=mode_name(mode, locale),
        digits=t("games.field.digits", locale),
        score=t("games.field.score", locale),
        deadline=t("games.field.deadline", locale),
        seconds=t("games.seconds", locale, seconds=time_limit),
        footer=t(how, locale, goal=goal, bonus=bonus) + f" · {name}",
    )


def round_embed(record: GameRecord, locale: str, *, replayed: bool = False) -> discord.Embed:
    state = record.state
    rnd = state.rounds[-1]
    game_set = state.game_set
    duel = state.mode.is_duel
    words = _round_words(
        locale, state.mode, game_set.name, game_set.time_limit, game_set.goal, game_set.bonus,
        catalog().command_ids.generation,
    )  # fmt: skip
    embed = discord.Embed(
        title=t(
            "games.round.title", locale, mode=words.mode, number=rnd.number,
            max=game_set.max_rounds,
        ),
        description=_round_note(record, locale, replayed=replayed),
        colour=COLOR_ROUND,
    )  # fmt: skip
    if duel and not rnd.resolved:
        answered = [
            t("duel.answered", locale, player=mention(player))
            for player, answer in zip(state.players, rnd.answers, strict=True)
            if answer is not None
        ]
        if answered:
            embed.description = "\n".join([*filter(None, [embed.description]), *answered])
    embed.add_field(name=words.digits, value=f"**{rnd.digits}**")
    lang = game_set.language
    if duel:
        scores = "\n".join(
            f"{mention(p)}: **{fmt(s, lang)}**"
            for p, s in zip(state.players, state.scores, strict=True)
        )
    else:
        scores = f"**{fmt(state.scores[0], lang)}**"
    embed.add_field(name=words.score, value=scores)
    embed.add_field(name=words.deadline, value=f"{timestamp(rnd.deadline)} ({words.seconds})")
    best = best_field(record, rnd.number - 1, locale) if rnd.number > 1 else None
    if best is not None:
        embed.add_field(name=best[0], value=best[1][:1024], inline=False)
    embed.set_footer(text=words.footer)
    return embed


def _answer_line(state: GameState, number: int, index: int, locale: str) -> str:
    answer = state.rounds[number - 1].answers[index]
    if answer is None:
        return t("games.result.no_answer", locale)
    key = "games.result.auto" if answer.auto else "games.result.line"
    return t(
        key,
        locale,
        formula=answer.formula,
        says=t(f"games.result.says.{state.game_set.language.value}", locale),
        result=fmt(answer.result, state.game_set.language),
        points=fmt(answer.points, state.game_set.language),
        score=fmt(answer.score, state.game_set.language),
    )


def result_embed(record: GameRecord, number: int, locale: str) -> discord.Embed:
    state = record.state
    rnd = state.rounds[number - 1]
    embed = discord.Embed(
        title=t("games.result.title", locale, number=number, digits=rnd.digits),
        colour=COLOR_RESULT,
    )
    if state.mode.is_duel:
        for index, player in enumerate(state.players):
            embed.add_field(
                name=t("duel.player", locale, number=index + 1),
                value=f"{mention(player)}\n{_answer_line(state, number, index, locale)}",
                inline=False,
            )
    else:
        embed.description = _answer_line(state, number, 0, locale)
    unanswered = not all(answer is not None for answer in rnd.answers)
    if state.outcome is not None and number == len(state.rounds) and unanswered:
        lines = [embed.description or "", outcome_text(state, locale)]  # how it ended
        embed.description = "\n".join(filter(None, lines))
    return embed


def replaced_embed(record: GameRecord, locale: str) -> discord.Embed:
    """The old message of a round that was posted again: no longer the one to answer."""
    state = record.state
    rnd = state.rounds[-1]
    return discord.Embed(
        title=t(
            "games.round.title", locale, mode=mode_name(state.mode, locale), number=rnd.number,
            max=state.game_set.max_rounds,
        ),
        description=t("games.round.replaced", locale),
        colour=COLOR_RESULT,
    )  # fmt: skip


def outcome_text(state: GameState, locale: str) -> str:
    result = state.outcome
    if result is None:
        return t("games.outcome.playing", locale)
    players = state.players
    if result.termination is Termination.VOID:
        return t("games.outcome.void", locale)
    if state.mode.is_duel:
        if result.termination is Termination.RESIGN:
            loser = players[state.resigned or 0]
            winner = players[result.winner if result.winner is not None else 0]
            return t("duel.outcome.resign", locale, loser=mention(loser), winner=mention(winner))
        if result.termination is Termination.CHECKOUT and result.winner is not None:
            text = t(
                "duel.outcome.win", locale, winner=mention(players[result.winner]),
                rounds=result.rounds,
            )  # fmt: skip
        elif result.termination is Termination.CHECKOUT:
            text = t("duel.outcome.both_zero", locale, rounds=result.rounds)
        else:
            text = t("duel.outcome.max_rounds", locale, rounds=result.rounds)
    else:
        text = t(
            f"games.outcome.{result.termination.value}",
            locale,
            rounds=result.rounds,
            score=fmt(state.scores[0], state.game_set.language),
        )
    if result.perfect:
        text += "\n" + t("games.outcome.perfect", locale, min_rounds=state.game_set.min_rounds)
    return text


def challenge_text(challenge: Challenge, locale: str) -> str:
    return t(
        CHALLENGE_TEXT[ChallengeStatus(challenge.status)],
        locale,
        challenger=mention(str(challenge.challenger_id)),
        opponent=mention(str(challenge.opponent_id)),
        set=challenge.set_name,
        expires=timestamp(challenge.expires_at),
    )


def thread_name(record_mode: Mode, names: list[str], set_name: str, locale: str) -> str:
    first, *rest = names
    players = t("games.versus", locale, first=first, second=rest[0]) if rest else first
    return t(
        "games.thread", locale, mode=mode_name(record_mode, locale), players=players, set=set_name
    )[:100]
