"""What the puzzles say, as plain text in the reader's language: a puzzle, a graded answer
with the best answer, a run's summary listing every puzzle, a board, the daily puzzle's
spoiler-free card and its lines for the daily post. No discord: any face renders these.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.common import fmt, mention, timestamp
from bot.i18n import t
from bot.puzzles._runs import Graded, Invalid, Shown
from bot.storage import BoardLine, Puzzle, PuzzleAnswer, PuzzleKind, PuzzleRun
from rules import FormulaLanguage


def grade_text(value: float, locale: str) -> str:
    """A grade or a sum of grades with two decimals, as the reader writes decimals."""
    text = f"{value:.2f}"
    return text.replace(".", ",") if locale.startswith("uk") else text


def head(run: PuzzleRun, locale: str) -> str:
    name = run.game_set.name
    if run.kind is PuzzleKind.STORM:
        return t("puzzles.head.storm", locale, set=name, when=timestamp(run.ends_at or 0))
    if run.kind is PuzzleKind.STREAK:
        return t("puzzles.head.streak", locale, set=name, count=run.solved)
    return t("puzzles.head.daily", locale, set=name, day=run.period or "")


def puzzle_text(shown: Shown, locale: str, *, first: bool = False) -> str:
    """The puzzle to answer, under its run's head."""
    lang = shown.run.game_set.language
    lines = [head(shown.run, locale)]
    if first:
        lines.append(t("puzzles.puzzle.rule", locale))
    lines.append(
        t("puzzles.puzzle", locale, number=shown.seq, digits=shown.puzzle.digits,
          score=fmt(shown.puzzle.score, lang), when=timestamp(shown.deadline))
    )  # fmt: skip
    return "\n".join(lines)


def best_line(puzzle: Puzzle, lang: FormulaLanguage, locale: str) -> str:
    return t("puzzles.best", locale, formula=puzzle.best_formula,
             result=fmt(puzzle.best_result, lang), score=fmt(puzzle.best_score, lang))  # fmt: skip


def answer_line(answer: PuzzleAnswer, lang: FormulaLanguage, locale: str, late: bool) -> str:
    if answer.formula is None or answer.score is None:
        key = "puzzles.late" if late else "puzzles.skipped"
        return t(key, locale, number=answer.seq)
    return t("puzzles.graded", locale, number=answer.seq, formula=answer.formula,
             score=fmt(answer.score, lang),
             grade=grade_text(answer.grade, locale))  # fmt: skip


def graded_text(graded: Graded, locale: str, *, sealed: bool) -> str:
    """An answer's grade and the best answer (hidden while a daily puzzle is sealed),
    then the next puzzle, or the run's summary is sent after it."""
    run = graded.run
    lang = run.game_set.language
    if graded.late and run.kind is PuzzleKind.STORM:
        return t("puzzles.storm_over", locale)
    lines = [answer_line(graded.answer, lang, locale, graded.late)]
    lines.append(t("puzzles.best.sealed", locale) if sealed
                 else best_line(graded.answer.puzzle, lang, locale))  # fmt: skip
    if graded.next is not None:
        lines += ["", puzzle_text(graded.next, locale)]
    return "\n".join(lines)


def invalid_text(invalid: Invalid, formula: str, error: str, locale: str) -> str:
    return "\n".join(
        [t("puzzles.invalid", locale, formula=formula, error=error), "",
         puzzle_text(invalid.shown, locale)]
    )  # fmt: skip


def summary_text(
    run: PuzzleRun, answers: list[PuzzleAnswer], locale: str, *, sealed: bool,
    earned: Sequence[str] = (),
) -> str:  # fmt: skip
    """The run's result and every puzzle of it: Digits, Score, the answer, the grade and
    the best answer (a sealed daily puzzle: the answer's grade only); then what the run
    earned (`earned`: achievements' lines)."""
    lang = run.game_set.language
    total = grade_text(run.total, locale)
    name = run.game_set.name
    if run.kind is PuzzleKind.STORM:
        title = t("puzzles.summary.storm", locale, set=name, total=total, solved=run.solved,
                  count=len(answers))  # fmt: skip
    elif run.kind is PuzzleKind.STREAK:
        title = t("puzzles.summary.streak", locale, set=name, solved=run.solved)
    else:
        spent = sum(a.seconds for a in answers)
        title = t("puzzles.summary.daily", locale, set=name, day=run.period or "", total=total,
                  seconds=f"{spent:.0f}")  # fmt: skip
    lines = [title]
    for answer in answers:
        given = (
            t("puzzles.summary.no_answer", locale)
            if answer.formula is None or answer.score is None
            else t("puzzles.summary.answer", locale, formula=answer.formula,
                   score=fmt(answer.score, lang))
        )  # fmt: skip
        puzzle = answer.puzzle
        if sealed:
            lines.append(t("puzzles.summary.line_sealed", locale, number=answer.seq,
                           answer=given, grade=grade_text(answer.grade, locale)))  # fmt: skip
            continue
        lines.append(
            t("puzzles.summary.line", locale, number=answer.seq, digits=puzzle.digits,
              score=fmt(puzzle.score, lang), answer=given, grade=grade_text(answer.grade, locale),
              best=puzzle.best_formula, best_score=fmt(puzzle.best_score, lang))
        )  # fmt: skip
    lines.extend(earned)
    lines.append(t("puzzles.summary.unranked", locale))
    return "\n".join(lines)


def board_text(kind: PuzzleKind, window: str, lines: list[BoardLine], locale: str) -> str:
    out = [t("puzzles.board.title", locale, kind=t(f"puzzles.kind.{kind.value}", locale),
             window=t(f"puzzles.window.{window}", locale))]  # fmt: skip
    if not lines:
        out.append(t("puzzles.board.empty", locale))
    for place, line in enumerate(lines, start=1):
        out.append(
            t(f"puzzles.board.{kind.value}", locale, place=place, player=mention(line.user_id),
              total=grade_text(line.total, locale), solved=line.solved,
              seconds=f"{line.seconds:.0f}")
        )  # fmt: skip
    return "\n".join(out)


def share_text(run: PuzzleRun, answers: list[PuzzleAnswer], locale: str) -> str:
    """The daily puzzle's card: who, which day, the grade and the time; no Digits, no
    formula, no Score, so it spoils nothing while the day is sealed."""
    spent = sum(a.seconds for a in answers)
    return t("puzzles.share.card", locale, player=mention(run.user_id), day=run.period or "",
             total=grade_text(run.total, locale), seconds=f"{spent:.0f}")  # fmt: skip


def daily_lines(
    lines: list[BoardLine], puzzle: Puzzle | None, lang: FormulaLanguage, locale: str
) -> list[str]:
    """What the daily post (`bot.daily`) shows of a closed day's puzzle: how many played,
    the best grade, the best answer; nothing when nobody played it."""
    if not lines:
        return []
    out = [t("puzzles.daily.line", locale, count=len(lines),
             total=grade_text(max(b.total for b in lines), locale))]  # fmt: skip
    if puzzle is not None:
        out.append(t("puzzles.daily.best", locale, formula=puzzle.best_formula,
                     score=fmt(puzzle.best_score, lang), digits=puzzle.digits,
                     from_score=fmt(puzzle.score, lang)))  # fmt: skip
    return out
