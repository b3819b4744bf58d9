"""Session-wide fixtures every suite shares: one PostgreSQL cluster and one chart worker
for the web pages (each started only when a test asks for it)."""

from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.renderers import page_charts  # noqa: F401
