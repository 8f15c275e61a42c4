"""What the kiosk's reader learnt of its tray's flat top faces, kept beside the calibration.

`TrayReader` learns the size of a flat die's top face and how closely this camera measures it
from the first 30 dice it reads, and from then on holds every face to that size: a leaning die's
top is foreshortened, or found with a side in it. With it, how long this camera shows flat
dice's pips and layouts (the leaning limits, widened where it measures them loosely). Kept in
`tray-faces.json` in the calibration's directory, that knowledge survives a restart, and a new
calibration (`Calibration.save`) deletes it. A missing or damaged file is learnt again, never
an error: `load_faces` returns None and says why in the log. So are faces an earlier reader
measured otherwise (an older VERSION): held to a window learnt from them, flat dice would be
refused.
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass
from pathlib import Path

from vision.calibration import FACES_FILE, write_atomically

log = logging.getLogger(__name__)
VERSION = 2  # 2: the floor is no part of a face on the tray (top_face.floor_of); a black
# die's face measured with its shadow in it was 1.1-1.4 times one measured without


@dataclass(frozen=True, slots=True)
class TrayFaces:
    """sizes: the last top faces read (px, newest last); window: the face a die may show, as
    times their median (JudgeParams.top_face, as learnt); tilts: how long a flat die's pips and
    pip layout may look (PipParams.cocked_pips and cocked_stretch, as learnt; None in a file
    written before they were learnt: those of the reader's parameters)."""

    sizes: tuple[float, ...]
    window: tuple[float, float]
    tilts: tuple[float, float] | None = None


def save_faces(directory: str | os.PathLike[str], faces: TrayFaces) -> Path:
    """Write `faces` into the calibration's directory, whole or not at all."""
    path = Path(directory) / FACES_FILE
    record = {
        "version": VERSION,
        "sizes": [round(float(s), 2) for s in faces.sizes],
        "window": [float(faces.window[0]), float(faces.window[1])],
    }
    if faces.tilts is not None:
        record["tilts"] = [float(faces.tilts[0]), float(faces.tilts[1])]
    write_atomically(path, (json.dumps(record) + "\n").encode("utf-8"))
    return path


def load_faces(directory: str | os.PathLike[str]) -> TrayFaces | None:
    """The faces saved in `directory`, or None (nothing saved, or a file that does not hold
    them: logged, and learnt again)."""
    path = Path(directory) / FACES_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        log.warning("%s cannot be read (%s): the tray's faces are learnt again", path, error)
        return None
    version = record.get("version") if isinstance(record, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and 0 < version < VERSION:
        log.warning("%s was measured by an earlier reader: the tray's faces are learnt again", path)
        return None
    faces = _faces(record)
    if faces is None:
        log.warning("%s does not hold a tray's faces: they are learnt again", path)
    return faces


def _faces(record: object) -> TrayFaces | None:
    if not isinstance(record, dict) or record.get("version") != VERSION:
        return None
    sizes, window = record.get("sizes"), record.get("window")
    if not isinstance(sizes, list) or not sizes or not isinstance(window, list):
        return None
    numbers = [*sizes, *window]
    if any(isinstance(v, bool) or not isinstance(v, int | float) for v in numbers):
        return None
    if not all(math.isfinite(v) and v > 0 for v in numbers) or len(window) != 2:
        return None
    if not window[0] <= 1.0 <= window[1]:
        return None
    tilts = _tilts(record.get("tilts"))
    if "tilts" in record and tilts is None:
        return None
    sized = tuple(float(s) for s in sizes)
    return TrayFaces(sized, (float(window[0]), float(window[1])), tilts)


def _tilts(tilts: object) -> tuple[float, float] | None:
    """The leaning limits kept, or None where they are no pair of ratios of 1 or more (or
    none are kept: a file written before they were learnt)."""
    if not isinstance(tilts, list) or len(tilts) != 2:
        return None
    if any(isinstance(v, bool) or not isinstance(v, int | float) for v in tilts):
        return None
    if not all(math.isfinite(v) and v >= 1.0 for v in tilts):
        return None
    return float(tilts[0]), float(tilts[1])
