"""Session-wide fixtures every suite shares: one PostgreSQL cluster (started only when a
test asks for it)."""

from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
