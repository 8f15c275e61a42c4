"""What one game-log write costs the main loop: a throw's committed insert (WAL, full sync),
and a write while another process holds the log's write lock.

    .venv/bin/python benchmarks/bench_log_writes.py [FOLDER]

FOLDER (default: a new folder under /var/tmp) should be on the disk the kiosk logs to: the
cost is the disk's fsync. Prints the median, 99th percentile and worst time of 500 throws, and
of 20 writes made while a second connection holds the lock.
"""

from __future__ import annotations

import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kiosk.gamelog import GameLog


def timed(write, n: int) -> list[float]:
    times = []
    for i in range(n):
        started = time.perf_counter()
        write(i)
        times.append((time.perf_counter() - started) * 1000)
    return times


def report(what: str, times: list[float]) -> None:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(
        f"{what:<34} median {statistics.median(times):6.2f} ms   p99 {p99:6.2f} ms"
        f"   worst {ordered[-1]:6.2f} ms   (n={len(times)})"
    )


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/var/tmp")
    with tempfile.TemporaryDirectory(dir=root) as folder:
        log = GameLog.in_dir(folder)
        game = log.new_game("azar", "classic", 0, "fr")

        def throw(i: int) -> None:
            log.add_event(game, i, "throw", (1 + i % 6, 2, 3), "camera", 0.9, "point", {})

        report("throw (insert, commit, fsync)", timed(throw, 500))
        holder = sqlite3.connect(Path(folder) / "games.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writing: the lock is taken
        report("throw while the log is locked", timed(lambda i: throw(500 + i), 20))
        holder.execute("ROLLBACK")
        holder.close()
        started = time.perf_counter()
        log.retry()
        print(
            f"{len(log._pending)} writes still waiting after the lock went, retry took "
            f"{(time.perf_counter() - started) * 1000:.1f} ms"
        )
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
