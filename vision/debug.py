"""Draw what the reader saw: every candidate, its value or the reason it was not read."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import Roll
from vision.types import DieVerdict

GREEN = (60, 200, 60)
RED = (40, 40, 230)
GREY = (160, 160, 160)


def annotate(frame: np.ndarray, verdicts: list[DieVerdict], roll: Roll) -> np.ndarray:
    """A copy of the BGR frame with each candidate boxed (green read, red refused, grey left
    out as not a die), its value or reason and both readings written, and the verdict on top."""
    out = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1400)
    thick = max(1, round(scale * 2))
    for v in verdicts:
        colour = GREEN if v.die else (RED if v.counts else GREY)
        x, y = v.candidate.centre
        h = v.candidate.size / 2
        cv2.rectangle(out, (int(x - h), int(y - h)), (int(x + h), int(y + h)), colour, thick)
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
