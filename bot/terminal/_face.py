"""The terminal face: what the game flow announces (`GameEvents`), printed.

It shows the games started from the terminal (`Face.TERMINAL`, stored with each game),
as `bot.games.Announcer` shows Discord's: the flow calls it after each step is saved,
with the game as stored, so the terminal prints what the rules and the store decided
(the answer's points, the round's best answer, the outcome), never its own reckoning.
"""

from __future__ import annotations

import asyncio
from typing import TextIO

import rules
from bot.i18n import DEFAULT_LOCALE, t
from bot.play import Clock, Posted, Via
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange, Reveal
from bot.terminal._text import fmt, summary
from evaluator.language import language

NO_MESSAGE = 0
"""A round printed in the terminal has no message to edit later."""


class TerminalFace:
    """Prints its games' steps to `out` in `locale`; `over` is set when the game it shows
    ends."""

    def __init__(self, out: TextIO, clock: Clock, locale: str = DEFAULT_LOCALE) -> None:
        self.out = out
        self.clock = clock
        self.locale = locale
        self.over = asyncio.Event()

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _best(self, record: GameRecord, number: int) -> None:
        """Round `number`'s best answer, as far as the solver found it in time."""
        lang = record.state.game_set.language
        found: list[Reveal] = record.meta.best_of(number)
        for best in found[:1]:
            result, score = fmt(best.result, lang), fmt(best.score, lang)
            line = t("terminal.best", self.locale, formula=best.formula, result=result, score=score)
            self._print(f"  {line}")

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Via | None = None
    ) -> Posted | None:
        del via
        state = record.state
        rnd = state.current_round
        if rnd is None:
            return None
        if rnd.number > 1 and not replayed:
            self._best(record, rnd.number - 1)
        game_set = state.game_set
        line = t(
            "terminal.round", self.locale, number=rnd.number, max=game_set.max_rounds,
            score=fmt(state.scores[0], game_set.language), digits=rnd.digits,
            time=game_set.time_limit,
        )  # fmt: skip
        self._print(f"\n{line}")
        return Posted(NO_MESSAGE, self.clock())

    async def answer_received(
        self, record: GameRecord, player: int, via: Via | None = None
    ) -> None:
        del record, player, via  # one player: the round resolves on the answer

    async def round_resolved(self, record: GameRecord, number: int, via: Via | None = None) -> None:
        del via
        answer = record.state.rounds[number - 1].answers[0]
        if answer is None or answer.auto:
            self._print(f"  {t('terminal.time_up', self.locale)}")
            return
        lang = language(record.state.game_set.language)
        line = t(
            "terminal.answer", self.locale, formula=answer.formula,
            result=fmt(answer.result, lang.key), type=lang.type_name(answer.result),
            points=fmt(answer.points, lang.key), score=fmt(answer.score, lang.key),
        )  # fmt: skip
        self._print(f"  {line}")

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        del record, message_id

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Via | None = None
    ) -> None:
        del ratings, via
        state = record.state
        result = state.outcome
        if result is not None and result.termination is rules.Termination.TIMEOUT:
            self._print(f"  {t('terminal.time_up', self.locale)}")
        if state.rounds:
            self._best(record, len(state.rounds))
        self._print("\n" + summary(state, self.locale))
        self.over.set()

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        del challenge, status  # challenges are Discord's

    async def has_left(self, guild_id: int, user_id: str) -> bool:
        del guild_id, user_id
        return False  # the player at the terminal is the one typing
