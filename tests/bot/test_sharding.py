"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL (tests/support/shard_process.py:
each its own simcord and virtual clock, moved in step by the test).

Each process times only its own shards' games; one killed mid-round and started again
recovers its games while the other leaves them alone (its sweep finds them overdue in
the store while their owner is down), and every deadline resolves its game once, by its
owner: the database holds one resolution per round, each thread one "time ran out".
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy.engine import make_url

import rules

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
REPLY_TIMEOUT_S = 60.0
MARATHON = """
marathon:
  description: A slow duel that keeps shard 0 busy (and sweeping) for an hour.
  start_score: 501
  goal: 100
  bonus: 50
  max_rounds: 7
  time_limit: 600
  functions: [pow, sqrt]
"""
TIMED_OUT = "Time ran out in round 1"
REPLAYED = "played again"


class ShardProcess:
    """A driver process; `ask` sends one command and returns its reply."""

    def __init__(self, url: str, shard_ids: str, sets: Path, log: Path, at: float = 0.0) -> None:
        self.log = log
        command = [sys.executable, "-m", "tests.support.shard_process", "--database", url]
        command += ["--shard-count", "2", "--shard-ids", shard_ids, "--sets", str(sets)]
        command += ["--at", str(at)]
        self.proc = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("a"),
            text=True,
            start_new_session=True,  # its PHP workers die with it
        )

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], REPLY_TIMEOUT_S)
        line = self.proc.stdout.readline() if ready else ""
        assert line, f"no reply; stderr:\n{self.log.read_text()[-3000:]}"
        answer: dict[str, Any] = json.loads(line)
        assert answer["ok"], answer
        return answer

    def ask(self, op: str, **args: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def kill(self) -> None:
        """SIGKILL to its process group: no shutdown, no last writes."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.ask("stop")
            self.proc.wait(30)


def rows(url: str, sql: str, *args: Any) -> list[asyncpg.Record]:
    async def query() -> list[asyncpg.Record]:
        dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        conn = await asyncpg.connect(dsn)
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    return asyncio.run(query())


def rounds_of(url: str, game_id: str) -> list[tuple[int, bool]]:
    sql = "SELECT number, resolved FROM rounds WHERE game_id=$1 ORDER BY number"
    found = rows(url, sql, game_id)
    return [(r["number"], r["resolved"]) for r in found]


def game_row(url: str, game_id: str) -> asyncpg.Record:
    (row,) = rows(url, "SELECT guild_id, status, termination FROM games WHERE id=$1", game_id)
    return row


def said(report: dict[str, Any], thread: int, text: str) -> int:
    return sum(text in message for message in report["written"].get(str(thread), []))


def timed_out(report: dict[str, Any], thread: int) -> int:
    """Summaries of a game lost on time in round 1 (the round's own message, edited into
    its result, says it too: it is not a second ending)."""
    return sum(
        TIMED_OUT in message and "game over" in message
        for message in report["written"].get(str(thread), [])
    )


@pytest.fixture
def sets_file(tmp_path: Path) -> Path:
    path = tmp_path / "sets.yaml"
    path.write_text(rules.sets.BUILTIN_FILE.read_text() + MARATHON)
    return path


def test_two_shard_processes_time_their_own_games_through_a_crash(
    postgres_url: str, sets_file: Path, tmp_path: Path
) -> None:
    log = tmp_path / "shards.log"
    started = [ShardProcess(postgres_url, ids, sets_file, log) for ids in ("0", "1")]
    zero, one = started  # both at once: they migrate one at a time (an advisory lock)
    try:
        world = zero.read()
        assert one.read()["guilds"] == world["guilds"], "one Discord, the same ids in both"
        guilds = {int(s): g for s, g in world["guilds"].items()}
        assert [(g >> 22) % 2 for g in (guilds[0], guilds[1])] == [0, 1]

        training0 = zero.ask("training", shard=0, player="alice")
        duel0 = zero.ask("duel", shard=0, player="bob", opponent="carol", set="marathon")
        for process in started:
            process.ask("advance", seconds=1)  # the clocks move together
        alice1 = one.ask("training", shard=1, player="alice")
        bob1 = one.ask("training", shard=1, player="bob")
        for process in started:
            process.ask("advance", seconds=60)
        mine = {training0["game"], duel0["game"]}
        theirs = {alice1["game"], bob1["game"]}
        assert set(zero.ask("report")["held"]) == mine
        assert set(one.ask("report")["armed"]) == theirs

        one.kill()  # mid-round: its games' deadlines (121 s) pass while it is down
        zero.ask("advance", seconds=1000)  # past shard 0's third sweep, the store one
        for game in theirs:
            assert game_row(postgres_url, game)["status"] == "active", "left to the owner"
            assert rounds_of(postgres_url, game) == [(1, False)]
        assert game_row(postgres_url, training0["game"])["termination"] == "timeout"

        one = ShardProcess(postgres_url, "1", sets_file, log, at=1061.0)
        started[1] = one
        assert one.read()["restored"] == 2
        back = one.ask("report")
        assert set(back["held"]) == set(back["armed"]) == theirs, "recovered"
        for game in (alice1, bob1):
            assert said(back, game["thread"], REPLAYED) == 1
        for process in started:
            process.ask("advance", seconds=130)

        last_one, last_zero = one.ask("report"), zero.ask("report")
        assert last_one["held"] == [] and last_zero["held"] == [duel0["game"]]
        for game in (alice1, bob1):
            assert timed_out(last_one, game["thread"]) == 1
            assert str(game["thread"]) not in last_zero["written"]
            assert game_row(postgres_url, game["game"])["termination"] == "timeout"
            assert rounds_of(postgres_url, game["game"]) == [(1, True)]
        assert timed_out(last_zero, training0["thread"]) == 1
        assert rounds_of(postgres_url, training0["game"]) == [(1, True)]
        assert rounds_of(postgres_url, duel0["game"]) == [(1, True), (2, False)]
        autos = rows(postgres_url, "SELECT auto FROM answers WHERE game_id=$1", duel0["game"])
        assert [a["auto"] for a in autos] == [True, True], "round 1's auto-moves, once"
        threads0 = {training0["thread"], duel0["thread"], world["channels"]["0"]}
        assert {int(c) for c in last_zero["written"]} <= threads0
        assert last_one["errors"] == last_zero["errors"] == []
    finally:
        for process in started:
            if process.proc.poll() is None:
                process.kill()
