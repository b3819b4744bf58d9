"""Persistence: games, history, leaderboards, duel ratings, challenges and server Sets.

The bot uses only what is exported here; no SQL lives outside this package.
`open_store(url)` gives a migrated Store on SQLite (default) or PostgreSQL.

The Store opens the database and holds one repository per subject; a feature is
handed the repositories it uses, not the whole Store:

- `store.games` (`GameStore`): save and load a game, find it by id prefix, the running
  and overdue games, a player's history, Qualification attempts and recent starts;
- `store.boards` (`BoardStore`): the Qualification and duel boards, a Set's versions and
  language, stats, streaks, Elo changes and history;
- `store.challenges` (`ChallengeStore`): duel challenges and Rematches;
- `store.sets` (`ServerSetStore`): the Sets a server made its own;
- `store.moderation` (`ModerationStore`): void and unvoid, bar and unbar, the log;
- `store.install` (`InstallStore`): the installation's secrets and state claimed once;
- `store.servers` (settings, daily posts, played days), `store.names`, `store.untold`,
  `store.best`, `store.rooms`, `store.cups`, `store.cup_matches`, `store.puzzles`,
  `store.achievements`, `store.roles`, `store.fairplay`.

How a game is written (why a round is resolved exactly once):

- `store.games.save_game(record)` is one transaction: the `games` row (with the state JSON that
  restores the game exactly, and denormalized ranking fields), its players' totals,
  and only the rounds and answers that are new since the stored state.
- The stored state decides what a save may do. The same state again only updates
  `meta` (message ids and such): saves are idempotent. A state that *extends* the
  stored one (same rounds and Digits, every stored answer kept, resolved rounds
  still resolved, a finished game unchanged) is written. Anything else is a rival
  history -- e.g. the deadline's auto-move racing a player's answer -- and raises
  `StaleGame`; the caller reloads and announces what is stored.
- The game row is locked while deciding (FOR UPDATE on PostgreSQL; on SQLite the
  Store queues its writers), and answers are insert-only under the key (game,
  round, seat), so a second resolution cannot be stored even by a buggy caller.
- The save that ends a rated duel applies its Elo in the same transaction, so the
  end and the rating change land together or not at all. `store.boards.record_duel_result`
  rates a duel once per game (key (game, user) on `rating_events`); calling it
  again returns the same changes.
- A new Qualification game beyond the Set's attempts for that player, period and
  Set version (`games.set_version`) raises `AttemptsUsed`, counted inside the
  insert's transaction. Boards rank one version at a time.

One bot process per SQLite file; PostgreSQL may be shared by several.
"""

from bot.storage._achievements import Earned, Source
from bot.storage._best import PendingBest
from bot.storage._cup_matches import NO_THREAD, STARTING, CupMatchRecord
from bot.storage._cups import ID_BITS as CUP_ID_BITS
from bot.storage._cups import CupPhase, CupRecord, LegRecord, next_cup_id
from bot.storage._engine import (
    DEFAULT_URL,
    current_revision,
    head_revision,
    make_engine,
    normalize_url,
    upgrade,
)
from bot.storage._puzzle_rows import PuzzleKind
from bot.storage._puzzles import (
    BoardLine,
    Puzzle,
    PuzzleAnswer,
    PuzzleRun,
    PuzzleStore,
)
from bot.storage._records import (
    AttemptsUsed,
    Challenge,
    ChallengeStatus,
    ChannelGone,
    Face,
    FinishedThread,
    GameMeta,
    GameRecord,
    LeaderRow,
    ModerationAction,
    ModerationEntry,
    PeriodSummary,
    PlayerStats,
    PostClaim,
    RatingChange,
    RatingRow,
    RematchTaken,
    Reveal,
    RoundBest,
    ServerSettings,
    StaleGame,
    TooManySets,
)
from bot.storage._roles import RoleIntent, RoleReward
from bot.storage._rooms import TABLE, OwedShow, RoomRecord
from bot.storage._store import Store, open_store
from bot.storage._store_boards import BoardStore
from bot.storage._store_games import GameStore
from bot.storage._store_install import InstallStore
from bot.storage._store_moderation import ModerationStore
from bot.storage._store_offers import ChallengeStore, ServerSetStore
from bot.storage._untold import Untold

__all__ = [
    "CUP_ID_BITS",
    "DEFAULT_URL",
    "NO_THREAD",
    "STARTING",
    "TABLE",
    "AttemptsUsed",
    "BoardLine",
    "BoardStore",
    "Challenge",
    "ChallengeStatus",
    "ChallengeStore",
    "ChannelGone",
    "CupMatchRecord",
    "CupPhase",
    "CupRecord",
    "Earned",
    "Face",
    "FinishedThread",
    "GameMeta",
    "GameRecord",
    "GameStore",
    "InstallStore",
    "LeaderRow",
    "LegRecord",
    "ModerationAction",
    "ModerationEntry",
    "ModerationStore",
    "OwedShow",
    "PendingBest",
    "PeriodSummary",
    "PlayerStats",
    "PostClaim",
    "Puzzle",
    "PuzzleAnswer",
    "PuzzleKind",
    "PuzzleRun",
    "PuzzleStore",
    "RatingChange",
    "RatingRow",
    "RematchTaken",
    "Reveal",
    "RoleIntent",
    "RoleReward",
    "RoomRecord",
    "RoundBest",
    "ServerSetStore",
    "ServerSettings",
    "Source",
    "StaleGame",
    "Store",
    "TooManySets",
    "Untold",
    "current_revision",
    "head_revision",
    "make_engine",
    "next_cup_id",
    "normalize_url",
    "open_store",
    "upgrade",
]
