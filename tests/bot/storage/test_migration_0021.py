"""Migration 0021 on a database populated at 0020, SQLite and PostgreSQL: the games
already there are Discord's (the face that started them announces them), and a game
started in the terminal keeps its face through saves, loads and the running games."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncConnection

import rules
from bot.storage import Face, open_store
from bot.storage._games import save
from rules import Mode
from tests.bot.storage.builders import CHECKOUT_4, GUILD, START, record, single
from tests.bot.storage.migrating import upgrade_from


async def test_a_database_at_0020_upgrades_with_every_game_discords(db_url: str) -> None:
    running = rules.new_game("running", Mode.TRAINING, rules.CLASSIC, ["2"])
    running = rules.apply(running, rules.StartRound("3489", START))

    async def fill(conn: AsyncConnection) -> None:
        await save(conn, record(single("done", 1, CHECKOUT_4)), None)
        await save(conn, record(running), None)

    await upgrade_from(db_url, "0020", fill=fill)
    store = await open_store(db_url)
    try:
        done = await store.games.load_game("done")
        assert done is not None and done.face is Face.DISCORD
        assert done.state.outcome is not None and done.state.outcome.perfect
        assert [(r.state.id, r.face) for r in await store.games.active_games()] == [
            ("running", Face.DISCORD)
        ]

        played = rules.new_game("terminal", Mode.TRAINING, rules.CLASSIC, ["3"])
        played = rules.apply(played, rules.StartRound("7001", START))
        here = replace(record(played), face=Face.TERMINAL)
        await store.games.save_game(here, now=START)
        loaded = await store.games.load_game("terminal")
        assert loaded is not None and loaded.face is Face.TERMINAL
        over = rules.apply(played, rules.Submit("3", "700+1", 701, START + 5))
        await store.games.save_game(replace(loaded, state=over), now=START + 5)
        finished = await store.games.load_game("terminal")
        assert finished is not None and finished.face is Face.TERMINAL
        assert finished.state.outcome is not None
        history = await store.games.history(GUILD, 3, limit=5)
        assert [(h.state.id, h.face) for h in history] == [("terminal", Face.TERMINAL)]
    finally:
        await store.close()
