"""One server's games (web on) for the web tests, and the `Site` they are served as.

Games are played through the rules engine and saved straight to the store, as in the
leaderboards tests; the names are in the store as the bot keeps them (`Store.names`),
one of them hostile. One Qualification is of today (its period runs): its Digits must never
reach a page.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from types import SimpleNamespace

from aiohttp.test_utils import TestClient

import rules
from bot.i18n import catalog, use_synced_commands
from bot.storage import GameMeta, GameRecord, Reveal, Store

GUILD = 1
OTHER_GUILD = 2
PAST = "2026-01-01"
HOSTILE = '<script>alert("x")</script><b>bob</b>'
SECRET_DIGITS = "7391"
ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104


NAMES = {ALICE: "Alice", BOB: HOSTILE, CAROL: "Carol", DAVE: "Dave"}
"""The players' names as the bot kept them from their interactions (`Store.names`)."""


async def qualification(
    store: Store, guild: int, game_id: str, player: int, results: Sequence[rules.Number],
    *, period: str = PAST, digits: str = "1234", formula: str = "12*3+4",
    finish: bool = True, best: bool = False, game_set: rules.GameSet = rules.CLASSIC,
) -> GameRecord:  # fmt: skip
    state = rules.new_game(game_id, rules.Mode.QUALIFICATION, game_set, [str(player)])
    for number, result in enumerate(results):
        state = rules.apply(state, rules.StartRound(digits, 1000.0 * number))
        state = rules.apply(state, rules.Submit(str(player), formula, result, 1000.0 * number + 9))
    if not finish:
        state = rules.apply(state, rules.StartRound(digits, 99_000.0))
    reveals = (Reveal(1, 0, "1*234", 234, 34, 467),) if best else ()
    record = GameRecord(
        state=state, guild_id=guild, channel_id=1, period=period, seed="s",
        created_at=1_767_225_600.0, meta=GameMeta(best=reveals),
    )  # fmt: skip
    await store.games.save_game(record)
    return record


@dataclass
class Site:
    store: Store
    client: TestClient
    key: str

    @property
    def base(self) -> str:
        return f"/s/{self.key}/"


def today() -> str:
    return rules.period_of(datetime.now(UTC), UTC)


async def populate(store: Store) -> str:
    """Alice checks out in 4, Bob (hostile name) in 5, Carol finishes 7 rounds, all of a
    past day; Dave's game of today is still being played on SECRET_DIGITS."""
    await qualification(store, GUILD, "a" * 32, ALICE, [100, 100, 100, 51], best=True)
    await qualification(store, GUILD, "b" * 32, BOB, [100, 100, 100, 100, 99], formula="1<2>3&4")
    await qualification(store, GUILD, "c" * 32, CAROL, [1] * 7)
    await qualification(
        store, GUILD, "d" * 32, DAVE, [100], period=today(), digits=SECRET_DIGITS,
        formula="73*9+1", finish=False,
    )  # fmt: skip
    await qualification(store, OTHER_GUILD, "e" * 32, ALICE, [100, 100, 100, 51])
    await store.names.remember(GUILD, NAMES, 1.0)
    settings = await store.servers.set_web(GUILD, True, 1.0)
    assert settings.web_key is not None
    return settings.web_key


SYNCED_ID = 1456074444194709510
"""A command id as Discord gives one (19 digits)."""


@contextmanager
def synced_commands() -> Iterator[None]:
    """The process as after the bot synced its commands (any bot test before, or the bot
    serving the pages): the catalog knows their ids, so a Discord text mentions them.
    The ids known before come back after."""
    ids = catalog().command_ids
    kept = dict(ids._ids)
    names = ("training", "qualification", "duel", "practice", "answer", "resign", "rules",
             "leaderboard", "stats", "history", "game", "room", "sets", "config")  # fmt: skip
    use_synced_commands([SimpleNamespace(name=n, id=SYNCED_ID) for n in names])
    try:
        yield
    finally:
        use_synced_commands([SimpleNamespace(name=n, id=i) for n, i in kept.items()])


async def rated_duel(store: Store, game_id: str, at: float) -> GameRecord:
    """Alice beats Bob in a rated Online Duel started at `at` (Score 0 in round 4)."""
    state = rules.new_game(game_id, rules.Mode.DUEL, rules.CLASSIC, [str(ALICE), str(BOB)])
    for number, (a, b) in enumerate([(100, 90), (100, 100), (100, 95), (51, 99)]):
        start = at + 200 * number
        state = rules.apply(state, rules.StartRound("1234", start))
        state = rules.apply(state, rules.Submit(str(ALICE), "12*3+4", a, start + 12.5))
        state = rules.apply(state, rules.Submit(str(BOB), "1+2+34", b, start + 30))
    record = GameRecord(
        state=state, guild_id=GUILD, channel_id=1, seed="s", created_at=at, meta=GameMeta()
    )
    await store.games.save_game(record)
    await store.boards.record_duel_result(record)
    return record
