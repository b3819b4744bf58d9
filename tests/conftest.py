"""Session-wide fixtures every suite shares: one PostgreSQL cluster and one chart worker
for the web pages (each started only when a test asks for it); and the order the suite
runs in, its known-long modules first (`tests/support/ordering.py`)."""

import pytest

from tests.support.ordering import long_first
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.renderers import page_charts  # noqa: F401


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    long_first(items)
