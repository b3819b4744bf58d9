"""What the pages keep in memory, bounded: which servers have their pages on (a few
seconds), rendered boards and finished replays for a few seconds, and the players' charts
for as long as their games are the same.

A board is asked far more often than it changes, and a cached one is served without a
database query: its key is what the page shows (the server's page key, the language, the
parsed Set, period, version and page), so `?page=00` and `?page=0` are one entry and a
stranger's query string cannot multiply them. A chart is keyed by its data and language:
the same games draw the same picture, so it is drawn once by the chart worker.
"""

from __future__ import annotations

import gzip
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from markupsafe import Markup

from bot.charts import EloChartInput, StatsChartInput
from bot.storage import ServerSettings

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

BOARDS_MAX = 512
"""Board pages kept (about 30 KB each)."""
REPLAYS_MAX = 512
"""Finished replays' pages kept (about 20-60 KB each)."""
CHARTS_MAX = 256
"""Player charts kept (about 20 KB of SVG each)."""
ZIPPED_MAX = 512
"""Gzipped pages kept, by their ETag (a third of a page's bytes each, ~10 KB)."""
PAGE_KEYS_S = 5.0
"""How long a server found by its page key is trusted without asking the database again.
A change made in this process (`/config web off`) takes effect at once (`PageKeys`); one
made by another process sharing the database (a PostgreSQL shard) within this time."""
PAGE_KEYS_MAX = 4096
"""Servers remembered by page key (a few hundred bytes each)."""
CHARTS_DRAWING = 2
"""Charts asked of the worker at once (one worker: one drawn, one waiting)."""


class Recent(Generic[K, V]):
    """At most `size` values, the least recently used one dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.size:
            self._values.popitem(last=False)


@dataclass(frozen=True, slots=True)
class _Found:
    settings: ServerSettings
    at: float
    changes: int


class PageKeys:
    """The servers whose pages are on, by page key, each trusted `ttl_s` seconds and only
    while this process changed no server's settings (`changes`, the store's count of its
    own changes): a page served from memory then asks the database nothing. A key that
    names no server with its pages on is not remembered (it is asked each time, as
    before), so strangers' guesses cannot fill the memory."""

    def __init__(self, ttl_s: float = PAGE_KEYS_S, size: int = PAGE_KEYS_MAX) -> None:
        self.ttl_s = ttl_s
        self._found: Recent[str, _Found] = Recent(size)

    def get(self, key: str, now: float, changes: int) -> ServerSettings | None:
        found = self._found.get(key)
        if found is None or found.changes != changes or now - found.at >= self.ttl_s:
            return None
        return found.settings

    def put(self, key: str, settings: ServerSettings, now: float, changes: int) -> None:
        """`changes` as read before the database was asked: a change made meanwhile
        makes this entry stale at once."""
        self._found.put(key, _Found(settings, now, changes))

    def forget(self) -> None:
        """Another process changed a server's settings (the bot, whose child serves these
        pages, says so): every key is asked again, as after a change of this process."""
        self._found = Recent(self._found.size)


BoardKey = tuple[str, str, str, str, str | None, int, int | None, str, str | None]
"""Page key, language, Set, period, version asked, page, "my place" asked, search words,
the one day asked."""


class TimedPages(Generic[K]):
    """Rendered pages for `ttl_s` seconds: a cache, rebuilt on demand."""

    def __init__(self, ttl_s: float, size: int) -> None:
        self.ttl_s = ttl_s
        self._pages: Recent[K, tuple[float, str]] = Recent(size)

    def get(self, key: K, now: float) -> str | None:
        found = self._pages.get(key)
        return found[1] if found is not None and now - found[0] < self.ttl_s else None

    def put(self, key: K, now: float, html: str) -> None:
        self._pages.put(key, (now, html))


class BoardCache(TimedPages[BoardKey]):
    """Rendered board pages for `ttl_s` seconds."""

    def __init__(self, ttl_s: float, size: int = BOARDS_MAX) -> None:
        super().__init__(ttl_s, size)


ReplayKey = tuple[str, str, str]
"""Page key, game id, language."""


class ReplayCache(TimedPages[ReplayKey]):
    """Finished replays' pages for `ttl_s` seconds. A finished game's rounds never change
    (only a name or its player's next game may), and a flood of replay views was the
    pages' costliest load after the charts (issue 29): from memory, a view asks the
    database nothing and renders no template. Only a finished, unsealed replay with its
    best answers is kept, the one a client may keep a day; the others change. What may
    still change it (a name, the player's next game, a moderator's void) shows within
    `ttl_s`, as on a board."""

    def __init__(self, ttl_s: float, size: int = REPLAYS_MAX) -> None:
        super().__init__(ttl_s, size)


ChartKey = tuple[StatsChartInput | EloChartInput, str]
"""The chart's data (which also says which chart) and the reader's language."""


class ChartCache:
    """The players' charts, each drawn once and kept. At most `drawing` are asked of the
    chart worker at a time: a page past that is shown without its chart (the next view
    draws it), so a flood of players' pages queues nothing behind the worker."""

    def __init__(self, size: int = CHARTS_MAX, drawing: int = CHARTS_DRAWING) -> None:
        self.drawing = drawing
        self._kept: Recent[ChartKey, Markup] = Recent(size)
        self._busy = 0

    async def svg(
        self, key: ChartKey, draw: Callable[[], Awaitable[bytes | None]]
    ) -> Markup | None:
        found = self._kept.get(key)
        if found is not None or self._busy >= self.drawing:
            return found
        self._busy += 1
        try:
            drawn = await draw()
        finally:
            self._busy -= 1
        if drawn is None:
            return None
        svg = Markup(drawn.decode())  # noqa: S704 - matplotlib's output of our own figure
        self._kept.put(key, svg)
        return svg


class Zipped:
    """Pages gzipped once, by their ETag (the hash of their bytes).

    A cached board or a finished replay is the same bytes request after request; aiohttp's
    own compression would deflate it again each time, in a thread of the default executor
    once it passes 4 KiB (a hand-off per request). Kept here, the same page is compressed
    once and served as it is; a page never seen before is compressed at once, on the loop
    (a 30 KB page is well under a millisecond).
    """

    def __init__(self, size: int = ZIPPED_MAX) -> None:
        self._kept: Recent[str, bytes] = Recent(size)

    def of(self, etag: str, body: bytes) -> bytes:
        kept = self._kept.get(etag)
        if kept is None:
            kept = gzip.compress(body, mtime=0)
            self._kept.put(etag, kept)
        return kept
