"""`formula-darts db upgrade|current`: apply the storage migrations outside the bot.

The bot migrates on start too; this is for operators who upgrade PostgreSQL
before rolling out, or who want to see where a database stands.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

# bot.settings and bot.storage (SQLAlchemy, Alembic) are imported where used:
# every `formula-darts` command registers this one, and `eval` must start fast.

URL_HELP = "database URL (default: DATABASE_URL, else the SQLite file)"


def register(sub: Any) -> None:  # argparse._SubParsersAction
    """`--url` goes before or after the action: `db --url U upgrade` or `db upgrade --url U`."""
    parser = sub.add_parser("db", help="database maintenance (migrations)")
    parser.add_argument("--url", help=URL_HELP)
    actions = parser.add_subparsers(dest="db_command", required=True)
    for name, func, text in (
        ("upgrade", _upgrade, "apply migrations up to the newest schema"),
        ("current", _current, "show the schema revision of the database"),
    ):
        action = actions.add_parser(name, help=text)
        # SUPPRESS: an action without --url keeps the one given before it
        action.add_argument("--url", default=argparse.SUPPRESS, help=URL_HELP)
        action.set_defaults(func=func)


def _url(args: argparse.Namespace) -> str:
    """--url, else DATABASE_URL exactly as the bot reads it (environment or `.env`)."""
    from bot.settings import BotSettings
    from bot.storage import normalize_url

    return normalize_url(args.url or BotSettings().database_url)


def _safe(url: str) -> str:
    """The URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


async def _run_upgrade(url: str) -> str | None:
    from bot.storage import current_revision, make_engine, upgrade

    engine = make_engine(url)
    try:
        await upgrade(engine)
        return await current_revision(engine)
    finally:
        await engine.dispose()


async def _run_current(url: str) -> str | None:
    from bot.storage import current_revision, make_engine

    engine = make_engine(url)
    try:
        return await current_revision(engine)
    finally:
        await engine.dispose()


def _upgrade(args: argparse.Namespace) -> int:
    from bot.storage import head_revision

    try:
        url = _url(args)
        revision = asyncio.run(_run_upgrade(url))
    except Exception as exc:  # reported, not a traceback: the operator fixes the URL or server
        print(f"db upgrade failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"{_safe(url)}: at schema revision {revision} (head {head_revision()})")
    return 0


def _current(args: argparse.Namespace) -> int:
    from bot.storage import head_revision

    try:
        url = _url(args)
        revision = asyncio.run(_run_current(url))
    except Exception as exc:
        print(f"db current failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    state = "up to date" if revision == head_revision() else "needs `formula-darts db upgrade`"
    print(f"{_safe(url)}: revision {revision or 'none'} (head {head_revision()}): {state}")
    return 0
