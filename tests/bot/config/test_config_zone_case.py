"""/config timezone takes a zone name in any case and stores it as zoneinfo spells it
(issue 21: `utc` was refused)."""

from __future__ import annotations

import pytest

from tests.support.sim import reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize(("typed", "stored"), [("utc", "UTC"), ("europe/KYIV", "Europe/Kyiv")])
async def test_a_zone_name_in_another_case_is_taken(world, admin, typed, stored) -> None:
    text = reply_text(await admin.slash(world.channel, "config timezone", timezone=typed))
    assert f"Timezone: `{stored}`" in text and "not a timezone" not in text, text
    assert (await world.store.servers.settings(world.guild.id)).timezone == stored


async def test_an_unknown_zone_is_still_refused(world, admin) -> None:
    text = reply_text(await admin.slash(world.channel, "config timezone", timezone="mars/olympus"))
    assert "mars/olympus" in text
    assert (await world.store.servers.settings(world.guild.id)).timezone == "UTC"
