"""Draw what the reader saw: every candidate die, its value or the reason it was not read."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader import DieReading
from vision.reading import Roll

GREEN = (60, 200, 60)
RED = (40, 40, 230)


def annotate(frame: np.ndarray, readings: list[DieReading], roll: Roll) -> np.ndarray:
    """A copy of the BGR frame with bodies outlined, values or problems written, and the verdict."""
    out = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1400)
    thick = max(1, round(scale * 2))
    for reading in readings:
        colour = GREEN if reading.die else RED
        box = cv2.boxPoints(reading.body.rect).astype(np.int32)
        cv2.polylines(out, [box], True, colour, thick)
        x, y = (int(v) for v in reading.body.centre)
        text = str(reading.die.value) if reading.die else (reading.problem or "?")
        if reading.die:
            text += f" {reading.die.confidence:.2f}"
        else:
            text = f"{text}: {reading.detail}"[:40]
        origin = (x - int(reading.body.size / 2), y - int(reading.body.size * 0.6))
        cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, scale * 0.6, colour, thick)
    verdict = f"{roll.status}"
    verdict += f" sum {roll.total}" if roll.ok else f" {roll.reason}: {roll.detail}"
    cv2.putText(
        out,
        verdict[:80],
        (10, int(30 * scale)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        GREEN if roll.ok else RED,
        thick,
    )
    return out
