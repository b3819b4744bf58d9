"""Alembic environment: always run through bot.storage (it hands us a connection)."""

from __future__ import annotations

from alembic import context

from bot.storage._models import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "run migrations with `formula-darts db upgrade` (bot.storage passes the connection)"
    )
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
