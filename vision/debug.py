"""Draw what the reader saw: every candidate, its value or the reason it was not read, and
the top face and pips the geometric reading found on it (`read` and `watch --debug-dir`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import Roll
from vision.top_face import Face
from vision.types import DieVerdict

GREEN = (60, 200, 60)
RED = (40, 40, 230)
GREY = (160, 160, 160)
YELLOW = (0, 220, 255)


def annotate(frame: np.ndarray, verdicts: list[DieVerdict], roll: Roll) -> np.ndarray:
    """A copy of the BGR frame with each candidate boxed (green read, red refused, grey left
    out as not a die), its value or reason and both readings written, the top face its pips
    were sought on (yellow) and the pips read (a dot each), and the verdict on top: what an
    exhibit builder needs to see why a die was refused (a face that took in a shadow, a pip
    missed in a glint)."""
    out = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1400)
    thick = max(1, round(scale * 2))
    for v in verdicts:
        colour = GREEN if v.die else (RED if v.counts else GREY)
        x, y = v.candidate.centre
        h = v.candidate.size / 2
        cv2.rectangle(out, (int(x - h), int(y - h)), (int(x + h), int(y + h)), colour, thick)
        if v.pips is not None and v.pips.face is not None:
            _face(out, v.pips.face, max(1, thick // 2))
        for px, py in v.pips.pips if v.pips is not None else ():
            cv2.circle(out, (round(px), round(py)), max(2, thick + 1), YELLOW, cv2.FILLED)
        pips = v.pips.value if v.pips and v.pips.value else "-"
        guess = (v.guess.value or "x") if v.guess else "?"
        text = f"{v.die.value}" if v.die else f"{v.reason or 'not a die'}"
        text += f" p{pips}/c{guess}" + (f" {v.guess.p:.2f}" if v.guess else "")
        origin = (int(x - h), int(y - h - 4))
        cv2.putText(out, text[:40], origin, cv2.FONT_HERSHEY_SIMPLEX, scale * 0.5, colour, thick)
    verdict = f"{roll.status}"
    verdict += f" sum {roll.total}" if roll.ok else f" {roll.reason}: {roll.detail}"
    colour = GREEN if roll.ok else RED
    cv2.putText(
        out, verdict[:80], (10, int(30 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick
    )
    return out


def _face(out: np.ndarray, face: Face, thick: int) -> None:
    """Outline the face found: a square of its side, turned by its angle."""
    corners = [complex(*face.centre) + face.axes * (sx + 1j * sy) / 2 for sx, sy in SQUARE]
    points = np.array([[[round(z.real), round(z.imag)]] for z in corners], np.int32)
    cv2.polylines(out, [points], True, YELLOW, thick, cv2.LINE_AA)


SQUARE = ((-1, -1), (1, -1), (1, 1), (-1, 1))
