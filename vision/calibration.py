"""What the reader is told about the tray: its region, the expected die size, an empty frame.

Produced by the calibration helpers (`vision.calibrate`) from an empty-tray frame (maintenance
screen) and stored in the kiosk's data directory; every field is optional so single photos can be
read without one. On disk a calibration is a directory holding `calibration.json` (the tray
polygon and die size, readable and editable by hand) and `empty.png` (the empty tray, lossless);
both are written atomically so a power cut leaves the old calibration or the new one, never half.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

FILE = "calibration.json"
EMPTY_FILE = "empty.png"
FACES_FILE = "tray-faces.json"  # what the reader learnt on this calibration (tray_faces.py)
VERSION = 1


class CalibrationError(ValueError):
    """A calibration that cannot be made or loaded; the message says why, for the staff."""


@dataclass(frozen=True)
class Calibration:
    """Known facts about the camera's view of the tray.

    tray: polygon of the tray floor in frame pixels, shape (N, 2) int32, or None for the whole
        frame.
    die_size: expected side of a die's top face in pixels, or None if unknown.
    empty: an empty-tray frame, BGR uint8 (h, w, 3), same shape as the frames read, or None.
    """

    tray: np.ndarray | None = None
    die_size: float | None = None
    empty: np.ndarray | None = None

    @property
    def of_tray(self) -> bool:
        """Made on a tray (its floor or its empty frame known), not the blank of a single photo."""
        return self.tray is not None or self.empty is not None

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write this calibration into `directory` (created if needed); returns the JSON path."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        record: dict[str, object] = {
            "version": VERSION,
            "tray": None if self.tray is None else np.asarray(self.tray).tolist(),
            "die_size": None if self.die_size is None else float(self.die_size),
            "empty": None,
        }
        if self.empty is not None:
            ok, png = cv2.imencode(".png", self.empty)
            if not ok:
                raise CalibrationError("the empty-tray frame could not be encoded as PNG")
            write_atomically(folder / EMPTY_FILE, png.tobytes())
            record["empty"] = EMPTY_FILE
            record["frame_size"] = [int(self.empty.shape[1]), int(self.empty.shape[0])]
        path = folder / FILE
        write_atomically(path, (json.dumps(record, indent=2) + "\n").encode("utf-8"))
        (folder / FACES_FILE).unlink(missing_ok=True)  # learnt on the old calibration
        return path

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> Calibration | None:
        """The calibration saved in `directory`, or None if none was ever saved there.

        Raises CalibrationError if one is there but damaged or inconsistent."""
        folder = Path(directory)
        path = folder / FILE
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as error:
            raise CalibrationError(f"cannot read {path}: {error.strerror}") from error
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise CalibrationError(f"{path} is damaged (not JSON): {error.msg}") from error
        if not isinstance(record, dict) or record.get("version") != VERSION:
            raise CalibrationError(f"{path} is not a version {VERSION} calibration")
        tray = _tray(record.get("tray"), path)
        die_size = _die_size(record.get("die_size"), path)
        empty = None
        if record.get("empty") is not None:
            empty = cv2.imread(str(folder / EMPTY_FILE), cv2.IMREAD_COLOR)
            if empty is None:
                raise CalibrationError(f"the empty-tray image {folder / EMPTY_FILE} is missing")
            if record.get("frame_size") != [empty.shape[1], empty.shape[0]]:
                raise CalibrationError(f"{folder / EMPTY_FILE} does not match {path}")
        return cls(tray=tray, die_size=die_size, empty=empty)


def empty_under(calibration: Calibration | None, frame: np.ndarray) -> np.ndarray | None:
    """The empty tray under `frame`, where the calibration holds one of the frame's shape (the
    tray difference and the floor are only seen against it)."""
    empty = calibration.empty if calibration is not None else None
    return empty if empty is not None and empty.shape == frame.shape else None


def _tray(value: object, path: Path) -> np.ndarray | None:
    if value is None:
        return None
    try:
        tray = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise CalibrationError(f"the tray in {path} is not a list of points") from error
    if tray.ndim != 2 or tray.shape[1] != 2 or len(tray) < 3 or not np.isfinite(tray).all():
        raise CalibrationError(f"the tray in {path} is not a polygon of at least 3 points")
    return np.round(tray).astype(np.int32)


def _die_size(value: object, path: Path) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CalibrationError(f"the die size in {path} is not a number")
    if value <= 0:
        raise CalibrationError(f"the die size in {path} must be positive")
    return float(value)


def write_atomically(path: Path, data: bytes) -> None:
    """Write the file whole or not at all: a temporary file, flushed to disk, then renamed."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
