"""The storage suites' database of each kind (SQLite, and a real PostgreSQL when there)."""

from tests.bot.storage.conftest import db_url  # noqa: F401
