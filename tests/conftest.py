"""Session-wide fixtures every suite shares: one PostgreSQL cluster and one chart worker
for the web pages (each started only when a test asks for it). Hypothesis has no
per-example deadline: its 200 ms default is a wall-clock budget a loaded machine misses
(test_cup's round trip took 434 ms beside other work); a slow example is a benchmark's
business, not a failure."""

from hypothesis import settings

from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.renderers import page_charts  # noqa: F401

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
