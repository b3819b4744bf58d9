"""A Cup's texts in a reader's language: the admin's answers, the announcement, the
bracket, the champion, the hall of fame. Plain strings (no discord): the Discord face
sends them, and a test reads them."""

from __future__ import annotations

from datetime import datetime

from bot.common import mention, timestamp
from bot.cup._seeding import zone_of
from bot.cup._spec import START_FORMAT, CupInvalid
from bot.i18n import catalog, t
from bot.storage import CupPhase, CupRecord
from rules.cup import CupState, Decision, Match

LIST_MAX = 25
START_WINDOW_MIN = 10
"""`bot.cup._matches.START_WINDOW_S` in minutes, as a player reads it."""
MENTIONS_MAX = 64


def problems_text(error: CupInvalid, locale: str) -> str:
    """Every problem of a Cup's settings, one a line."""
    lines = [t("cup.invalid", locale, count=len(error.problems))]
    for problem in error.problems:
        params = dict(problem.params)
        if "when" in params:
            params["when"] = timestamp(float(params["when"]), "f")
        text = t(_cup_key(f"problem.{problem.code}"), locale, **params)
        lines.append(f"- **{t(_cup_key(f'field.{problem.field}'), locale)}**: {text}")
    return "\n".join(lines)


def _cup_key(key: str) -> str:
    """A Cup text's catalog key: in `cup_more.yaml` (added later) or `cup.yaml`."""
    more = f"cup_more.{key}"
    return more if more in catalog().messages else f"cup.{key}"


def lead_minutes(cup: CupRecord) -> int:
    """How long before its start the Cup is announced, as admins set it (minutes)."""
    return round(cup.lead_s / 60)


def settings_line(cup: CupRecord, locale: str) -> str:
    local = datetime.fromtimestamp(cup.starts_at, zone_of(cup)).strftime(START_FORMAT)
    text = t(
        "cup.settings",
        locale,
        name=cup.name,
        id=cup.id,
        set=cup.set_name,
        start=timestamp(cup.starts_at, "F"),
        local=f"{local} {cup.zone}",
        repeat=t(f"cup.repeat.{cup.repeat}", locale),
        size=cup.size,
        legs=cup.legs,
        seeding=t(f"cup.seeding.{cup.seeding}", locale),
        phase=t(f"cup.phase.{cup.phase.value}", locale),
    )
    return f"{text} · {t('cup_more.settings.lead', locale, minutes=lead_minutes(cup))}"


def created_text(cup: CupRecord, locale: str, edited: bool = False) -> str:
    if edited:
        head = t("cup.edited", locale, name=cup.name)
    else:
        head = t("cup_more.created", locale, name=cup.name, minutes=lead_minutes(cup))
    return f"{head}\n{settings_line(cup, locale)}"


def show_text(cup: CupRecord, entries: list[str], locale: str) -> str:
    text = settings_line(cup, locale)
    if cup.phase in (CupPhase.ANNOUNCED, CupPhase.SCHEDULED):
        names = " ".join(mention(p) for p in entries[:MENTIONS_MAX]) or "—"
        text += "\n" + t("cup.show.entries", locale, count=len(entries), names=names)
    if cup.bracket is not None:
        text += "\n\n" + bracket_text(cup, locale)
    return text


def list_text(cups: list[CupRecord], locale: str) -> str:
    if not cups:
        return t("cup.list.empty", locale)
    lines = [t("cup.list.head", locale)]
    lines += [f"- {settings_line(cup, locale)}" for cup in cups[:LIST_MAX]]
    return "\n".join(lines)


def history_text(cups: list[CupRecord], locale: str) -> str:
    if not cups:
        return t("cup.history.empty", locale)
    lines = [t("cup.history.head", locale)]
    for cup in cups:
        lines.append(
            t(
                "cup.history.line",
                locale,
                when=timestamp(cup.starts_at, "D"),
                name=cup.name,
                set=cup.set_name,
                champion=mention(cup.champion or ""),
            )
        )
    return "\n".join(lines)


def announcement(cup: CupRecord, qualified: list[str], locale: str) -> str:
    head = t("cup.announce.head", locale, name=cup.name, set=cup.set_name,
             start=timestamp(cup.starts_at, "F"), starts=timestamp(cup.starts_at, "R"),
             legs=cup.legs, size=cup.size)  # fmt: skip
    if cup.seeding == "elo":
        return f"{head}\n{t('cup.announce.open', locale)}"
    window = t(f"cup.seeding.{cup.seeding}", locale)
    if not qualified:
        return f"{head}\n{t('cup.announce.nobody', locale, window=window)}"
    names = " ".join(mention(p) for p in qualified[:MENTIONS_MAX])
    return f"{head}\n{t('cup.announce.qualified', locale, window=window, names=names)}"


def cancelled_text(cup: CupRecord, too_few: bool, locale: str) -> str:
    key = "cup.cancelled.too_few" if too_few else "cup.cancelled.by_admin"
    return t(key, locale, name=cup.name)


def _side(bracket: CupState, seed: int | None, locale: str) -> str:
    if seed is None:
        return t("cup.bracket.nobody", locale)
    return f"{mention(bracket.player(seed) or '')} ({seed})"


def match_line(bracket: CupState, match: Match, locale: str) -> str:
    first, second = match.seeds
    if match.decision is Decision.BYE:
        return t("cup.bracket.bye", locale, player=_side(bracket, first, locale))
    wins = f"{match.wins[0]}:{match.wins[1]}"
    line = t("cup.bracket.match", locale, first=_side(bracket, first, locale),
             second=_side(bracket, second, locale), wins=wins)  # fmt: skip
    if match.winner is not None and match.decision is not None:
        line += " — " + t(
            f"cup.decision.{match.decision.value}", locale,
            player=_side(bracket, match.winning_seed, locale),
        )  # fmt: skip
    elif match.draws:
        line += " · " + t("cup.bracket.draws", locale, count=match.draws)
    return line


def bracket_text(cup: CupRecord, locale: str) -> str:
    """The bracket round by round; the champion on top once there is one."""
    bracket = cup.bracket
    if bracket is None:
        return ""
    lines = [t("cup.bracket.head", locale, name=cup.name, legs=bracket.legs)]
    if bracket.champion is not None:
        lines.append(t("cup.bracket.champion", locale, player=mention(bracket.champion)))
    for round_ in range(1, bracket.rounds + 1):
        lines.append(f"**{round_name(round_, bracket.rounds, locale)}**")
        lines += [
            f"- {match_line(bracket, m, locale)}" for m in bracket.matches if m.round == round_
        ]
    return "\n".join(lines)


def round_name(round_: int, rounds: int, locale: str) -> str:
    if round_ == rounds:
        return t("cup.round.final", locale)
    if round_ == rounds - 1:
        return t("cup.round.semi", locale)
    return t("cup.round.number", locale, number=round_)


def champion_text(cup: CupRecord, bracket: CupState, locale: str) -> str:
    return t("cup.champion", locale, player=mention(bracket.champion or ""), name=cup.name)


def match_title(cup: CupRecord, match: Match, locale: str) -> str:
    """A match's thread name."""
    rounds = cup.bracket.rounds if cup.bracket is not None else match.round
    return t("cup.match.thread", locale, name=cup.name,
             round=round_name(match.round, rounds, locale), number=match.slot + 1)  # fmt: skip


def leg_text(cup: CupRecord, match: Match, leg: int, players: tuple[int, int], locale: str) -> str:
    first, second = (mention(p) for p in players)
    wins = f"{match.wins[0]}:{match.wins[1]}"
    return t("cup.leg.call", locale, leg=leg, first=first, second=second, wins=wins,
             legs=cup.legs, window=START_WINDOW_MIN)  # fmt: skip


def decided_text(cup: CupRecord, match: Match, locale: str) -> str:
    assert cup.bracket is not None
    return "🏁 " + match_line(cup.bracket, match, locale)
