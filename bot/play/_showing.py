"""What a game's steps show, after they are saved: a round's result, the next round's
post, the summary (`Shows`, the announcing half of `RoundFlow`).

It runs outside the game's lock, so Discord's retries never hold it, and one game's
announcements run one at a time in the order of its steps (`ActiveGames.voice`).
An answer's interaction, when one carries the step (`Via`), carries them too.

A round's clock starts when its message is up: its deadline is armed only once the
post is noted as shown (`rules.RoundShown`; a round posted as an answer's followup is
noted in the store by the next save, see `Shows.unsaved`). A post that fails past its retries is
tried again later (`REPOST_AFTER_S`), as a fresh round once its deadline has passed
unseen; after the last try the game is void, its attempt given back, and its summary
says why once Discord takes it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Protocol

import rules
from bot.play._practice import PracticeOpponent
from bot.play._reveals import Reveals
from bot.play._round_up import meta_once_up, with_note
from bot.play._telling import Telling, Tells
from bot.play._timers import game_time
from bot.play._types import (
    UNPOSTED,
    ChannelLost,
    Paused,
    Unreachable,
    Via,
    announce,
)
from bot.play._waiting import UNSEEN, wait_for_player, waits_for_player, waits_until
from bot.storage import GameRecord
from rules import GameState

log = logging.getLogger(__name__)

REPOST_AFTER_S = (15.0, 30.0, 60.0, 120.0, 240.0)
"""A round whose post failed past its retries is posted again after these waits
(about eight minutes in all); then the game is void: nobody loses a round unseen."""


@dataclass(slots=True)
class _Todo:
    """What one step still has to show (`Shows.show`), kept while it waits out a pause."""

    answered: int | None
    resolved: int | None
    replaced: int | None
    resumed: bool = False


def _same_open_round(live: GameRecord, record: GameRecord) -> bool:
    """Whether the game still has `record`'s open round open (the same round, not replayed)."""
    now, then = live.state.current_round, record.state.current_round
    if live.state.outcome is not None or now is None or then is None:
        return False
    return (now.number, now.started_at) == (then.number, then.started_at)


class Steps(Telling, Protocol):
    """What showing needs of the game flow (`RoundFlow`): what telling needs, and more."""

    reveals: Reveals
    practice: PracticeOpponent

    async def commit(self, record: GameRecord, state: GameState) -> GameRecord: ...

    async def void(self, record: GameRecord, reason: str) -> GameRecord: ...

    def arm(self, record: GameRecord) -> None: ...


class Shows:
    def __init__(self, steps: Steps) -> None:
        self.steps = steps
        self.unsaved: set[str] = set()
        """Games whose open round, posted as an answer's followup, is up in this copy
        only: the note (when, which message) rides the game's next save, the next
        answer's (`RoundFlow.commit` clears it), or the clean shutdown's (`save_unsaved`),
        so an answer costs one save. A crash loses only the note: the round is posted
        again with its whole time (an answer from its first post ends that one too),
        the answers are stored. A round posted by the bot token (a start, a timeout, a
        replay) is noted at once: no answer's save follows it soon."""
        self.tells = Tells(steps)
        """The summaries: told, told again until Discord takes them, owed after a restart."""

    async def show(
        self,
        record: GameRecord,
        via: Via | None = None,
        *,
        answered: int | None = None,
        resolved: int | None = None,
        replaced: int | None = None,
        replayed: bool = False,
    ) -> GameRecord:
        """Announce what a step just saved, outside the game's lock, in step order:
        who `answered`, the round `resolved` (its result), an old message `replaced`
        by a replay; then the summary if the game is over, else the open round's post
        if it is not up yet. Returns the game as it is after.

        A bot-token call that meets a 429's pause is not made inside the voice
        (`Paused`): the step lets the voice go, waits the pause out, and goes on with
        what it had not shown yet, so no later step (a player's answer) waits behind
        the pause for the voice (issue 29). What a later step showed meanwhile is not
        shown again: a round it moved past is not posted."""
        todo = _Todo(answered, resolved, replaced)
        game_id = record.state.id
        while True:
            async with self.steps.active.voice(game_id):
                try:
                    return await self._show(record, via, todo, replayed=replayed)
                except Paused as paused:
                    wait = paused.seconds
            log.info("game %s: its announcements wait %.1f s for a 429's pause", game_id, wait)
            await game_time.wait(wait)
            todo.resumed = True

    async def _show(
        self, record: GameRecord, via: Via | None, todo: _Todo, *, replayed: bool
    ) -> GameRecord:
        """`show`'s part inside the voice; `todo` keeps what is shown across a pause."""
        game_id = record.state.id
        try:
            if todo.answered is not None:
                await announce(
                    f"game {game_id} answer",
                    self.steps.events.answer_received(record, todo.answered, via),
                )
                todo.answered = None
            if todo.resolved is not None:
                await announce(
                    f"game {game_id} round {todo.resolved}",
                    self.steps.events.round_resolved(record, todo.resolved, via),
                )
                todo.resolved = None
        except ChannelLost as lost:
            return await self._void_now(record, lost.reason)
        if record.state.outcome is not None:
            if not await self.tells.over(record, via):
                await self.tells.later(record, 1, REPOST_AFTER_S[0])
            return record
        if todo.resumed:  # a later step may have shown the game while this one waited
            live = self.steps.active.get(game_id)
            if live is None or not _same_open_round(live, record):
                return live or record
            record = live
        rnd = record.state.current_round
        if rnd is None:
            return record
        if rnd.shown_at is not None:
            if not self.steps.timers.armed(game_id):
                self.steps.arm(record)
            if todo.resumed and todo.replaced is not None:  # posted before the pause
                await self._replaced(record, todo)
            return record
        shown = await self._post_round(record, via, replayed=replayed)
        if shown is not record:
            await self._replaced(shown, todo)
        return shown

    async def _replaced(self, shown: GameRecord, todo: _Todo) -> None:
        """The replayed round's old message says so (`GameEvents.round_replaced`)."""
        if todo.replaced is not None:
            await announce(
                f"game {shown.state.id} old round message",
                self.steps.events.round_replaced(shown, todo.replaced),
            )
            todo.replaced = None

    def with_unsaved(self, stored: GameRecord) -> GameRecord:
        """`stored` with this copy's note that its open round is up, which the store gets
        with the game's next save (`Shows.unsaved`): a reload must not post it again."""
        game_id = stored.state.id
        mine = self.steps.active.get(game_id)
        if game_id not in self.unsaved or mine is None:
            return stored
        noted = with_note(stored, mine)
        if noted is None:
            self.unsaved.discard(game_id)  # the store moved on: its copy is the truth
            return stored
        return noted

    async def save_unsaved(self) -> None:
        """At a clean shutdown: write every round's note that it is up, so the next start
        arms those rounds instead of posting them again."""
        for game_id in list(self.unsaved):
            async with self.steps.active.lock(game_id):
                live = self.steps.active.get(game_id)
                if live is None or game_id not in self.unsaved:
                    continue
                try:
                    await self.steps.commit(live, live.state)
                except Exception:  # the next start posts the round again: nothing is lost
                    log.warning("game %s: saving that its round is up failed", game_id)

    async def _post_round(
        self, record: GameRecord, via: Via | None, *, replayed: bool
    ) -> GameRecord:
        """Post the open round (with the last round's best answers), then save when and
        where it appeared and only then arm its deadline. A post that failed past its
        retries is tried again later: the round's clock has not started."""
        game_id = record.state.id
        number = len(record.state.rounds)
        if not replayed and number > 1 and not record.meta.best_of(number - 1):
            found = await self.steps.reveals.take(record, number - 1)
            if found:  # none (no solver, none in time): the same record, not two copies
                best = (*record.meta.best, *found)
                record = replace(record, meta=replace(record.meta, best=best))
        try:
            posted = await self.steps.events.round_started(record, replayed=replayed, via=via)
        except ChannelLost as lost:
            return await self._void_now(record, lost.reason)
        except Paused:  # not a failed post: `show` waits the pause out and posts it then
            self._keep_best(record)
            raise
        except Exception as error:
            await self._not_posted(game_id, number, error)
            return self.steps.active.get(game_id) or record
        async with self.steps.active.lock(game_id):
            live = self.steps.active.get(game_id)
            rnd = live.state.current_round if live is not None else None
            if live is None or rnd is None or rnd.number != number or rnd.shown_at is not None:
                log.info("game %s: round %s moved on while it was posted", game_id, number)
                return live or record
            # up: no failed post left to count; where it is; all in one copy of the meta
            noted = meta_once_up(live.meta.best, record.meta.best, posted, number)
            meta = replace(live.meta, **noted)
            at = posted.at if posted is not None else self.steps.clock()  # None: no front end
            state = rules.apply(live.state, rules.RoundShown(at))  # always new: it was unshown
            shown = replace(live, meta=meta, state=state)
            if via is not None:  # one save per answer: it rides the next
                self.steps.active.remember(shown)
                self.unsaved.add(game_id)
            else:  # a start, a timeout, a replay: no answer's save follows soon
                try:
                    shown = await self.steps.commit(replace(live, meta=meta), state)
                except Exception:  # the round is up: its clock runs, saved or not
                    log.exception("game %s: saving that round %s is up failed", game_id, number)
                    self.steps.active.remember(shown)
            self.steps.arm(shown)  # answers count until the deadline plus the post's delay
            self.steps.reveals.start(shown)
            self.steps.practice.play(shown)
            return shown

    def _keep_best(self, record: GameRecord) -> None:
        """The last round's best answers `record` found ride the game's copy (and its next
        save), so its post after a pause does not solve them again."""
        live = self.steps.active.get(record.state.id)
        if live is None or not _same_open_round(live, record):
            return
        if len(record.meta.best) > len(live.meta.best):
            meta = replace(live.meta, best=record.meta.best)
            self.steps.active.remember(replace(live, meta=meta))

    async def _not_posted(self, game_id: str, number: int, error: Exception) -> None:
        """Round `number`'s post failed: it is tried again later (when the 429 that
        refused it ends, else on the re-post schedule, to a void), or, never seen because
        its player's token aged or died, it waits for their next press (`_waiting`)."""
        held = getattr(error, "retry_after_s", None)  # a 429 said when it may go
        if isinstance(error, Unreachable) and error.waits:  # never seen: no end for it
            log.info("game %s: round %s waits for its player's press: %s", game_id, number, error)
            async with self.steps.active.lock(game_id):
                await wait_for_player(self.steps, game_id, number)
                waiting = self.steps.active.get(game_id)
                if waiting is not None and waits_for_player(waiting):
                    self.keep_waiting(waiting)
            return
        if isinstance(error, Unreachable):
            log.info("game %s: round %s waits for its player: %s", game_id, number, error)
        elif held is not None:
            log.info("game %s: round %s waits %.0f s for a 429", game_id, number, held)
        else:
            log.exception("game %s: posting round %s failed", game_id, number, exc_info=error)
        async with self.steps.active.lock(game_id):
            tries = await self._count_failed_post(game_id, number, save=True)
        self._post_later(game_id, number, tries, held)

    async def _count_failed_post(self, game_id: str, number: int, *, save: bool) -> int:
        """Under the lock: count one more failed post of round `number` with the game,
        saved (`save`), so a restart keeps the bound; the tries before this one."""
        live = self.steps.active.get(game_id)
        if live is None:
            return 0
        meta = live.meta
        tries = (meta.repost_tries or 0) if meta.repost_round == number else 0
        counted = replace(live, meta=replace(meta, repost_round=number, repost_tries=tries + 1))
        self.steps.active.remember(counted)
        if save:
            try:
                await self.steps.commit(counted, counted.state)
            except Exception:  # the store is down too: the count is in memory until it is back
                log.warning("game %s: saving the failed post of round %s failed", game_id, number)
        return tries

    def _post_later(
        self, game_id: str, number: int, tries: int, held_s: float | None = None
    ) -> None:
        """Try the round's post again later (when the 429 that refused it ends, `held_s`,
        else on the fixed schedule); after the last try, the game is void. The re-post
        holds the round's timer, so no deadline or sweep ends it meanwhile."""
        if tries >= len(REPOST_AFTER_S):
            now = self.steps.clock()
            self.steps.timers.later(game_id, now, lambda: self._give_up(game_id, number))
            return
        wait = REPOST_AFTER_S[tries] if held_s is None else held_s + 1.0
        moment = self.steps.clock() + wait
        self.steps.timers.later(game_id, moment, lambda: self.repost(game_id, number))

    def keep_waiting(self, record: GameRecord) -> None:
        """Hold the waiting round's timer (no deadline, no sweep) until the wait's end,
        when the game is given up (`_waiting`)."""
        number = len(record.state.rounds)
        moment = waits_until(record)
        self.steps.timers.later(
            record.state.id, moment, lambda: self._give_up(record.state.id, number, UNSEEN)
        )

    async def again(self, game_id: str, via: Via) -> bool:
        """A private game's open round shown again through `via`, the player's start
        while it runs: an ephemeral message is gone when Discord's app reloads, and a
        round no interaction could carry (after a restart) waits for this one. An
        unseen round starts its clock now; a seen one keeps its deadline, its new
        message the one its result goes to."""
        record = self.steps.active.get(game_id)
        rnd = record.state.current_round if record is not None else None
        if record is None or rnd is None or record.state.outcome is not None:
            return False
        if rnd.shown_at is None:
            await self.repost(game_id, rnd.number, via)
            return True
        async with self.steps.active.voice(game_id):
            posted = await announce(
                f"game {game_id} round {rnd.number} again",
                self.steps.events.round_started(record, via=via),
            )
        if posted is None:
            return False
        async with self.steps.active.lock(game_id):
            live = self.steps.active.get(game_id)
            now = live.state.current_round if live is not None else None
            if live is not None and now is not None and now.number == rnd.number:
                meta = replace(live.meta, round_message_id=posted.message_id)
                self.steps.active.remember(replace(live, meta=meta))  # rides the next save
        return True

    async def repost(self, game_id: str, number: int, via: Via | None = None) -> None:
        """Post the open round `number` again; once its deadline passed unseen it starts
        afresh (`ReplayRound`: the same Digits, a full time limit from now)."""
        async with self.steps.active.lock(game_id):
            record = self.steps.active.get(game_id)
            rnd = record.state.current_round if record is not None else None
            if record is None or rnd is None or rnd.number != number or rnd.shown_at is not None:
                return
            if self.steps.clock() >= rnd.answer_deadline:
                replay = rules.apply(record.state, rules.ReplayRound(self.steps.clock()))
                try:
                    record = await self.steps.commit(record, replay)
                except Exception:  # the store is down: the round waits, unseen and untimed
                    log.exception("game %s: replaying round %s failed", game_id, number)
                    tries = await self._count_failed_post(game_id, number, save=False)
                    self._post_later(game_id, number, tries)
                    return
        await self.show(record, via)

    async def _give_up(self, game_id: str, number: int, reason: str = UNPOSTED) -> None:
        async with self.steps.active.lock(game_id):
            record = self.steps.active.get(game_id)
            rnd = record.state.current_round if record is not None else None
            if record is None or rnd is None or rnd.number != number or rnd.shown_at is not None:
                return
            log.error("game %s: round %s could not be shown (%s); void", game_id, number, reason)
            record = await self.steps.void(record, reason)
        await self.tells.tell(record, 1)

    async def _void_now(self, record: GameRecord, reason: str) -> GameRecord:
        """Discord took the game's place away during an announcement: void it."""
        async with self.steps.active.lock(record.state.id):
            live = self.steps.active.get(record.state.id) or record
            voided = await self.steps.void(live, reason)
        if voided is not live:
            await self.tells.over(voided, None)
        return voided
