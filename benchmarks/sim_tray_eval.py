"""How the real dice reader does on the simulated tray's settled frames (prints figures).

    .venv/bin/python benchmarks/sim_tray_eval.py [throws] [seed] [die colour] [pip colour]
        [WxH:DIE] [--shadows] [--sunbeams] [--knocks]

(colours as "#rrggbb"; the default is the demo's ivory die with black pips; WxH:DIE a tray
seen at another resolution with dice DIE px wide, e.g. 640x360:45, a cramped tray;
--shadows: a visitor leaning over the tray shades it in every other throw, hazards included,
hardware.sim.scene.visitor_shadow; --sunbeams: sunlight through a window falls across the
tray in every other throw, hardware.sim.scene.sunbeam, warm, 1.3-2 times the light;
--knocks: after every tenth throw the camera is knocked to a new place up to KNOCK px from
where it was calibrated, and the reader follows it, vision.tray_shift)

Counts, over ordinary throws and each hazard: ok and right, reroll (by reason), ok but wrong;
then the top-face window the reader learnt. The reader
is the kiosk's (vision.tray_reader.TrayReader: calibrated from the empty tray, the die size learnt
from the dice it reads), one read per settled throw (no vote).
A referee may reroll an ordinary throw now and then; it must never be ok and wrong.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's code, whichever one is installed

from hardware.sim import Hazard, SimulatedTray  # noqa: E402
from hardware.sim.scene import sunbeam, visitor_shadow  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.debug import annotate  # noqa: E402
from vision.tray_reader import TrayReader, inspect  # noqa: E402

KNOCK = 12  # px: the farthest --knocks moves the camera from where it was calibrated


def main(
    throws: int = 200,
    seed: int = 1,
    die: str = "#efe8d8",
    pip: str = "#1c1814",
    view: str | None = None,
    shadows: bool = False,
    knocks: bool = False,
    sunbeams: bool = False,
) -> int:
    clock = [0.0]
    look = {"clock": lambda: clock[0], "die_colour": die, "pip_colour": pip}
    if view:
        size, _, side = view.partition(":")
        width, height = (int(v) for v in size.split("x"))
        look["die_size"] = float(side) if side else 0.075 * height
        tray = SimulatedTray((width, height), seed=seed, **look)
    else:
        tray = SimulatedTray(seed=seed, **look)
    tray.open()
    shade = np.random.default_rng(seed + 1000)  # the visitors' shadows (--shadows)
    knock = np.random.default_rng(seed + 2000)  # the camera's knocks (--knocks)
    camera = np.zeros(2)  # where the camera is (px) against where it was calibrated
    knocked = 0
    # calibrated from the empty tray, as staff do; the die size is learnt as the kiosk learns it
    read = TrayReader(Calibration(tray.tray_polygon, None, tray.empty_frame()))
    failures = Path(tempfile.gettempdir()) / "sim-tray-failures"
    failures.mkdir(exist_ok=True)
    for old in failures.glob("*.png"):
        old.unlink(missing_ok=True)  # only this run's (another run may clear it too)
    wrong_total = 0
    settled: Counter[str] = Counter()  # ordinary throws once TrayReader's window is learnt
    # A non-throw is judged over a stream of frames (vision.settle), not by one read.
    for hazard in (None, *(h for h in Hazard if h is not Hazard.NOT_MOVED)):
        count = throws if hazard is None else max(20, throws // 5)
        tally: Counter[str] = Counter()
        for n in range(count):
            tray.throw(hazard=hazard)
            clock[0] += tray.settle_time + 0.5
            if shadows:  # a visitor leans over every other throw
                tray.shadow = visitor_shadow(tray.geometry, shade) if n % 2 else None
            if sunbeams:  # the sun comes through a window in every other throw
                tray.shadow = sunbeam(tray.geometry, shade) if n % 2 else None
            frame = tray.read().image
            if knocks:
                knocked += 1
                if knocked % 10 == 0:
                    camera = np.round(knock.uniform(-KNOCK, KNOCK, 2))
                move = np.float32([[1, 0, camera[0]], [0, 1, camera[1]]])
                size = (frame.shape[1], frame.shape[0])
                frame = cv2.warpAffine(frame, move, size, borderMode=cv2.BORDER_REPLICATE)
            calibration = read.calibration  # as it read this frame (it learns the die size)
            learnt = read.face_size is not None  # the top-face window applies (30 dice read)
            roll = read(frame)
            truth = sorted(tray.last_values)
            if hazard is None and learnt:
                settled["throws"] += 1
                settled["read"] += roll.ok and sorted(roll.values) == truth
            if roll.ok and sorted(roll.values) == truth and hazard in (None, Hazard.TOUCHING):
                tally["ok and right"] += 1
            elif roll.ok:
                tally["OK BUT WRONG"] += 1
                wrong_total += 1
                cv2.imwrite(str(failures / f"{hazard or 'plain'}-{n}-wrong.png"), frame)
                _, verdicts = inspect(frame, calibration=calibration)
                for v in verdicts:  # what each reading said of each die
                    x, y = v.candidate.centre
                    face = v.pips.face if v.pips else None
                    aspect = f"{face.aspect:.2f}" if face else "-"
                    guess = f"{v.guess.value} ({v.guess.p:.2f})" if v.guess else "-"
                    print(
                        f"  {hazard}-{n}: die at ({x:.0f}, {y:.0f}) at wall {v.candidate.at_wall}"
                        f", face aspect {aspect}, pips {v.pips and v.pips.value}, classifier "
                        f"{guess}: {v.reason}"
                    )
                seen = annotate(frame, verdicts, roll)
                cv2.imwrite(str(failures / f"{hazard or 'plain'}-{n}-wrong-seen.png"), seen)
            else:
                tally[f"reroll {roll.reason}"] += 1
                if hazard is None:
                    cv2.imwrite(str(failures / f"plain-{n}-{roll.reason}.png"), frame)
        name = hazard.value if hazard else "ordinary"
        print(f"{name:10s} {count:4d} throws: " + ", ".join(f"{k} {v}" for k, v in tally.items()))
        if hazard is None:
            print(
                f"  of which once the top-face window was learnt: {settled['read']} of "
                f"{settled['throws']} read right"
            )
            print("  " + _window(read))
    if knocks:
        offset = read.camera.offset
        print(f"camera knocked {knocked // 10} times, now at {camera}; followed {offset}")
    start = time.perf_counter()
    tray.throw()
    frames = 0
    for _ in range(60):
        clock[0] += 1 / 30
        tray.read()
        frames += 1
    seconds = (time.perf_counter() - start) / frames
    size = f"{tray.geometry.width}x{tray.geometry.height}"
    print(f"render: {seconds * 1000:.1f} ms a frame at {size}")
    print(f"frames that were rerolled or wrong are saved under {failures}")
    return 1 if wrong_total else 0


def _window(read: TrayReader) -> str:
    """What the reader learnt of the tray's flat faces: the window each face is held to, and
    how long flat dice's pips and layouts may look (TrayReader.tilt_limits)."""
    if read.face_size is None:
        return "the top-face window was not learnt in these throws"
    low, high = read.params.judge.top_face
    pips, layout = read.tilt_limits
    return (
        f"window learnt: faces {low:.3f}-{high:.3f} of {read.face_size:.1f} px; "
        f"leaning past pips {pips:.3f} long, layouts {layout:.3f}"
    )


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Read the simulated tray's settled throws with the kiosk's reader."
    )
    parser.add_argument("throws", nargs="?", type=int, default=200, help="ordinary throws")
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("die", nargs="?", default="#efe8d8", help="die colour, #rrggbb")
    parser.add_argument("pip", nargs="?", default="#1c1814", help="pip colour, #rrggbb")
    parser.add_argument("view", nargs="?", help="WxH:DIE, e.g. 640x360:45 (a cramped tray)")
    parser.add_argument(
        "--shadows", action="store_true", help="a visitor's shadow over every other throw"
    )
    parser.add_argument(
        "--sunbeams", action="store_true", help="a sunbeam across every other throw"
    )
    parser.add_argument(
        "--knocks", action="store_true", help="the camera knocked after every tenth throw"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    given = _arguments(sys.argv[1:])
    sys.exit(
        main(
            given.throws,
            given.seed,
            given.die,
            given.pip,
            given.view,
            given.shadows,
            given.knocks,
            given.sunbeams,
        )
    )
