"""Whether a server's pages are on is remembered (`PageKeys`), so a cached page asks the
database nothing; a change made in this process (`/config web off`, on again) takes
effect at once, and one made by another process sharing a PostgreSQL database within
`PAGE_KEYS_S`. Real stores, real aiohttp server."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from bot.storage import ServerSettings, open_store
from bot.web import create_app
from bot.web._cache import PAGE_KEYS_S, PageKeys
from bot.web._keys import PAGES_ON
from tests.bot.web.pages_site import GUILD, Site, populate


async def test_web_off_in_this_process_takes_effect_at_once(site: Site) -> None:
    for path in ("?period=all", "p/101"):
        assert (await site.client.get(site.base + path)).status == 200, path
    await site.store.servers.set_web(GUILD, False, 5.0)
    for path in ("?period=all", "p/101", ""):
        assert (await site.client.get(site.base + path)).status == 404, path
    await site.store.servers.set_web(GUILD, True, 6.0)
    assert (await site.client.get(site.base + "?period=all")).status == 200


async def test_a_renamed_server_is_asked_again(site: Site) -> None:
    assert (await site.client.get(site.base + "p/101")).status == 200
    await site.store.servers.name_server(GUILD, "Renamed <i>here</i>", 5.0)
    page = await (await site.client.get(site.base + "p/101")).text()
    assert "Renamed &lt;i&gt;here&lt;/i&gt;" in page


async def test_web_off_in_another_process_takes_effect_within_the_bound(
    postgres_url: str,
) -> None:
    """Two stores on one PostgreSQL database stand for two shard processes: the pages
    served by the first see the second's `/config web off` once the remembered answer
    is `PAGE_KEYS_S` old (the clock is the memory's `now`; the time passed is made by
    shortening its bound, not by waiting)."""
    here = await open_store(postgres_url)
    there = await open_store(postgres_url)
    client = TestClient(TestServer(create_app(here)))
    await client.start_server()
    try:
        key = await populate(here)
        board = f"/s/{key}/?period=all"
        assert (await client.get(board)).status == 200
        await there.servers.set_web(GUILD, False, 5.0)
        assert (await client.get(board)).status == 200  # remembered, under the bound
        memo = client.app[PAGES_ON]  # type: ignore[index]
        memo.ttl_s = 0.0
        assert (await client.get(board)).status == 404
        assert (await client.get(f"/s/{key}/p/101")).status == 404
    finally:
        await client.close()
        await here.close()
        await there.close()


def test_a_remembered_server_expires_and_a_change_here_forgets_it() -> None:
    memo = PageKeys()
    settings = ServerSettings(guild_id=GUILD, web_key="k" * 22, web_on=True)
    memo.put("k" * 22, settings, 100.0, changes=3)
    assert memo.get("k" * 22, 100.0 + PAGE_KEYS_S - 0.01, 3) is settings
    assert memo.get("k" * 22, 100.0 + PAGE_KEYS_S, 3) is None
    assert memo.get("k" * 22, 100.0, 4) is None
    assert memo.get("x" * 22, 100.0, 3) is None
