"""`BoardStore.set_language`: the language a board or a record of a Set names and prints."""

from __future__ import annotations

from pathlib import Path

import rules
from bot.storage import open_store
from tests.bot.web.pages_site import ALICE, BOB, GUILD, qualification

JS = rules.load_sets()["js-darts"]


async def test_the_language_of_a_sets_games(tmp_path: Path) -> None:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/lang.sqlite3")
    try:
        assert (
            await store.boards.set_language(GUILD, "js-darts") is rules.FormulaLanguage.PHP
        )  # unplayed
        js = await qualification(store, GUILD, "a" * 32, ALICE, [1.5] * 7, game_set=JS)
        php = await qualification(store, GUILD, "b" * 32, BOB, [1] * 7)
        assert (
            await store.boards.set_language(GUILD, "js-darts") is rules.FormulaLanguage.JAVASCRIPT
        )
        assert (
            await store.boards.set_language(GUILD, "js-darts", JS.version)
            is rules.FormulaLanguage.JAVASCRIPT
        )
        assert await store.boards.set_language(GUILD, "darts", rules.CLASSIC.version) is (
            rules.FormulaLanguage.PHP
        )
        by_game = await store.boards.set_language(GUILD, "x", game_id=js.state.id)
        assert by_game is rules.FormulaLanguage.JAVASCRIPT
        assert await store.boards.set_language(GUILD, "x", game_id=php.state.id) is (
            rules.FormulaLanguage.PHP
        )
        assert await store.boards.set_language(GUILD + 1, "js-darts") is rules.FormulaLanguage.PHP
    finally:
        await store.close()
