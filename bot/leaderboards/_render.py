"""Embeds for boards, stats, history and a game replay: pure functions of stored rows.

Nothing here touches Discord's API or the database, so every text can be tested
from hand-made rows in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import discord

import rules
from bot.common import fmt, mention, set_label
from bot.games import FIELD_MAX, outcome_text, round_line
from bot.i18n import decimal_text, normalize_locale, t
from bot.leaderboards._views import BoardPeriod
from bot.leaderboards._void import VOID_REASON_MAX, void_text, voided
from bot.play import summary_best
from bot.storage import GameRecord, LeaderRow, PlayerStats, RatingRow
from rules import FormulaLanguage, Streak, Termination

COLOUR = discord.Colour.gold()
ROUNDS_PER_PAGE = 10
ROUND_LINE_MAX = 500
"""Ten lines of 500 stay within an embed's 6,000 characters with the header fields."""


STREAK_SETS_MAX = 5
"""/stats lists this many Sets' streaks (the longest current ones); the rest are counted."""


AVERAGE_PLAIN = 1e15
"""Below this an average shows one decimal; above, PHP's E-notation (pow(34,89) happens)."""


def ranking_result(
    rank_class: int,
    rounds: int,
    score: float,
    perfect: bool,
    locale: str,
    termination: str = "",
    lang: FormulaLanguage = FormulaLanguage.PHP,
) -> str:
    """A Qualification result the way RULES.md ranks it; a loss says how it was lost.
    The Score left is written as the Set's language `lang` prints it."""
    if rank_class == 0:
        key = "perfect" if perfect else "checkout"
        return t(f"leaderboards.qualification.{key}", locale, rounds=rounds)
    if rank_class == 1:
        left = fmt(score, lang)
        return t("leaderboards.qualification.finished", locale, rounds=rounds, score=left)
    if termination == Termination.RESIGN.value:
        return t("leaderboards_extra.qualification.resigned", locale, rounds=rounds)
    if termination == Termination.TIMEOUT.value:
        return t("leaderboards_extra.qualification.timeout", locale, rounds=rounds)
    return t("leaderboards.qualification.lost", locale, rounds=rounds)


def average_text(value: float, locale: str) -> str:
    """An average over games of every Set (of every language), so no Set's number: a
    decimal in the reader's writing, PHP's E-notation (the bot's default) when huge."""
    if abs(value) < AVERAGE_PLAIN:
        return decimal_text(value, normalize_locale(locale))
    return fmt(float(value), FormulaLanguage.PHP)


def _page_footer(embed: discord.Embed, page: int, pages: int, locale: str, extra: str = "") -> None:
    text = t("leaderboards_extra.page_of", locale, page=page + 1, pages=max(pages, page + 1))
    embed.set_footer(text=f"{text} · {extra}" if extra else text)


def version_label(version: str, current: bool, locale: str) -> str:
    """How a Set version reads: its ten hex digits, or what "" stands for."""
    if not version:
        return t("leaderboards_extra.qualification.version_legacy", locale)
    key = "version_current" if current else "version"
    return t(f"leaderboards_extra.qualification.{key}", locale, version=version)


def _with_streak(user: str, streaks: Mapping[int, Streak], user_id: int, locale: str) -> str:
    """A name with its current streak beside it, when it has one."""
    found = streaks.get(user_id)
    if found is None or found.current == 0:
        return user
    return f"{user} {t('streaks.board.mark', locale, count=found.current)}"


def board_lines(
    rows: list[LeaderRow], locale: str, streaks: Mapping[int, Streak] | None = None,
    lang: FormulaLanguage = FormulaLanguage.PHP,
) -> list[str]:  # fmt: skip
    """A Qualification board's lines, as /leaderboard and the daily post show them, its
    Scores in the Set's language `lang`."""
    return [
        t(
            "leaderboards.qualification.line",
            locale,
            rank=row.rank,
            user=_with_streak(mention(row.user_id), streaks or {}, row.user_id, locale),
            result=ranking_result(
                row.rank_class, row.rounds, row.score, row.perfect, locale, row.termination, lang
            ),
            time=decimal_text(row.answer_time, normalize_locale(locale)),
        )
        for row in rows
    ]


def qualification_embed(
    rows: list[LeaderRow],
    set_name: str,
    period: BoardPeriod,
    page: int,
    locale: str,
    pages: int = 1,
    version: str | None = None,
    streaks: Mapping[int, Streak] | None = None,
    lang: FormulaLanguage = FormulaLanguage.PHP,
) -> discord.Embed:
    """`version` (when known) goes in the footer: a board ranks one version of the Set.
    The title names the Set's language `lang` (unless it is PHP), its Scores are in it."""
    period_name = t(f"leaderboards.period.{period.value}", locale)
    title = set_label(set_name, lang)
    embed = discord.Embed(
        title=t("leaderboards.qualification.title", locale, set=title, period=period_name),
        colour=COLOUR,
    )
    lines = board_lines(rows, locale, streaks, lang)
    embed.description = "\n".join(lines) or t(
        "leaderboards.qualification.empty", locale, set=set_name
    )
    extra = "" if version is None else version_label(version, False, locale)
    _page_footer(embed, page, pages, locale, extra)
    return embed


def duel_embed(rows: list[RatingRow], page: int, locale: str, pages: int = 1) -> discord.Embed:
    embed = discord.Embed(title=t("leaderboards.duel.title", locale), colour=COLOUR)
    lines = [
        t(
            "leaderboards.duel.line",
            locale,
            rank=row.rank,
            user=mention(row.user_id),
            rating=row.rating,
            games=row.games,
            wins=row.wins,
            draws=row.draws,
            losses=row.losses,
        )
        for row in rows
    ]
    embed.description = "\n".join(lines) or t("leaderboards.duel.empty", locale)
    _page_footer(embed, page, pages, locale)
    return embed


def _streaks_field(embed: discord.Embed, streaks: Mapping[str, Streak], locale: str) -> None:
    """One line per Set, the longest current streaks first."""
    ranked = sorted(streaks.items(), key=lambda item: (-item[1].current, -item[1].longest))
    lines = [
        t(
            "streaks.stats.line",
            locale,
            set=name,
            current=t("streaks.days", locale, count=streak.current),
            longest=t("streaks.days", locale, count=streak.longest),
        )
        for name, streak in ranked[:STREAK_SETS_MAX]
    ]
    if len(ranked) > STREAK_SETS_MAX:
        lines.append(t("streaks.stats.more", locale, count=len(ranked) - STREAK_SETS_MAX))
    embed.add_field(name=t("streaks.stats.title", locale), value="\n".join(lines), inline=False)


def stats_embed(
    stats: PlayerStats, name: str, locale: str, streaks: Mapping[str, Streak] | None = None,
    best_language: FormulaLanguage = FormulaLanguage.PHP,
) -> discord.Embed:  # fmt: skip
    """`best_language`: the language of the best game's Set, named and written in."""
    user = mention(stats.user_id)
    embed = discord.Embed(title=t("leaderboards.stats.title", locale, user=name), colour=COLOUR)
    embed.description = user
    none = t("leaderboards.stats.none", locale)
    if stats.games == 0 and stats.duel is None and not stats.practice:
        embed.description = t("leaderboards.stats.empty", locale, user=user)
        return embed
    embed.add_field(
        name=t("leaderboards.stats.games", locale),
        value=t("leaderboards.stats.games_value", locale, games=stats.games, wins=stats.wins),
    )
    embed.add_field(name=t("leaderboards.stats.checkouts", locale), value=str(stats.checkouts))
    embed.add_field(name=t("leaderboards.stats.perfects", locale), value=str(stats.perfects))
    if stats.practice:
        embed.add_field(
            name=t("leaderboards.stats.practice", locale),
            value=t(
                "leaderboards.stats.games_value",
                locale,
                games=stats.practice,
                wins=stats.practice_wins,
            ),
        )
    average = none
    if stats.avg_points is not None:
        average = t(
            "leaderboards.stats.avg_value",
            locale,
            avg=average_text(stats.avg_points, locale),
            rounds=stats.rounds,
        )
    embed.add_field(name=t("leaderboards.stats.avg_points", locale), value=average)
    best = stats.best
    embed.add_field(
        name=t("leaderboards.stats.best", locale),
        value=none
        if best is None
        else t(
            "leaderboards.stats.best_value",
            locale,
            result=ranking_result(
                best.rank_class,
                best.rounds,
                best.score,
                best.perfect,
                locale,
                best.termination,
                best_language,
            ),
            set=set_label(best.set_name, best_language),
            period=best.period or "",
        )
        + f" · `{best.game_id[:8]}`",
        inline=False,
    )
    duel = stats.duel
    embed.add_field(
        name=t("leaderboards.stats.duel", locale),
        value=none
        if duel is None
        else t(
            "leaderboards.stats.duel_value",
            locale,
            rating=duel.rating,
            rank=duel.rank,
            wins=duel.wins,
            draws=duel.draws,
            losses=duel.losses,
        ),
        inline=False,
    )
    if streaks:
        _streaks_field(embed, streaks, locale)
    return embed


def game_result(record: GameRecord, player: str, locale: str) -> str:
    """One game's result from one player's side, for the history list."""
    state = record.state
    result = state.outcome
    if result is None:
        return t("leaderboards.history.playing", locale, rounds=len(state.rounds))
    seat = state.players.index(player) if player in state.players else 0
    if voided(record):
        return void_text(record, locale, VOID_REASON_MAX)
    if state.mode.is_duel:
        if result.winner is None:
            return t("leaderboards.history.draw", locale)
        won = result.winner == seat
        return t(f"leaderboards.history.{'win' if won else 'loss'}", locale)
    rank_class = (
        2
        if result.termination in (Termination.TIMEOUT, Termination.RESIGN)
        else (0 if result.termination is Termination.CHECKOUT else 1)
    )
    return ranking_result(
        rank_class,
        result.rounds,
        float(state.scores[0]),
        result.perfect,
        locale,
        result.termination.value,
        state.game_set.language,
    )


def history_embed(
    records: list[GameRecord], user_id: int, name: str, page: int, locale: str, pages: int = 1
) -> discord.Embed:
    """`name` is known when a command asked; a page button knows only the id, and
    Discord shows no mention in a title, so the mention heads the description."""
    user = mention(user_id)
    title = (
        t("leaderboards.history.title", locale, user=name)
        if name
        else t("leaderboards_extra.history.title", locale)
    )
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = [
        t(
            "leaderboards.history.line",
            locale,
            id=record.state.id[:8],
            when=f"<t:{int(record.created_at)}:R>",
            mode=t(f"games.mode.{record.state.mode.value}", locale),
            set=set_label(record.state.game_set.name, record.state.game_set.language),
            result=game_result(record, str(user_id), locale),
        )
        for record in records
    ]
    body = "\n".join(lines) or t("leaderboards.history.empty", locale, user=user)
    embed.description = body if not lines else f"{user}\n{body}"
    _page_footer(embed, page, pages, locale, t("leaderboards.history.footer", locale))
    return embed


def _pack(lines: list[tuple[int, str]]) -> list[tuple[list[int], str]]:
    """Whole round lines into fields of at most 1,024 characters, never cutting one."""
    fields: list[tuple[list[int], list[str]]] = []
    for number, line in lines:
        if fields and len("\n".join([*fields[-1][1], line])) <= FIELD_MAX:
            fields[-1][0].append(number)
            fields[-1][1].append(line)
        else:
            fields.append(([number], [line]))
    return [(numbers, "\n".join(text)) for numbers, text in fields]


def round_pages(record: GameRecord) -> int:
    return max(1, -(-len(record.state.rounds) // ROUNDS_PER_PAGE))


def _seal_text(sealed: rules.Seal, locale: str) -> str:
    if sealed.reason is rules.SealReason.GAMES_RUNNING:
        return t("seal.game.running", locale)
    return t("leaderboards.game.sealed", locale, until=f"<t:{int(sealed.ends.timestamp())}:R>")


def game_embed(
    record: GameRecord, page: int, locale: str, sealed: rules.Seal | None = None
) -> discord.Embed:
    """A round-by-round replay. An open round's answers stay hidden: a duel's are secret.

    `sealed` (`rules.seal`): a Qualification whose period has not ended, or one of whose
    games is still being played, shows its outcome only (a game still being played, not
    even its Score); its Digits and formulas become public when the seal lifts (RULES.md).
    A voided game says so, and why, whatever its result was.
    """
    state = record.state
    embed = discord.Embed(
        title=t(
            "leaderboards.game.title",
            locale,
            mode=t(f"games.mode.{state.mode.value}", locale),
            set=set_label(state.game_set.name, state.game_set.language),
            id=state.id[:8],
        ),
        description=void_text(record, locale) if voided(record) else outcome_text(state, locale),
        colour=COLOUR,
    )
    hide_scores = sealed is not None and record.active
    embed.add_field(
        name=t("leaderboards.game.players", locale),
        value=" · ".join(
            mention(p) if hide_scores else f"{mention(p)} **{fmt(s, state.game_set.language)}**"
            for p, s in zip(state.players, state.scores, strict=True)
        ),
        inline=False,
    )
    started = datetime.fromtimestamp(record.created_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    if sealed is not None:
        value = _seal_text(sealed, locale)
        if hide_scores:
            value = f"{t('seal.game.playing', locale)}\n{value}"
        embed.add_field(
            name=t("leaderboards.game.rounds_sealed", locale), value=value, inline=False
        )
        _page_footer(embed, 0, 1, locale, started)
        return embed
    first = page * ROUNDS_PER_PAGE
    shown = state.rounds[first : first + ROUNDS_PER_PAGE]
    lines = [
        round_line(
            rnd,
            len(state.players),
            locale,
            ROUND_LINE_MAX,
            [summary_best(record, rnd.number, seat, locale) for seat in range(len(state.players))],
            lang=state.game_set.language,
        )
        if rnd.resolved
        else f"`{rnd.number}` **{rnd.digits}** · "
        + t("leaderboards.game.secret", locale, number=rnd.number)
        for rnd in shown
    ]
    for numbers, value in _pack(list(zip((r.number for r in shown), lines, strict=True))):
        embed.add_field(
            name=t(
                "leaderboards.game.rounds",
                locale,
                first=numbers[0],
                last=numbers[-1],
                total=len(state.rounds),
            ),
            value=value,
            inline=False,
        )
    _page_footer(embed, page, round_pages(record), locale, started)
    return embed
