"""The storage suites' database of each kind, for the role store's own tests."""

from tests.bot.storage.conftest import db_url  # noqa: F401
