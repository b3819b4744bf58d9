"""How the best answers read: in the next round's message, in the summary, and as accuracy.

Accuracy says how much of what the game allowed a player achieved, 100 % being "as well
as the best possible outcome". The rules name the best outcome: a Perfect (Score 0 within
min_rounds). So, for a player (seat) of a finished or running game:

- a **round** scores 1 when its new Score is no worse than that round's best answer's
  (the solver's, from the Score the player had), or when it still leaves a Perfect in
  reach: the Score could be 0 by round min_rounds at the rules' own pace
  (`rules.compute_min_rounds` of the Score, no more than the rounds left to min_rounds);
  otherwise the part of the best answer's way down the player went,
  (before - got) / (before - best), and 0 when the Score did not come down (a Score can
  bounce up);
- the **game** is 1 when it is the player's Perfect, whatever the rounds could have
  done on the way (big points can make up a slow start); otherwise the mean over the
  rounds whose best answer was found;
- None when no best answer was found for the player (or may not be shown yet).

So a Perfect is 100 %, a game that kept a Perfect in reach every round is 100 % even
when the opponent ended it first, and the best answer's checkout in round 1 does not
make a Perfect played at the rules' pace read 51 %. Pure functions of the stored game.
"""

from __future__ import annotations

from bot.common import fmt, mention
from bot.i18n import t
from bot.play._reveals import score_before
from bot.storage import GameRecord, Reveal
from rules import FormulaLanguage, GameState, compute_min_rounds, is_zero
from rules.grade import grade

FOUND = "🎯"


def _line(reveal: Reveal, locale: str, lang: FormulaLanguage) -> str:
    return t(
        "games.best.line",
        locale,
        formula=reveal.formula,
        result=fmt(reveal.result, lang),
        score=fmt(reveal.score, lang),
    )


def matched(state: GameState, reveal: Reveal) -> bool:
    answer = state.rounds[reveal.round - 1].answers[reveal.seat]
    return answer is not None and float(answer.score) <= float(reveal.score)


def best_field(record: GameRecord, number: int, locale: str) -> tuple[str, str] | None:
    """(title, text) of round `number`'s best answers, for the next round's message."""
    reveals = sorted(record.meta.best_of(number), key=lambda r: r.seat)
    if not reveals:
        return None
    state = record.state
    lines = []
    for reveal in reveals:
        text = _line(reveal, locale, state.game_set.language)
        if matched(state, reveal):
            text += f" {FOUND}"
        if state.mode.is_duel:
            text = f"{mention(state.players[reveal.seat])}: {text}"
        lines.append(text)
    return t("games.best.title", locale, number=number), "\n".join(lines)


def perfect_in_reach(state: GameState, score: float, number: int) -> bool:
    """Whether a Score after round `number` could still be 0 by round min_rounds."""
    game_set = state.game_set
    left = game_set.min_rounds - number
    if is_zero(score):
        return number <= game_set.min_rounds
    return left >= 1 and compute_min_rounds(score, game_set.goal, game_set.bonus) <= left


def round_accuracy(state: GameState, reveal: Reveal) -> float | None:
    """One round's accuracy (the module's definition); None when the player has no answer."""
    answer = state.rounds[reveal.round - 1].answers[reveal.seat]
    if answer is None:
        return None
    if perfect_in_reach(state, answer.score, reveal.round):
        return 1.0  # RULES.md: a round grades 1 while a Perfect is still in reach
    return grade(score_before(state, reveal.round, reveal.seat), reveal.score, answer.score)


def accuracy(record: GameRecord, seat: int) -> float | None:
    """A player's accuracy in the game (the module's definition): 1 for their Perfect,
    else the mean of their round accuracies; None before any best answer was found."""
    state = record.state
    values = [
        value
        for reveal in record.meta.best
        if reveal.seat == seat and (value := round_accuracy(state, reveal)) is not None
    ]
    if not values:
        return None
    result = state.outcome
    perfect = result is not None and result.perfect and is_zero(state.scores[seat])
    return 1.0 if perfect else sum(values) / len(values)


def summary_best(record: GameRecord, number: int, seat: int, locale: str) -> str:
    """ " · best `…` → S" after a round's line in the summary, 🎯 when the player matched it."""
    reveal = next((r for r in record.meta.best_of(number) if r.seat == seat), None)
    if reveal is None:
        return ""
    if matched(record.state, reveal):
        return f" {FOUND}"
    score = fmt(reveal.score, record.state.game_set.language)
    return " · " + t("games.best.short", locale, formula=reveal.formula, score=score)
