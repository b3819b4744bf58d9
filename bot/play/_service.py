"""The game service: rules + evaluator + store + timers, and nothing of Discord.

It owns small collaborators with one job each -- `ActiveGames` (this process's
games and their locks), `AnswersInFlight` (formulas still in PHP), `Seats` (who may
start a game), `Challenges`, and `RoundFlow` (rounds, deadlines, the end, restarts)
-- and is the one door the Discord side calls: a cog never reaches past it to the
store or a collaborator (tests/test_layering.py). Legality is asked of the rules
(`rules.submit_problem`); a refusal is a `GameError` with the rules' own code.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import partial

import rules
from bot.common import ListedSet, SetsDirectory
from bot.play._active import ActiveGames
from bot.play._challenges import Challenges
from bot.play._faces import Faces
from bot.play._flow import RoundFlow
from bot.play._in_flight import AnswersInFlight
from bot.play._practice import PracticeOpponent
from bot.play._refusals import PlayingElsewhere, Refusal
from bot.play._reveals import Reveals
from bot.play._seats import Seats
from bot.play._sharing import Share, claim_share, share_key
from bot.play._starts import Solo, Starts
from bot.play._types import (
    Clock,
    DigitsSource,
    Evaluating,
    GameError,
    GameEvents,
    NoEvents,
    OpenChannel,
    OpenDuelChannel,
    Presence,
    Revealer,
    SubmitResult,
    Via,
    answer_grace,
    random_digits_source,
)
from bot.play._waiting import waits_for_player
from bot.storage import Challenge, Face, GameRecord, StaleGame, Store
from evaluator.result import EvalError, Evaluation
from rules import GameSet
from solver.practice import Level


class GameService:
    def __init__(
        self,
        store: Store,
        evaluator: Evaluating,
        global_sets: Mapping[str, GameSet],
        events: GameEvents | None = None,
        *,
        presence: Presence | None = None,
        revealer: Revealer | None = None,
        owns: Callable[[int], bool] = lambda guild_id: True,
        clock: Clock = time.time,
        digits_source: DigitsSource | None = None,
        answer_grace_s: float | None = None,
        private_solo: bool = False,
        faces: Faces | None = None,
    ) -> None:
        """`private_solo`: one player's games in private messages unless a server chose
        otherwise (`SOLO_GAMES`, `/config games`).

        `faces`: the router of each game's events to the face it was started from; each
        face attaches itself to it (`faces.attach`). Without it, `events` and `presence`
        are Discord's (what a service had before it had faces; None: silent until the
        Discord face attaches)."""
        self.store = store
        self.evaluator = evaluator
        if faces is None:
            faces = Faces()
            faces.attach(Face.DISCORD, events or NoEvents(), presence or NoEvents())
        self.faces = faces
        self.events: GameEvents = faces
        self.clock = clock
        self.sets = SetsDirectory(store, global_sets)
        self.active = ActiveGames()
        self.in_flight = AnswersInFlight()
        self.seats = Seats(store, clock)
        self.owns = owns
        self.challenges = Challenges(store, clock, self.seats, self.sets, self.events, owns)
        self.flow = RoundFlow(
            store,
            self.active,
            self.in_flight,
            faces,
            Reveals(revealer),
            PracticeOpponent(revealer, clock, self._bot_answer),
            owns=owns,
            clock=clock,
            digits=digits_source or random_digits_source,
            answer_grace=answer_grace(evaluator) if answer_grace_s is None else answer_grace_s,
        )
        self.starts = Starts(
            store, self.sets, self.seats, self.challenges, self.active, self.flow, clock,
            private_solo=private_solo,
        )  # fmt: skip

    # --------------------------------------------------------------- lookups

    def game_in_channel(self, channel_id: int) -> GameRecord | None:
        return self.active.in_channel(channel_id)

    async def game_of(self, guild_id: int, user_id: int) -> GameRecord | None:
        stored = await self.store.games.active_game_of(guild_id, user_id)
        if stored is None:
            return None
        return self.active.get(stored.state.id) or stored

    async def load(self, game_id: str) -> GameRecord | None:
        return self.active.get(game_id) or await self.store.games.load_game(game_id)

    async def playable_sets(self, guild_id: int) -> list[ListedSet]:
        return await self.sets.playable(guild_id)

    async def set_named(self, guild_id: int, name: str | None) -> GameSet:
        """The Set `name` playable on the server (UnknownSet names the others)."""
        return await self.sets.resolve(guild_id, name)

    def language_of(self, game_id: str) -> rules.FormulaLanguage:
        """The language of a game this process runs (PHP for one it does not)."""
        live = self.active.get(game_id)
        return live.state.game_set.language if live is not None else rules.FormulaLanguage.PHP

    def check_can_answer(self, game_id: str, user_id: int, round_number: int) -> rules.Round:
        """Refuse early (before a modal opens) what `submit` would refuse anyway.

        From this process's copy alone: a modal must be the interaction's first
        response, so there is no time for a database read. A game this process
        does not run is over (a restart loads every active game first).
        """
        record = self.active.get(game_id)
        if record is None:
            raise GameError(Refusal.GAME_OVER)
        self._problem(record, user_id, round_number, self.clock())
        return record.state.rounds[round_number - 1]

    def waits_for(self, game_id: str, user_id: int) -> bool:
        """Whether the game's open round waits unseen for this player's next press (a
        private round no token of theirs could carry: `waits_for_player`)."""
        record = self.active.get(game_id)
        return (
            record is not None and str(user_id) in record.state.players
            and waits_for_player(record)
        )  # fmt: skip

    @staticmethod
    def _problem(record: GameRecord, user_id: int, round_number: int | None, now: float) -> None:
        problem = rules.submit_problem(record.state, str(user_id), now, round_number)
        if problem is not None:
            raise GameError.of(problem)

    # ------------------------------------------------------------------ starts

    async def start_single(
        self, mode: Solo, guild_id: int, user_id: int, set_name: str | None, locale: str,
        open_channel: OpenChannel, *, parent_channel_id: int | None = None,
        privately: Via | None = None, face: Face = Face.DISCORD,
    ) -> GameRecord:  # fmt: skip
        """Training or Qualification (`Starts.single`), announced by `face`."""
        return await self.starts.single(
            mode, guild_id, user_id, set_name, locale, open_channel,
            parent_channel_id=parent_channel_id, privately=privately, face=face,
        )  # fmt: skip

    async def start_practice(
        self, guild_id: int, user_id: int, bot_id: int, level: Level, set_name: str | None,
        locale: str, open_channel: OpenChannel, *, parent_channel_id: int | None = None,
        privately: Via | None = None,
    ) -> GameRecord:  # fmt: skip
        """A duel against the bot itself (`Starts.practice`)."""
        return await self.starts.practice(
            guild_id, user_id, bot_id, level, set_name, locale, open_channel,
            parent_channel_id=parent_channel_id, privately=privately,
        )  # fmt: skip

    async def accept_challenge(
        self, challenge_id: str, user_id: int, locale: str, open_channel: OpenDuelChannel
    ) -> GameRecord:
        """A duel from its accepted challenge (`Starts.accept`)."""
        return await self.starts.accept(challenge_id, user_id, locale, open_channel)

    async def starts_left(self, guild_id: int, user_id: int) -> tuple[int, float]:
        """Games the player may still start in the window, and when one is free again
        (`Seats.starts_left`): said before the limit bites."""
        return await self.seats.starts_left(guild_id, user_id)

    async def public_locale(self, guild_id: int, locale: str) -> str:
        """The language of a game's public messages (`Starts.public_locale`)."""
        return await self.starts.public_locale(guild_id, locale)

    # ------------------------------------------------------------------ duel

    async def create_challenge(
        self, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int,
        opponent_is_bot: bool, set_name: str | None, locale: str = "en",
    ) -> Challenge:  # fmt: skip
        public = await self.public_locale(guild_id, locale)
        return await self.challenges.create(
            guild_id, channel_id, challenger_id, opponent_id, opponent_is_bot, set_name, public
        )

    async def _bot_answer(
        self, game_id: str, player: int, formula: str, number: int, via: Via | None
    ) -> None:
        await self.submit(game_id, player, formula, number, via=via)

    async def challenge(self, challenge_id: str) -> Challenge | None:
        return await self.store.challenges.load_challenge(challenge_id)

    async def challenge_posted(self, challenge: Challenge, message_id: int) -> None:
        """Its message, for the expiry to edit."""
        await self.challenges.attach_message(challenge, message_id)

    async def decline_challenge(self, challenge_id: str, user_id: int) -> Challenge:
        return await self.challenges.decline(challenge_id, user_id)

    async def cancel_challenge(self, challenge_id: str, user_id: int) -> Challenge:
        return await self.challenges.cancel(challenge_id, user_id)

    async def rematch(self, game_id: str, user_id: int, locale: str = "en") -> Challenge:
        record = await self.load(game_id)
        if record is None:
            raise GameError(Refusal.NO_GAME)
        public = await self.public_locale(record.guild_id, locale)
        return await self.challenges.rematch(record, user_id, public)

    # ---------------------------------------------------------------- playing

    async def submit(
        self, game_id: str, user_id: int, formula: str, round_number: int | None = None,
        *, received: float | None = None, via: Via | None = None,
    ) -> SubmitResult:  # fmt: skip
        """Check the formula with real PHP, then apply it to the round it was meant for.

        The time of receipt (`received`: when Discord took the interaction, else now)
        is the answer's time, so neither REST nor a slow sandbox makes an answer late:
        the round's deadline waits for it (`AnswersInFlight`). The PHP call runs
        outside the lock so two players of a duel are evaluated at once. `via`: the
        answer's interaction, which carries the round's announcements when it can.
        """
        received = self.clock() if received is None else received
        record = await self.load(game_id)
        if record is None:
            raise GameError(Refusal.NO_GAME)
        self._problem(record, user_id, round_number, received)
        rnd = record.state.current_round
        assert rnd is not None  # submit_problem found it open
        game_set = record.state.game_set  # its functions and its language (checker, sandbox)
        with self.in_flight.checking(game_id, user_id, rnd.number, received):
            verdict = await self.evaluator.evaluate(formula, rnd.digits, game_set, who=str(user_id))
            if isinstance(verdict, EvalError):
                return SubmitResult(record, rnd.number, error=verdict)
            return await self._answer(game_id, user_id, rnd.number, verdict, received, via)

    async def _answer(
        self, game_id: str, user_id: int, number: int, verdict: Evaluation, received: float,
        via: Via | None,
    ) -> SubmitResult:  # fmt: skip
        """Apply a valid formula under the lock, to the game as it is now; announce it
        after the lock (`RoundFlow.answered`)."""
        async with self.active.lock(game_id):
            live = await self.flow.current(game_id)
            if live is None:
                raise GameError(Refusal.NO_GAME)
            self._problem(live, user_id, number, received)
            action = rules.Submit(str(user_id), verdict.formula, verdict.value, received)
            state = rules.apply(live.state, action, then=partial(self.flow.next_start, live))
            live = await self.flow.with_last_reveal(live, state)
            try:
                record = await self.flow.commit(live, state)
            except StaleGame as exc:  # another bot process resolved it first
                stored = await self.flow.reload(game_id)
                if stored is not None:
                    self._problem(stored, user_id, number, received)
                raise GameError(Refusal.ROUND_OVER) from exc
            resolved = state.rounds[number - 1].resolved
            if resolved:
                self.flow.timers.cancel(game_id)
            if state.outcome is not None:
                record = await self.flow.finish(record, revealed=True)
        shown = await self.flow.answered(record, number, state.player_index(str(user_id)), via)
        secret = not shown.state.rounds[number - 1].resolved
        return SubmitResult(record, number, evaluation=verdict, secret=secret)

    async def expire(self, game_id: str, round_number: int) -> None:
        """The deadline of `round_number` (the round timer calls it; tests may too)."""
        await self.flow.expire(game_id, round_number)

    async def show_again(self, guild_id: int, user_id: int, via: Via) -> bool:
        """The player's private game in `via`'s channel shows its open round again through
        `via` (a start while it runs): whether there was one to show. One in another
        channel cannot be shown from here (a followup lands in its own channel): the
        refusal names where it is."""
        await self.flow.shows.tells.tell_owed(guild_id, user_id, via)
        record = await self.game_of(guild_id, user_id)
        if record is None or not record.meta.private:
            return False
        if record.channel_id != via.channel_id:
            raise PlayingElsewhere(record.state.mode, record.channel_id)
        return await self.flow.shows.again(record.state.id, via)

    async def resign(self, guild_id: int, user_id: int) -> GameRecord:
        found = await self.game_of(guild_id, user_id)
        if found is None:
            raise GameError(Refusal.NO_GAME)
        game_id = found.state.id
        async with self.active.lock(game_id):
            record = await self.flow.current(game_id)  # never `found`: read before the lock
            if record is None or record.state.outcome is not None:
                raise GameError(Refusal.GAME_OVER)
            state = rules.apply(record.state, rules.Resign(str(user_id)))
            try:
                record = await self.flow.commit(record, state)
            except StaleGame as exc:  # another bot process ended it first
                await self.flow.reload(game_id)
                raise GameError(Refusal.GAME_OVER) from exc
            record = await self.flow.finish(record)
        return await self.flow.show(record)

    async def void_game(self, game_id: str, reason: str) -> GameRecord:
        """End a game this process runs as void (an admin's word); GameError if it is not here."""
        async with self.active.lock(game_id):
            live = self.active.get(game_id)
            if live is None:
                raise GameError(Refusal.CANNOT_VOID, id=game_id[:8])
            record = await self.flow.void(live, reason)
        return await self.flow.show(record)

    async def void_where(
        self, reason: str, *, guild_id: int | None = None, channel_id: int | None = None
    ) -> int:
        """Void this process's games on a server or in a channel Discord took away."""
        doomed = [
            r
            for r in self.active
            if (guild_id is not None and r.guild_id == guild_id)
            or (channel_id is not None and channel_id in (r.channel_id, r.meta.parent_channel_id))
        ]
        for record in doomed:
            async with self.active.lock(record.state.id):
                live = self.active.get(record.state.id)
                voided = await self.flow.void(live, reason) if live is not None else None
            if voided is not None:
                await self.flow.show(voided)
        return len(doomed)

    async def share(self, game_id: str, guild_id: int, user_id: int, locale: str) -> Share:
        """Claim the presser's card once (`_sharing`); `unshare` if its post fails."""
        record = await self.load(game_id)
        return await claim_share(self.store, record, guild_id, user_id, locale, self.clock())

    async def unshare(self, game_id: str, user_id: int) -> None:
        await self.store.install.drop_state(share_key(game_id, user_id))

    # --------------------------------------------------------------- restart

    async def recover(self) -> int:
        """Re-arm every active game and pending challenge after a restart."""
        found = await self.flow.recover()
        await self.challenges.recover()
        return found

    async def close(self) -> None:
        await self.flow.shows.save_unsaved()
        self.flow.close()
        self.challenges.close()
