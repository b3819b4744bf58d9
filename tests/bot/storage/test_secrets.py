"""Installation secrets: made once, the same for every caller and every process."""

from __future__ import annotations

import asyncio

from bot.storage import Store, open_store


async def test_a_secret_is_made_once_and_kept(store: Store, db_url: str) -> None:
    first = await store.install.secret("qualification")
    assert len(first) == 64
    assert await store.install.secret("qualification") == first
    assert await store.install.secret("other") != first
    reopened = await open_store(db_url)  # another process on the same database
    try:
        assert await reopened.install.secret("qualification") == first
    finally:
        await reopened.close()


async def test_concurrent_first_calls_agree(db_url: str) -> None:
    stores = [await open_store(db_url) for _ in range(3)]
    try:
        values = await asyncio.gather(*(s.install.secret("race") for s in stores))
    finally:
        for opened in stores:
            await opened.close()
    assert len(set(values)) == 1
