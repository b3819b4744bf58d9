"""`formula-darts run`: the invite lists every permission; a bad token or no network is
one line and exit code 1, not a traceback."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from bot.cli import _run


def failing_main(error: BaseException):
    """What `run_discord` does when Discord refuses the token or cannot be reached."""

    async def main() -> None:
        raise error

    return main


def test_the_invite_carries_the_bots_real_permission_integer() -> None:
    text = _run.setup_help()
    wanted = discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True,
        create_public_threads=True, create_private_threads=True, embed_links=True,
        attach_files=True, read_message_history=True, manage_threads=True,
    )  # fmt: skip
    assert f"permissions={wanted.value}&" in text
    assert "scope=bot+applications.commands" in text
    for permission in ("Send Messages In Threads", "Create Private Threads", "Embed Links"):
        assert permission in text
    assert "Use Application Commands" not in text  # a member permission, not the bot's
    assert "Administrator" not in text.replace("no Administrator", "")
    assert "{" not in text


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (discord.LoginFailure("Improper token has been passed."), "the token was refused"),
        (
            aiohttp.ClientConnectorError(None, OSError(-3, "Temporary failure")),  # type: ignore[arg-type]
            "cannot reach Discord",
        ),
        (OSError(101, "Network is unreachable"), "cannot reach Discord"),
        (discord.GatewayNotFound(), "cannot reach Discord"),
    ],
)
def test_a_refused_token_or_no_network_is_one_line(capsys, error, said) -> None:
    assert _run.run_bot(failing_main(error)) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert "not-a-token" not in err


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"SHARD_COUNT": "2"}, "SHARD_COUNT above 1 needs PostgreSQL"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "SHARD_COUNT above 1 needs PostgreSQL"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,5"}, "SHARD_IDS must be between 0 and 1"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ],
)
def test_shards_the_database_cannot_serve_are_refused_before_the_bot_starts(
    monkeypatch, tmp_path, capsys, env, said
) -> None:
    """Shard processes share one database and one SQLite file has one writer (and lives on
    one host): `run` says so in one line and never opens Discord (seen starting it before)."""
    import bot.process
    from bot.cli import main

    started: list[object] = []

    async def run_discord(*args: object) -> None:
        started.append(args)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bot.process, "run_discord", run_discord)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and err.count("\n") == 1
    assert started == []


def test_shards_on_postgresql_start(monkeypatch, tmp_path) -> None:
    import bot.process
    from bot.cli import main

    started: list[object] = []

    async def run_discord(*args: object) -> None:
        started.append(args)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bot.process, "run_discord", run_discord)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://formula@localhost/formula")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "1")
    monkeypatch.setattr("bot.observability.configure_logging", lambda *a: None)
    assert main(["run"]) == 0
    assert len(started) == 1
