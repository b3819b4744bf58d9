"""Logs: with LOG_FORMAT=json every line is one valid JSON object carrying the extra and
context fields and the traceback, whatever the values; as text, the game, guild and shard
end the line. Records come from real loggers through the handler `configure_logging`
installs on the root logger."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.observability import configure_logging, log_context
from bot.settings import BotSettings, LogFormat, SoloGames

log = logging.getLogger("bot.games.test")


@pytest.fixture
def root_logging() -> Iterator[None]:
    """Whatever `configure_logging` does to the root logger is undone after the test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def configured(tmp_path: Path, log_format: LogFormat) -> io.StringIO:
    """Our handler alone on the root logger. pytest's capture handlers are taken off: they
    raise on a record they cannot format, and surviving such records is what is tested."""
    logging.getLogger().handlers.clear()
    stream = io.StringIO()
    settings = BotSettings(
        database_url=f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3",
        log_format=log_format,
        solo_games=SoloGames.THREAD,
    )
    configure_logging(settings, logging.DEBUG, stream=stream)
    return stream


def json_lines(stream: io.StringIO) -> list[dict[str, object]]:
    lines = stream.getvalue().splitlines()
    assert lines, "nothing was logged"
    return [json.loads(line) for line in lines]


class Unprintable:
    def __str__(self) -> str:
        raise RuntimeError("no str")

    def __repr__(self) -> str:
        raise RuntimeError("no repr either")


def test_log_format_is_read_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("LOG_FORMAT", "json")
    monkeypatch.setenv("METRICS_PORT", "9464")
    settings = BotSettings(_env_file=None)  # type: ignore[call-arg]
    assert settings.log_format is LogFormat.JSON
    assert settings.metrics_port == 9464


def test_json_lines_carry_level_logger_message_and_fields(tmp_path, root_logging) -> None:
    stream = configured(tmp_path, LogFormat.JSON)
    with log_context(game_id="g1", guild_id=42, shard_id=1):
        log.info("round %d resolved", 3, extra={"user_id": 7})
    log.warning("outside any game")

    inside, outside = json_lines(stream)
    assert inside["level"] == "INFO"
    assert inside["logger"] == "bot.games.test"
    assert inside["message"] == "round 3 resolved"
    assert (inside["game_id"], inside["guild_id"], inside["shard_id"]) == ("g1", 42, 1)
    assert inside["user_id"] == 7
    assert datetime.fromisoformat(str(inside["time"])).utcoffset() is not None
    assert "game_id" not in outside and outside["level"] == "WARNING"


def test_json_lines_survive_values_json_cannot_take(tmp_path, root_logging) -> None:
    stream = configured(tmp_path, LogFormat.JSON)
    loop: list[object] = []
    loop.append(loop)
    log.info(
        "odd values",
        extra={
            "unprintable": Unprintable(),
            "nan": float("nan"),
            "tuple_keys": {(1, 2): "x"},
            "raw": b"\xff\x00",
            "a_set": {3},
            "circular": loop,
            "when": datetime(2025, 1, 2, 3, 4, 5),
        },
    )
    log.info("a %d that is not a number", "x")
    log.info("a lone surrogate \udcff and Ukrainian: раунд")
    log.info(Unprintable())

    odd, bad_args, surrogate, unprintable = json_lines(stream)
    assert odd["unprintable"] == "<unprintable Unprintable>"
    assert odd["nan"] == "nan"
    assert odd["tuple_keys"] == "{(1, 2): 'x'}"
    assert odd["raw"] == "b'\\xff\\x00'"
    assert odd["a_set"] == "{3}"
    assert odd["circular"] == "[[...]]"
    assert odd["when"] == "2025-01-02 03:04:05"
    assert "not a number" in str(bad_args["message"]) and "'x'" in str(bad_args["message"])
    assert surrogate["message"] == "a lone surrogate \udcff and Ukrainian: раунд"
    assert unprintable["message"].startswith("<unprintable Unprintable>")  # type: ignore[attr-defined]


def test_json_lines_carry_the_traceback(tmp_path, root_logging) -> None:
    stream = configured(tmp_path, LogFormat.JSON)
    try:
        raise ValueError("the store said no")
    except ValueError:
        log.exception("saving game failed")
    (line,) = json_lines(stream)
    assert line["level"] == "ERROR"
    assert "Traceback" in str(line["exception"])
    assert "ValueError: the store said no" in str(line["exception"])


def test_text_lines_end_with_game_guild_and_shard(tmp_path, root_logging) -> None:
    stream = configured(tmp_path, LogFormat.TEXT)
    with log_context(game_id="g1", guild_id=42):
        log.info("answer accepted")
        with log_context(shard_id=1):
            log.info("round resolved")
        log.info("back to the game", extra={"game_id": "g2"})
    log.info("no game")
    lines = stream.getvalue().splitlines()
    assert lines[0].endswith("bot.games.test: answer accepted game_id=g1 guild_id=42")
    assert lines[1].endswith("round resolved game_id=g1 guild_id=42 shard_id=1")
    assert lines[2].endswith("back to the game game_id=g2 guild_id=42")
    assert lines[3].endswith("bot.games.test: no game")
    assert all("[INFO    ]" in line for line in lines)


def test_a_text_line_with_bad_arguments_is_still_one_line(tmp_path, root_logging) -> None:
    stream = configured(tmp_path, LogFormat.TEXT)
    log.info("%s and %s", "only one")  # noqa: PLE1206 (the mistake under test)
    log.info("fine %s", "after")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert "%s and %s" in lines[0] and "only one" in lines[0]
    assert lines[1].endswith("fine after")


async def test_the_context_follows_into_tasks_started_inside_it(tmp_path, root_logging) -> None:
    stream = configured(tmp_path, LogFormat.JSON)

    async def timer() -> None:
        await asyncio.sleep(0)
        log.info("deadline")

    with log_context(game_id="g7", guild_id=1):
        task = asyncio.create_task(timer())
    log.info("other work meanwhile")
    await task
    other, deadline = json_lines(stream)
    assert "game_id" not in other
    assert deadline["game_id"] == "g7"


def test_configuring_twice_keeps_one_handler(tmp_path, root_logging) -> None:
    configured(tmp_path, LogFormat.TEXT)
    stream = configured(tmp_path, LogFormat.JSON)
    log.info("once")
    assert len(json_lines(stream)) == 1
    ours = [h for h in logging.getLogger().handlers if h.name == "formula-darts"]
    assert len(ours) == 1
