"""How fast the vision runs on one core: the per-frame settle check and a full read of three dice.

Prints the median milliseconds at 640x480 and 1280x720 on drawn frames (a textured felt tray
in a wooden rim, three dice with shadows, sensor noise), single-threaded: the settle check, the
kiosk's calibrated read, the bare read (no calibration), and the read of a frame of noise (the
worst case for the finder: it bounds what any frame can cost). Targets on one x86 core: 1 ms
for the settle check, 15 ms for the calibrated read at 1280x720; a Raspberry Pi 4 core is about
ten times slower.

With `--photos N` it reads N phone photos (damiantab-phone, 907x1209) as `azar-kiosk read`
does, each run in a fresh process, beside the blob + DBSCAN reader of benchmarks/blob_reader.py
on the same photos, and prints wall time and peak memory (maximum resident set) of both.
Targets: at most twice the blob reader's time, under 300 MB.

With `--throws N` it then films N throws per frame size on the kiosk's simulated tray
(`hardware.sim`, with perspective, shadows, noise and the hazards a referee must refuse) at 30
frames per second through `vision.watcher.ThrowWatcher` and the reader, as the kiosk does, and
prints how many answers each throw got, whether they were right, how long after the dice stopped
they came, and what the watcher cost per frame, reads included.

    .venv/bin/python benchmarks/bench_vision.py [--repeat N] [--throws N] [--photos N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from hardware.sim.dice import PIPS
from vision.calibration import Calibration
from vision.reading import RerollReason
from vision.settle import SettleConfig, SettleDetector
from vision.watcher import ThrowWatcher

VALUES = (3, 5, 6)


def draw_tray(width: int, height: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """An empty tray: wooden rim around green felt with grain and a light falloff. Returns the
    BGR image and the floor polygon (4, 2) int32."""
    margin = round(0.08 * width)
    floor = np.array(
        [[margin, margin], [width - margin, margin], [width - margin, height - margin],
         [margin, height - margin]], np.int32)  # fmt: skip
    grain = cv2.GaussianBlur(rng.normal(0, 9, (height, width)).astype(np.float32), (0, 0), 1.2)
    image = np.empty((height, width, 3), np.float32)
    image[:] = (40, 85, 140)  # wood
    image += 0.6 * grain[..., None]
    felt = np.zeros((height, width), np.uint8)
    cv2.fillPoly(felt, [floor], 1)
    image[felt > 0] = (np.array((50, 110, 45), np.float32) + grain[..., None])[felt > 0]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1.0 - 0.3 * (((xx - width / 2) / width) ** 2 + ((yy - height / 2) / height) ** 2)
    return np.clip(image * light[..., None], 0, 255).astype(np.uint8), floor


def draw_die(image: np.ndarray, value: int, centre: tuple[float, float], side: float, angle: float):
    """An ivory die with black pips and a soft shadow, seen from above, drawn in place."""
    shade = np.zeros(image.shape[:2], np.float32)
    shadow = cv2.boxPoints(((centre[0] + 0.08 * side, centre[1] + 0.08 * side), (side,) * 2, angle))
    cv2.fillConvexPoly(shade, np.round(shadow).astype(np.int32), 0.35)
    image[:] = (image * (1 - cv2.GaussianBlur(shade, (0, 0), 0.06 * side)[..., None])).astype(
        np.uint8
    )
    body = cv2.boxPoints((centre, (side, side), angle))
    cv2.fillConvexPoly(image, np.round(body * 16).astype(np.int32), (225, 235, 240), cv2.LINE_AA, 4)
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    for u, v in PIPS[value]:
        x = centre[0] + 0.27 * side * (u * c - v * s)
        y = centre[1] + 0.27 * side * (u * s + v * c)
        pip = (round(x * 16), round(y * 16))
        cv2.circle(image, pip, round(0.09 * side * 16), (25, 25, 25), -1, cv2.LINE_AA, 4)


def frames(width: int, height: int, count: int = 8):
    """The empty tray, the floor polygon, the die side, and `count` noisy frames of three dice."""
    rng = np.random.default_rng(width)
    empty, floor = draw_tray(width, height, rng)
    side = 0.075 * width
    still = empty.copy()
    spots = [(0.3, 0.35, 10.0), (0.5, 0.62, 35.0), (0.7, 0.38, 70.0)]
    for value, (fx, fy, angle) in zip(VALUES, spots, strict=True):
        draw_die(still, value, (fx * width, fy * height), side, angle)
    noisy = []
    for _ in range(count):
        noise = rng.normal(0, 2.5, still.shape)
        noisy.append(np.clip(still + noise, 0, 255).astype(np.uint8))
    return empty, floor, side, noisy


def median_ms(run: Callable[[int], object], repeat: int) -> float:
    """Median wall time of `run(i)` over `repeat` calls, after a few warm-up calls."""
    for i in range(5):
        run(i)
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        run(i)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def measure(width: int, height: int, repeat: int, read_roll: Callable | None) -> str:
    """One line of the table: settle check and full reads at this frame size."""
    empty, floor, side, noisy = frames(width, height)
    calibration = Calibration(tray=floor, die_size=side, empty=empty)
    detector = SettleDetector(SettleConfig(), calibration)
    settle = median_ms(lambda i: detector.update(noisy[i % len(noisy)], i / 30), repeat)
    greys = [cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) for frame in noisy]
    luma = SettleDetector(SettleConfig(), calibration)
    settle_grey = median_ms(lambda i: luma.update(greys[i % len(greys)], i / 30), repeat)
    read_cell = bare_cell = noise_cell = "n/a"
    answer = "vision.reader.read_roll not available yet"
    if read_roll is not None:
        runs = max(20, repeat // 5)
        calibrated = median_ms(
            lambda i: read_roll(noisy[i % len(noisy)], calibration=calibration), runs
        )
        bare = median_ms(lambda i: read_roll(noisy[i % len(noisy)]), runs)
        read_cell, bare_cell = f"{calibrated:6.2f} ms", f"{bare:6.2f} ms"
        rng = np.random.default_rng(0)
        static = [rng.integers(0, 256, (height, width, 3), np.uint8) for _ in range(4)]
        noise = median_ms(lambda i: read_roll(static[i % len(static)]), max(10, runs // 2))
        noise_cell = f"{noise:6.2f} ms"
        roll = read_roll(noisy[0], calibration=calibration)
        right = roll.ok and sorted(roll.values) == sorted(VALUES)
        answer = f"{roll.status} {roll.values} ({'right' if right else 'WRONG'})"
    return (
        f"{width:>4}x{height:<5} | {settle:9.3f} ms | {settle_grey:9.3f} ms | {read_cell:>9} | "
        f"{bare_cell:>9} | {noise_cell:>9} | {answer}"
    )


def film_throws(resolution: tuple[int, int], throws: int, read_roll: Callable) -> str:
    """Throws on the simulated tray through the watcher; a summary line of what came out."""
    from hardware.sim.throw import Hazard
    from hardware.sim.tray import SimulatedTray
    from vision.calibrate import calibrate

    now = [0.0]
    tray = SimulatedTray(resolution=resolution, seed=7, clock=lambda: now[0])
    tray.open()
    empty = tray.empty_frame()
    tray.throw()
    now[0] += tray.settle_time
    calibration = calibrate(empty, dice=tray.read().image)
    tray.clear()
    watcher = ThrowWatcher(
        lambda frame: read_roll(frame, calibration=calibration), SettleConfig(), calibration
    )
    hazards = [None, None, Hazard.NOT_MOVED, None, Hazard.COCKED, None, Hazard.TOUCHING]
    tally: dict[str, int] = {}
    delays, costs = [], []
    for n in range(throws):
        hazard = hazards[n % len(hazards)]
        tray.throw(hazard=hazard)
        started, answers = now[0], []
        while now[0] < started + tray.settle_time + 1.5:
            frame = tray.read()
            clock = time.perf_counter()
            answer = watcher.update(frame.image, frame.timestamp)
            costs.append(time.perf_counter() - clock)
            if answer is not None:
                answers.append(answer)
                delays.append(now[0] - started - tray.settle_time)
            now[0] += 1 / 30
        if not answers and hazard is Hazard.NOT_MOVED:
            # seen moving in single frames only, a flicker to the watcher: nothing is said
            key = "not_moved unanswered (the old answer stands)"
        elif len(answers) != 1:
            key = f"{len(answers)} answers"
        elif hazard is Hazard.NOT_MOVED:
            key = "not_moved caught" if answers[0].reason is RerollReason.NOT_MOVED else "MISSED"
        elif answers[0].ok:
            right = sorted(answers[0].values) == sorted(tray.last_values)
            key = "ok right" if right else "ok WRONG"
            if hazard in (Hazard.COCKED, Hazard.STACKED, Hazard.OUTSIDE):
                key += f" despite {hazard}"
        else:
            key = f"reroll {answers[0].reason}"
        tally[key] = tally.get(key, 0) + 1
    summary = ", ".join(f"{count} {key}" for key, count in sorted(tally.items()))
    costs_ms = 1000 * np.array(costs)
    return (
        f"{resolution[0]}x{resolution[1]}: {throws} throws: {summary}\n"
        f"  answer after the dice stop: median {statistics.median(delays):.2f} s, "
        f"max {max(delays):.2f} s; watcher per frame (reads included): median "
        f"{np.median(costs_ms):.2f} ms, mean {costs_ms.mean():.2f} ms, max {costs_ms.max():.1f} ms"
    )


PHOTO_SET = Path(__file__).resolve().parents[2] / "shared/data/dice-photos/damiantab-phone"
_CHILD = """
import sys, time
sys.path.insert(0, {repo!r})
paths = sys.argv[1:]
start = time.perf_counter()
if {blob!r}:
    import cv2
    from benchmarks.blob_reader import read_blobs
    for path in paths:
        read_blobs(cv2.imread(path))
else:
    from kiosk.cli import main
    main(["read", "--json", *paths])
seconds = time.perf_counter() - start
peak = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print("RESULT", seconds, int(peak) / 1024, file=sys.stderr)
"""


def photos(count: int) -> str:
    """Wall time and peak memory of reading `count` phone photos, the reader against blobs."""
    import subprocess
    import sys

    paths = sorted(str(p) for p in (PHOTO_SET / "images").rglob("*.jpg"))[:count]
    if not paths:
        return f"no photos at {PHOTO_SET}"
    lines = [f"\n{len(paths)} phone photos (907x1209), each reader in a fresh process:"]
    figures = {}
    for name, blob in (("reader (azar-kiosk read)", False), ("blob + DBSCAN", True)):
        code = _CHILD.format(repo=str(Path(__file__).resolve().parents[1]), blob=blob)
        done = subprocess.run(
            [sys.executable, "-c", code, *paths], capture_output=True, text=True, check=True
        )
        result = [line for line in done.stderr.splitlines() if line.startswith("RESULT")][-1]
        seconds, peak = (float(v) for v in result.split()[1:])
        figures[name] = seconds
        lines.append(f"  {name:26s} {seconds:6.2f} s, peak {peak:5.0f} MB")
    ratio = figures["reader (azar-kiosk read)"] / figures["blob + DBSCAN"]
    lines.append(f"  reader / blob time: {ratio:.1f}x (target at most 2x)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300, help="timed calls per figure")
    parser.add_argument("--throws", type=int, default=0, help="simulated throws per frame size")
    parser.add_argument("--photos", type=int, default=0, help="phone photos to read (max 50)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    try:
        from vision.reader import read_roll
    except ImportError:
        read_roll = None

    print(f"CPU: {cpu_name()}; OpenCV {cv2.__version__}, 1 thread; median of {args.repeat}")
    if hasattr(os, "getloadavg"):  # other work on the machine slows every figure
        print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("settle: the per-frame check on the BGR frame, and on its grey plane (picamera2 lores)")
    print("read: vision.reader.read_roll with the tray calibration, and bare (no calibration)")
    print("noise: a frame of random pixels read bare (the most candidates any frame gives)")
    print(f"{'frame':>10} | {'settle BGR':>12} | {'settle grey':>12} | {'read':>9} | "
          f"{'read bare':>9} | {'noise':>9} | answer")  # fmt: skip
    for width, height in ((640, 480), (1280, 720)):
        print(measure(width, height, args.repeat, read_roll))
    if args.photos:
        print(photos(args.photos))
    if args.throws and read_roll is not None:
        print("\nThrows on the simulated tray, 30 frames per second, through ThrowWatcher:")
        for resolution in ((640, 480), (1280, 720)):
            print(film_throws(resolution, args.throws, read_roll))


if __name__ == "__main__":
    main()
