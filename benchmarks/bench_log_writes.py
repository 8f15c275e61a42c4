"""What one game-log write costs the main loop: a throw's committed insert (WAL, full sync),
and a write while another process holds the log's write lock.

    .venv/bin/python benchmarks/bench_log_writes.py [FOLDER]

FOLDER (default: a new folder under /var/tmp) should be on the disk the kiosk logs to: the
cost is the disk's fsync. For writes on the main loop and for the log's writer thread (what the
kiosk does), prints the median, 99th percentile and worst time the main loop spends on 500
throws, and on 20 throws while a second connection holds the lock, then how many reached the
file.
"""

from __future__ import annotations

import logging
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's code, whichever one is installed

from kiosk.gamelog import GameLog  # noqa: E402


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


def measure(root: Path, writer: bool) -> None:
    """One mode: writes on the main loop (`writer` False), or queued for the log's thread with
    the frame's wait for them (`GameLog.settle(WRITE_WAIT_SECONDS)`, as `Kiosk.frame` does)."""
    from kiosk.loop import WRITE_WAIT_SECONDS

    mode = "writer thread + frame wait" if writer else "on the main loop"
    with tempfile.TemporaryDirectory(dir=root) as folder:
        log = GameLog.in_dir(folder)
        if writer:
            log.start_writer()
        game = log.new_game("azar", "classic", 0, "fr")
        log.settle(1.0)

        def throw(i: int) -> None:
            log.add_event(game, i, "throw", (1 + i % 6, 2, 3), "camera", 0.9, "point", {})
            log.settle(WRITE_WAIT_SECONDS)

        report(f"{mode}: throw", timed(throw, 500))
        holder = sqlite3.connect(Path(folder) / "games.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writing: the lock is taken
        report(f"{mode}: throw, log locked", timed(lambda i: throw(500 + i), 20))
        holder.execute("ROLLBACK")
        holder.close()
        log.close()
        check = GameLog.in_dir(folder)
        n = len(check.game(game).events)
        check.close()
        print(f"{mode}: {n} of 520 throws in the log after close")


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/var/tmp")
    logging.disable(logging.ERROR)  # "cannot write the game log: database is locked", 20 times
    for writer in (False, True):
        measure(root, writer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
