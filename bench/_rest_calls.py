"""The bot-token and interaction calls each mode's game makes, before and after issue 20:
the model `bench_rest` scales (each figure counted by route on simcord, as its
docstring says). Apart from the simulation so each can be read alone."""

from __future__ import annotations

from dataclasses import dataclass, replace

ROUNDS = 7
TIME_LIMIT_S = 120.0
ANSWER_S = (10.0, 80.0)
TIMEOUT_SHARE = 0.10
MIX = {"training": 0.40, "qualification": 0.30, "duel": 0.25, "practice": 0.05}


@dataclass(frozen=True)
class Calls:
    """Bot-token calls of one game, by what happens in each round.

    `answered`: a round answered in time (its result, the next round); `last_answered`:
    the last one (its result, the summary). A timed-out round: `timed_out` after an
    answered round (a kept interaction may carry it), `timed_out_first` for round 1 and
    `timed_out_again` after another timeout (a duel then asks whether the players left);
    `last_timed_out`: the last round's. `ends_on_timeout`: a single-player game is
    lost at its first timeout, so that round is its last. `archive`: optional."""

    start: int
    answered: int
    last_answered: int
    timed_out: int
    timed_out_first: int
    timed_out_again: int
    last_timed_out: int
    ends_on_timeout: bool
    archive: int = 1

    def round_cost(self, number: int, timed_out: bool, after_timeout: bool) -> int:
        last = number == ROUNDS or (timed_out and self.ends_on_timeout)
        if not timed_out:
            return self.last_answered if last else self.answered
        if number == 1:
            return self.timed_out_first
        if after_timeout:
            return self.timed_out_again
        return self.last_timed_out if last else self.timed_out


def _legacy(start: int, answered: int, timed_out: int, end: int) -> Calls:
    """The model before issue 20 and its first counts: a timeout cost the same in every
    round, and a game went on after it (the last round: the next post is the summary)."""
    return Calls(
        start=start, answered=answered, last_answered=answered + end, timed_out=timed_out,
        timed_out_first=timed_out, timed_out_again=timed_out, last_timed_out=timed_out,
        ends_on_timeout=False,
    )  # fmt: skip


BEFORE = {
    # before issue 20: thread (+ the player added, private); a round's post and its
    # result edit; the summary
    "training": _legacy(start=1, answered=2, timed_out=2, end=1),
    "qualification": _legacy(start=2, answered=2, timed_out=2, end=1),
    # a duel round: its post, "X has answered" (an edit), its result (an edit)
    "duel": _legacy(start=1, answered=3, timed_out=3, end=1),
    "practice": _legacy(start=1, answered=3, timed_out=3, end=1),
}


def _single_thread(start: int) -> Calls:
    """Round 1 timed out: its result's edit and the summary by the bot token (nothing
    carries them) and whether the player left (one GET); after an answered round the
    answer's kept interaction carries both: the GET alone."""
    return Calls(
        start=start, answered=0, last_answered=0, timed_out=1, timed_out_first=3,
        timed_out_again=3, last_timed_out=1, ends_on_timeout=True,
    )  # fmt: skip


_DUEL = Calls(  # a duel with its thread: see NOW below
    start=2,
    answered=0,
    last_answered=0,
    timed_out=0,
    timed_out_first=2,
    timed_out_again=4,
    last_timed_out=0,
    ends_on_timeout=False,
)
NOW = {
    # counted by route on simcord (tests/bot/games/test_interaction_rounds.py,
    # test_private_games.py): the thread (+ the player added, private) and round 1 by
    # the bot token; an answered round rides its interaction (the result, the next
    # round, the summary after it); a timed-out round rides the kept interaction of the
    # answer that posted it, except round 1 (posted by the bot token: its edit and the
    # next post) and a second miss in a row (+ one GET per player: did they leave?)
    "training": _single_thread(start=2),
    "qualification": _single_thread(start=3),
    "duel": _DUEL,
    # Practice: the bot never misses, so a second miss in a row asks about one player
    "practice": replace(_DUEL, timed_out_again=3),
}
_SINGLE_PRIVATE = Calls(
    # no thread, no archive: the start's interaction carries round 1, every answer the
    # result and the next round, the kept interaction a timeout's result and summary;
    # the one bot-token call is whether the player left (a miss ends the game)
    start=0, answered=0, last_answered=0, timed_out=1, timed_out_first=1,
    timed_out_again=1, last_timed_out=1, ends_on_timeout=True, archive=0,
)  # fmt: skip
PRIVATE = {
    # SOLO_GAMES=private (tests/bot/games/test_private_games.py); duels keep threads
    "training": _SINGLE_PRIVATE,
    "qualification": _SINGLE_PRIVATE,
    "duel": NOW["duel"],
    "practice": Calls(
        start=0,
        answered=0,
        last_answered=0,
        timed_out=0,
        timed_out_first=0,
        timed_out_again=1,
        last_timed_out=0,
        ends_on_timeout=False,
        archive=0,
    ),
}
PLAYERS = {"training": 1, "qualification": 1, "duel": 2, "practice": 1}
"""People answering in a game of each mode (Practice's bot answers on the person's
interaction: no interaction of its own)."""
ANSWER_KNEE_PER_S = 200.0
"""Answers one process handles with p99 under 50 ms (`bench_service`, docs/scaling.md):
300/s fails. What sets how many processes a number of games needs."""
FOLLOWUPS_PER_ANSWER = {"callback": 1, "edit": 1, "post": 1}
"""Interaction calls of an answered round (tests/bot/games/test_followups.py): the
modal's callback (a deferred update), the round's message edited into its result, the
next round (or the summary) posted with the verdict folded in. All outside the bot
token's global limit; the edit and the post are webhook calls, each in the answer's
channel's webhook bucket and the interaction's own."""
ARCHIVE_WAIT_S = 1.0
"""`bot/games/_closing.py`: an archive behind a longer optional lane is left to Discord."""
