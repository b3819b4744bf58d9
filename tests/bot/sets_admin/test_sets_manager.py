"""SetsManager without Discord: ownership, limits, and min_rounds across edits."""

from __future__ import annotations

import pytest

import rules
from bot.common import SetsDirectory
from bot.sets_admin import MAX_SERVER_SETS, SetsAdminError, SetsManager

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIELDS = {"start_score": 301, "goal": 100, "bonus": 50, "max_rounds": 5, "time_limit": 60}


@pytest.fixture
def manager(store) -> SetsManager:
    return SetsManager(SetsDirectory(store, rules.load_sets()))


async def test_min_rounds_given_stays_and_computed_follows_the_numbers(manager) -> None:
    await manager.add(1, "given", {**FIELDS, "min_rounds": 5})
    await manager.add(1, "computed", FIELDS)
    assert (await manager.get(1, "computed")).game_set.min_rounds == 3
    given = await manager.edit(1, "given", {"start_score": 1000, "max_rounds": 7})
    computed = await manager.edit(1, "computed", {"start_score": 1000, "max_rounds": 7})
    assert (given.min_rounds, computed.min_rounds) == (5, 7)
    also = await manager.edit(1, "computed", {"min_rounds": 2, "time_limit": 10})
    assert (also.min_rounds, also.time_limit, also.start_score) == (2, 10, 1000)


async def test_edit_validates_the_whole_result(manager) -> None:
    await manager.add(1, "five", FIELDS)
    with pytest.raises(rules.SetsError) as caught:
        await manager.edit(1, "five", {"max_rounds": 1, "min_rounds": 2, "functions": "eval"})
    assert {p.code for p in caught.value.problems} == {"min_over_max", "functions_not_allowed"}
    assert (await manager.get(1, "five")).game_set.max_rounds == 5


async def test_a_server_has_a_limited_number_of_sets(manager) -> None:
    for index in range(MAX_SERVER_SETS):
        await manager.add(1, f"s{index}", FIELDS)
    with pytest.raises(SetsAdminError) as caught:
        await manager.add(1, "one-more", FIELDS)
    assert caught.value.code == "too_many"
    document = rules.dump_sets([rules.validate_set("one-more", FIELDS)])
    with pytest.raises(SetsAdminError):
        await manager.import_text(1, document, "more.yaml")
    await manager.add(2, "other-server", FIELDS)


async def test_a_stored_set_with_a_global_name_stays_hidden(manager, store) -> None:
    await store.sets.save_server_set(
        1, rules.validate_set("darts", {**FIELDS, "goal": 1, "max_rounds": 7})
    )
    assert await manager.server_sets(1) == {}
    assert (await manager.get(1, "darts")).is_global
    with pytest.raises(SetsAdminError) as caught:
        await manager.remove(1, "darts")
    assert caught.value.code == "global_readonly"


async def test_two_imports_at_once_keep_the_cap(manager) -> None:
    """Check-then-save let two imports of 15 Sets both pass a cap of 25."""
    import asyncio

    import yaml

    def document(prefix: str) -> str:
        return yaml.safe_dump({f"{prefix}-{i:02d}": dict(FIELDS) for i in range(15)})  # no aliases

    outcomes = await asyncio.gather(
        manager.import_text(1, document("a"), "a.yaml"),
        manager.import_text(1, document("b"), "b.yaml"),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, SetsAdminError)]
    assert len(refused) == 1 and refused[0].code == "too_many"
    assert len(await manager.server_sets(1)) == 15 <= MAX_SERVER_SETS
