"""`azar-kiosk watch`: a recording of a tray read as the kiosk reads its camera.

Feeds a video file, or a folder of frames, through the settle detector, the dice reader and the
vote exactly as the kiosk's vision worker does (kiosk.app.build_watcher), and prints one line per
answer (one JSON object with --json). An exhibit builder films their own tray before opening day
and sees what the referee would have said, and when.

With --debug-dir each answer's frame is also written there (`frame-000123.png`, the frame's
index), drawn as `read --debug-dir` draws a photo: every candidate, the face and pips found on
it, both readings and the answer. A refused throw then shows why: a shadow taken into a face,
a pip lost in a glint, a die the finder missed. A recording that ends on a change with no answer
yet (dice still rolling, or at rest with reads not yet agreed) says so on stderr, with the time
the change began, as does a tray that looks as if moving for longer than dice roll (the kiosk's
RESTLESS_SECONDS), wherever it lies in the recording, and dice at rest that were moved again
before their reads agreed (that throw never has an answer line). With a calibration, the end
says on stderr what the reader has learnt of the tray's top faces, as the camera tools say it
(still learning, their size, or too small to tell a leaning die: the camera too far).

Exit code 0 when the source could be read to its end, 1 when it could not be opened (or no frame
of it could) or a debug frame could not be written, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from kiosk.commands.read import _expect, answer_fields, debug_folder

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="read a recording of the tray as the kiosk would",
        description="Read a video file, or a folder of frames, through settle detection, the "
        "dice reader and the vote exactly as the kiosk does; one line per answer.",
    )
    parser.add_argument("source", metavar="SOURCE", type=Path, help="a video file or a folder")
    parser.add_argument(
        "--expect",
        default="3",
        type=_expect,
        help="number of dice a throw must have, or 'any' (default: 3)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per answer")
    parser.add_argument(
        "--calibration",
        type=Path,
        help="the tray's calibration (its calibration.json, or the folder holding it)",
    )
    parser.add_argument(
        "--fps", type=float, default=30.0, help="frame rate of a folder of frames (default 30)"
    )
    parser.add_argument("--config", type=Path, help="TOML configuration ([vision] settings)")
    parser.add_argument(
        "--debug-dir",
        type=Path,
        help="write the frame of each answer here, annotated with what the reader saw",
    )
    parser.set_defaults(func=run)


def answer_json(index: int, t: float, roll) -> dict:
    """The fixed JSON shape of one answer."""
    return {"frame": index, "time": round(t, 3), **answer_fields(roll)}


def answer_line(index: int, t: float, roll) -> str:
    where = f"frame {index} ({t:.2f} s)"
    if roll.ok:
        return f"{where}: ok {' '.join(str(v) for v in roll.values)} (sum {roll.total})"
    return f"{where}: reroll, {roll.reason} ({roll.detail})"


RESTLESS = (
    "from {since:.2f} s the tray has looked as if moving for {n:.0f} s: no answer comes until "
    "it looks still (dice rolling that long? a shaking camera, or a compressed video's flicker)"
)
CUT_SHORT = (
    "no answer for the dice at rest from {since:.2f} s: the tray changed again after {reads} "
    "of their reads, before {votes} in a row agreed"
)
UNCALIBRATED = (
    "No calibration given: read as single photos are, dice at the wall and leaning dice "
    "included. The kiosk lets no read rule an uncalibrated tray (its dice are entered by hand); "
    "give --calibration (the kiosk's data folder) to read as it does."
)


class SourceError(ValueError):
    """A recording that cannot be read; the message says why."""


def frames(source: Path, fps: float) -> Iterator[tuple[int, float, object]]:
    """(index, time in seconds, BGR frame) of a video or a folder of images, in order. A frame
    of a folder that cannot be opened is reported on stderr and skipped."""
    import cv2

    from vision.image import ImageFileError, load_image
    from vision.params import PARAMS

    if source.is_dir():
        paths = sorted(p for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not paths:
            raise SourceError("no image files in the folder")
        for index, path in enumerate(paths):
            try:
                photo = load_image(path)
            except ImageFileError as error:
                print(f"{path.name}: skipped ({error})", file=sys.stderr)
                continue
            yield index, index / fps, photo.frame
        return
    if not source.is_file():
        raise SourceError("no such file or folder")
    capture = cv2.VideoCapture(str(source))
    try:
        if not capture.isOpened():
            raise SourceError("not a video OpenCV can open")
        width = capture.get(cv2.CAP_PROP_FRAME_WIDTH)
        height = capture.get(cv2.CAP_PROP_FRAME_HEIGHT)
        if width * height > PARAMS.frame.max_pixels:
            raise SourceError(f"frames of {width:.0f}x{height:.0f} are too large to read")
        rate = capture.get(cv2.CAP_PROP_FPS) or fps
        index = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            yield index, index / rate, frame
            index += 1
        if index == 0:
            raise SourceError("no frame could be decoded")
    finally:
        capture.release()


def _folder(path: Path) -> Path:
    """The calibration's directory (given it or its calibration.json): the kiosk keeps what
    its reader learnt of the tray's faces there too, and `watch` reads with it."""
    return path.parent if path.is_file() else path


def _calibration(path: Path | None):
    from vision.calibration import Calibration, CalibrationError

    if path is None:
        return None
    folder = _folder(path)
    try:
        calibration = Calibration.load(folder)
    except CalibrationError as error:
        raise SourceError(f"calibration: {error}") from None
    if calibration is None:
        raise SourceError(f"no calibration in {folder}")
    return calibration


def debug_frame(folder: Path, index: int, frame, roll, reader) -> bool:
    """Write the answer's frame into `folder`, annotated (vision.debug) with the candidates the
    reader judged on it, when this frame is the one it last read (an answer that the dice did
    not move reads nothing: the frame is drawn with the answer alone). False when it cannot be
    written."""
    import cv2

    from vision.debug import annotate

    inspected = getattr(reader, "inspected", None)
    verdicts = inspected[1] if inspected is not None and inspected[0] is frame else []
    target = folder / f"frame-{index:06d}.png"
    if cv2.imwrite(str(target), annotate(frame, verdicts, roll)):
        return True
    print(f"cannot write {target}", file=sys.stderr)
    return False


def unanswered(watcher) -> None:
    """Say on stderr when the recording ends on a throw with no answer: an answer line missing
    for a throw the builder made is the first thing to explain."""
    from vision.settle import SettleState

    since = watcher.unanswered_since
    if since is None:
        return
    if watcher.state is SettleState.SETTLED:
        why = "its dice came to rest, but their reads had not yet agreed"
    else:
        why = "the tray was still changing (dice rolling, a hand, or the camera shaking)"
    print(f"no answer for the change from {since:.2f} s: at the end {why}", file=sys.stderr)


def learnt(watcher) -> None:
    """Say on stderr what the reader has learnt of the tray's top faces, in the camera tools'
    words (kiosk.ui.scenes.reader_status): a recording too short to learn them, or dice too
    small in the picture, is what an exhibit builder should know before opening day."""
    from kiosk.i18n import Translator
    from kiosk.ui.scenes.reader_status import faces_state

    said = faces_state(getattr(watcher, "reader", None), Translator("en"))
    if said:
        print(said, file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout is for the answers
    from kiosk.app import build_watcher
    from kiosk.config import ConfigError, load_config
    from kiosk.worker import RESTLESS_SECONDS, Restless
    from vision.motion import FrameError

    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"configuration: {error}", file=sys.stderr)
        return 2
    if not debug_folder(args.debug_dir):
        return 1
    written = True
    try:
        calibration = _calibration(args.calibration)
        folder = None if args.calibration is None else _folder(args.calibration)
        if calibration is None:
            print(UNCALIBRATED, file=sys.stderr)
        watcher = build_watcher(config, calibration, args.expect, folder=folder, keep=False)
        restless = Restless()
        for index, t, frame in frames(args.source, args.fps):
            roll = watcher.update(frame, t)
            if watcher.cut_short is not None:
                since, reads = watcher.cut_short
                votes = watcher.config.votes
                print(CUT_SHORT.format(since=since, reads=reads, votes=votes), file=sys.stderr)
            if restless.update(str(watcher.state), t)[1]:
                print(RESTLESS.format(since=restless.since, n=RESTLESS_SECONDS), file=sys.stderr)
            if roll is None:
                continue
            line = answer_json(index, t, roll) if args.json else answer_line(index, t, roll)
            print(json.dumps(line) if args.json else line, flush=True)
            if args.debug_dir is not None:
                written &= debug_frame(args.debug_dir, index, frame, roll, watcher.reader)
        unanswered(watcher)
        learnt(watcher)
    except (SourceError, FrameError) as error:
        print(f"{args.source}: cannot watch ({error})", file=sys.stderr)
        return 1
    return 0 if written else 1
