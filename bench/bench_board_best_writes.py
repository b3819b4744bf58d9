"""What `board_best`'s triggers (migration 0023) cost a Qualification game's writes.

On a copy of a loaded database at this tree's head (`bench_boards`' data after its
upgrade), each sample is one game as the bot writes it: inserted unranked when it
starts, then finished by an update that sets its ranking columns, one transaction
each; CPU (`process_time`, SQLite runs in this process) per game, with the triggers
and with them dropped, alternating in one run.

    python -m bench.bench_board_best_writes --data /tmp/run.sqlite3   # a migrated copy
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path


def one_run(conn: sqlite3.Connection, tag: str, games: int) -> float:
    """Median CPU µs per game written (insert unranked, then the finishing update)."""
    columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    source = conn.execute(
        "SELECT * FROM games WHERE mode = 'qualification' AND rank_class IN (0, 1) LIMIT 1"
    ).fetchone()
    insert = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    samples = []
    for index in range(games):
        row = dict(zip(columns, source, strict=True))
        ranked = row["rank_class"]
        row.update(id=f"{tag}{index}", player=str(1000 + index % 300), rank_class=None)
        start = time.process_time()
        conn.execute("BEGIN")
        conn.execute(insert, [row[c] for c in columns])
        conn.execute(
            "UPDATE games SET rank_class = ?, rank_value = rank_value + ? WHERE id = ?",
            (ranked, index % 7, row["id"]),
        )
        conn.execute("COMMIT")
        samples.append((time.process_time() - start) * 1e6)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, required=True, help="a database at 0023 or later")
    parser.add_argument("--games", type=int, default=1_500)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fd-best-writes-") as tmp:
        copy = Path(tmp) / "writes.sqlite3"
        shutil.copyfile(args.data, copy)
        conn = sqlite3.connect(copy, isolation_level=None)
        triggers = [
            str(sql)
            for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'")
        ]
        if not triggers:
            raise SystemExit("no triggers: upgrade the database to 0023 first")
        results: dict[str, list[float]] = {"with triggers": [], "without": []}
        for pair in range(args.pairs):
            results["with triggers"].append(one_run(conn, f"w{pair}-", args.games))
            for name in ("insert", "update", "moved", "delete"):
                conn.execute(f"DROP TRIGGER games_board_best_{name}")
            results["without"].append(one_run(conn, f"n{pair}-", args.games))
            for sql in triggers:
                conn.execute(sql)
        conn.close()
    for label, medians in results.items():
        print(f"{label}: {', '.join(f'{m:.0f}' for m in medians)} µs CPU per game (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
