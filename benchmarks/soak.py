"""Soak: the whole kiosk, headless, through many autoplayed games; memory, frame time, errors.

    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/soak.py [--games 1000] [--step 0.125]
        [--resolution 640x360]

The application is built exactly as `azar-kiosk run --demo` builds it (`kiosk.app.build`): the
simulated tray read by the real dice reader on the vision worker thread, the rules engine, the
SQLite game log in a fresh folder, the pygame screen on SDL's dummy driver, and the real main
loop (`Kiosk.run`). The autoplay presses the buttons and throws the dice like a visitor. The
game clock is accelerated by tying it to the camera: each picture the worker takes moves game
time on by `--step` seconds (see `StepClock`), so the soak runs as fast as the machine can read
pictures. The simulated camera is smaller than the Pi camera's default (640x360, dice a
little smaller) so that a thousand games fit in an hour on two shared cores; `--resolution 1280x720`
soaks the default size.

It prints, for the run after the warm-up games: the growth of the resident set (VmRSS from
/proc/self/status; target under 5 MB), the time of each main-loop frame without the sleep to
30 fps (median, p99, max), and every error or exception logged by any thread (target none).
Interrupted (Ctrl-C, SIGTERM), it stops and reports the games played so far.
At the end the log must pass `PRAGMA integrity_check`, and every finished game must replay
from its logged throws to the outcome the kiosk recorded.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's code
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def rss_mb() -> float:
    """The process's resident set size in MB (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


class ErrorCounter(logging.Handler):
    """Counts records at ERROR or above and any record carrying an exception, from any thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(f"{record.levelname} {record.name}: {record.getMessage()}")


class FrameTimes:
    """Frame times in a fixed histogram (0.1 ms bins): a list of every frame's time would
    itself grow by megabytes over a thousand games and pass for a leak of the kiosk."""

    BIN_MS = 0.1

    def __init__(self, top_ms: float = 2000.0) -> None:
        import numpy as np

        self.counts = np.zeros(int(top_ms / self.BIN_MS) + 1, np.int64)
        self.counts.fill(0)  # touch the pages now, so they count in the RSS from the start
        self.max_ms = 0.0

    def add(self, seconds: float) -> None:
        ms = seconds * 1000
        self.counts[min(len(self.counts) - 1, int(ms / self.BIN_MS))] += 1
        self.max_ms = max(self.max_ms, ms)

    def clear(self) -> None:
        self.counts.fill(0)
        self.max_ms = 0.0

    @property
    def frames(self) -> int:
        return int(self.counts.sum())

    def percentile(self, share: float) -> float:
        """The upper edge of the bin holding the `share` quantile, in ms."""
        import numpy as np

        rank = share * (self.frames - 1)
        return (int(np.searchsorted(np.cumsum(self.counts), rank, side="right")) + 1) * self.BIN_MS


def replayed_ok(log) -> tuple[int, int]:
    """Finished games whose logged throws replay to the logged outcome, of all finished games."""
    from kiosk.match import replay
    from kiosk.rules.variants import find_variant

    good = total = 0
    for game in log.games():
        if game.status != "over":
            continue
        total += 1
        state, _ = replay(find_variant(game.game, game.variant), game.first, game.throws)
        outcome = state.outcome
        good += outcome is not None and (
            int(outcome.winner) if outcome.winner is not None else None,
            outcome.reason,
            outcome.stakes,
        ) == (game.winner, game.reason, game.stakes)
    return good, total


class StepClock:
    """Game time that moves on only when the camera takes a picture, `step` seconds a picture.

    The simulated tray has no frame rate of its own: the worker reads it as fast as the CPU
    allows. With a clock running in real time, a loaded machine spreads the pictures so far
    apart in game time that the settle watcher sees only motion and the dice never settle;
    tied to the pictures, the soak only goes slower.
    """

    def __init__(self, step: float) -> None:
        self.step = step
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def stepping(self, read):
        def read_and_step():
            self.t += self.step
            return read()

        return read_and_step


class RestingPictures:
    """The simulated tray, drawing the dice only while they move.

    The tray draws every die in perspective for every picture (a few milliseconds a die), and
    most of a game the dice lie still while the players read and press buttons. Once a throw
    has come to rest, its last picture is served again with a new timestamp (what a camera
    over still dice sees, without the sensor noise). Only the benchmark's camera changes; the
    worker, the reader and the kiosk do the same work for every picture.
    """

    def __init__(self, tray, clock) -> None:
        self.tray = tray
        self.clock = clock
        self.throws = 0
        self._still: tuple[int, object] | None = None  # (throw number, picture)
        throw = tray.throw

        def counted_throw(*args, **kwargs):
            self.throws += 1
            return throw(*args, **kwargs)

        tray.throw = counted_throw

    def read(self, read):
        from hardware.camera import Frame

        def read_resting():
            if self._still is not None and self._still[0] == self.throws:
                return Frame(self._still[1], self.clock())
            frame = read()
            if self.tray.settled:
                self._still = (self.throws, frame.image)
            return frame

        return read_resting


def soak_config(resolution: tuple[int, int]):
    """The default configuration with the simulated camera at `resolution`; the dice keep
    their size up to what the tray can hold (the reader needs pips a few pixels wide)."""
    from dataclasses import replace

    from kiosk.config import load_config, validate

    config = load_config(None)
    die = min(config.simulated.die_size, min(resolution) // 8)
    return validate(
        replace(
            config,
            camera=replace(config.camera, resolution=resolution),
            simulated=replace(config.simulated, die_size=die),
        )
    )


def soak(games: int, step: float, resolution: tuple[int, int], warmup: int, every: int) -> dict:
    """Run the kiosk until the autoplay has finished `games` games; return the figures."""
    from kiosk import app
    from kiosk.ui.autoplay import Autoplay

    errors = ErrorCounter()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    logging.getLogger().addHandler(errors)
    thread_crashes: list[str] = []
    threading.excepthook = lambda hook: thread_crashes.append(repr(hook.exc_value))

    folder = Path(tempfile.mkdtemp(prefix="azar-soak-"))
    os.environ["KIOSK_DATA_DIR"] = str(folder)
    clock = StepClock(step)
    app.ScaledClock = lambda speed: clock  # build() makes the game clock with this
    kiosk = app.build(soak_config(resolution), demo=True, size=(800, 480), speed=2.0)
    while kiosk.worker.camera is None:  # the worker builds the tray on its own thread
        time.sleep(0.01)
    tray = kiosk.worker.camera
    tray.read = clock.stepping(RestingPictures(tray, clock).read(tray.read))
    autoplay = Autoplay(kiosk)
    frame_times = FrameTimes()
    inner = kiosk.frame

    def timed_frame(dt: float) -> None:
        started = time.perf_counter()
        inner(dt)
        frame_times.add(time.perf_counter() - started)

    kiosk.frame = timed_frame  # the loop in Kiosk.run calls self.frame
    samples: list[tuple[int, float]] = [(0, rss_mb())]
    warm: dict[str, float] = {}
    ended = [0, 0]  # games played to their end, id of the last one (ids only grow)
    started = time.monotonic()

    def on_frame() -> None:
        autoplay.step()
        match = kiosk.match
        if match is not None and match.is_over and match.game_id > ended[1]:
            ended[:] = [ended[0] + 1, match.game_id]
        done = ended[0]
        if done == warmup and "rss" not in warm:
            warm["rss"] = rss_mb()
            frame_times.clear()
        if done and done % every == 0 and samples[-1][0] != done:
            samples.append((done, rss_mb()))
            minutes = (time.monotonic() - started) / 60
            print(f"  {done} games, RSS {samples[-1][1]:.1f} MB, {minutes:.1f} min", flush=True)
        if done >= games:
            kiosk.running = False

    def stop(signum, frame) -> None:  # SIGINT or SIGTERM: stop now and report what was played
        kiosk.running = False

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        kiosk.run(None, on_frame)
    finally:
        end_rss = rss_mb()
        counts = kiosk.log.counts()
        integrity = kiosk.log.integrity()
        good, finished = replayed_ok(kiosk.log)
        failures = getattr(kiosk.worker, "failures", 0)
        app.shutdown(kiosk)
    return {
        "games": ended[0],
        "reads": kiosk.reads,
        "game_hours": clock.t / 3600,
        "logged": counts,
        "minutes": (time.monotonic() - started) / 60,
        "rss_start": samples[0][1],
        "rss_warm": warm.get("rss"),
        "rss_end": end_rss,
        "samples": samples,
        "frame_times": frame_times,
        "errors": errors.records,
        "thread_crashes": thread_crashes,
        "reader_failures": failures,
        "integrity": integrity,
        "replayed": (good, finished),
        "folder": folder,
    }


def report(figures: dict, warmup: int) -> None:
    times = figures["frame_times"]
    warm = figures["rss_warm"]
    if warm is None:  # stopped before the end of the warm-up: growth since the start
        warmup, warm = 0, figures["rss_start"]
    growth = figures["rss_end"] - warm
    good, finished = figures["replayed"]
    print()
    print(f"games played: {figures['games']} (log: {figures['logged']})")
    print(f"answers from the reader: {figures['reads']} (throws and rerolls)")
    print(f"wall time: {figures['minutes']:.1f} min for {figures['game_hours']:.1f} h of game time")
    print(
        f"RSS: {figures['rss_start']:.1f} MB at start, {warm:.1f} MB after "
        f"{warmup} warm-up games, {figures['rss_end']:.1f} MB at the end: "
        f"growth after warm-up {growth:+.1f} MB (target < 5 MB)"
    )
    print("RSS by games: " + ", ".join(f"{n}: {mb:.1f}" for n, mb in figures["samples"]))
    if times.frames:
        print(
            f"frame time over {times.frames} frames after warm-up (update + draw, ms): "
            f"median {times.percentile(0.5):.1f}, p99 {times.percentile(0.99):.1f}, "
            f"max {times.max_ms:.1f}"
        )
    problems = figures["errors"] + figures["thread_crashes"]
    print(f"errors and exceptions logged: {len(problems)} (target 0)")
    for line in problems[:20]:
        print(f"  {line}")
    print(f"reader exceptions on the worker: {figures['reader_failures']}")
    print(f"log integrity_check: {figures['integrity']}")
    print(f"finished games replaying to their logged outcome: {good} of {finished}")
    print(f"log kept in {figures['folder']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--step", type=float, default=0.25, help="game seconds between two camera pictures"
    )
    parser.add_argument(
        "--resolution", default="640x360", help="simulated camera size (dice scale with it)"
    )
    parser.add_argument("--warmup", type=int, default=50, help="games before memory is measured")
    parser.add_argument("--every", type=int, default=50, help="print RSS every this many games")
    args = parser.parse_args(argv)
    warmup = min(args.warmup, max(0, args.games - 1))
    resolution = tuple(int(v) for v in args.resolution.split("x"))
    print(
        f"soak: {args.games} games, warm-up {warmup} games, screen 800x480, simulated camera "
        f"{args.resolution}, {args.step:g} s of game time per picture",
        flush=True,
    )
    figures = soak(args.games, args.step, resolution, warmup, args.every)
    report(figures, warmup)
    problems = figures["errors"] or figures["thread_crashes"] or figures["integrity"] != "ok"
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
