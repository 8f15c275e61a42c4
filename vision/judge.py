"""The verdict: the two readings of each candidate must agree, then the roll must hold together.

Contract: `judge_dice(candidates, pips, guesses, p, face_size) -> list[DieVerdict]` (one per
candidate, same order; face_size: a top face's side in px on a calibrated tray, else None) and
`judge_roll(verdicts, unexplained, expect, p) -> Roll`. Pure: values in, values out.

A die is announced only when the geometric reading (face.py) and the learned one (classify.py)
give the same value, the pips' fit is within its margins and the classifier's calibrated
probability reaches `ClassifyParams.sure` (the casino pattern: two algorithms that fail apart,
a re-throw when they disagree). A candidate neither reading takes for a die face, that the
finder is not sure of either, is clutter and left out; a candidate lying inside the face of a
die read is a part of it (a pip, a glint). Every other candidate is a die that could not be
read, and the roll is a reroll with its reason. The roll then must be `expect` dice whose top
faces do not overlap (flat dice's top faces lie in one plane), with nothing else on the tray.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.faces import SHAPED
from vision.params import PARAMS, Params
from vision.reading import Die, RerollReason, Roll
from vision.types import Candidate, DieVerdict, FaceGuess, PipReading

# The order in which reasons are reported when several dice are refused: the one a visitor can
# act on first (take the die out of the corner, lift the die off the other).
PRIORITY = (
    RerollReason.CUT,
    RerollReason.OVERLAP,
    RerollReason.COCKED,
    RerollReason.GLARE,
    RerollReason.BLUR,
    RerollReason.UNREADABLE,
)


def judge_die(
    candidate: Candidate,
    pips: PipReading,
    guess: FaceGuess,
    p: Params = PARAMS,
    face_size: float | None = None,
) -> DieVerdict:
    """One candidate's verdict from its two readings. face_size: the side of a die's top face
    on this calibrated tray (px), when measured: a face found smaller is foreshortened, one
    found larger takes in a side of the die, and either is a die that leans (its top alone
    does not show it: seen from above, a die leaning on the wall by 20-35 degrees has a top
    that still looks square)."""
    sure, none = p.classify.sure, p.classify.none
    flat_none = guess.no_face(none)
    finder_sure = candidate.p_die >= p.judge.sure_die
    looks_like_die = (
        finder_sure or candidate.on_tray or guess.p_face >= 0.5 or pips.value is not None
    )

    def verdict(reason: RerollReason | None, detail: str, die: Die | None = None) -> DieVerdict:
        return DieVerdict(candidate, pips, guess, die, reason, detail)

    if not looks_like_die:
        return DieVerdict(candidate, pips, guess, None, None, "not a die", counts=False)
    if candidate.cut:
        return verdict(RerollReason.CUT, "a die cut by the edge of the picture or the tray")
    lean = _leans(candidate, pips, p, face_size)
    if lean:
        return verdict(RerollReason.COCKED, lean)
    if pips.value is not None and guess.value == pips.value:
        if guess.p >= sure and pips.confidence >= p.judge.min_pip_confidence:
            face = pips.face
            assert face is not None  # a value is read on a face
            die = Die(
                value=pips.value,
                center=(round(face.centre[0], 1), round(face.centre[1], 1)),
                size=round(face.side, 1),
                confidence=round(min(guess.p, pips.confidence), 3),
            )
            return verdict(None, "", die)
        return verdict(
            RerollReason.UNREADABLE, f"both read {pips.value}, not surely ({guess.p:.2f})"
        )
    if pips.value is not None:
        if flat_none:
            return verdict(RerollReason.COCKED, f"pips read {pips.value}; not a flat top face")
        seen = "no face" if guess.value is None else str(guess.value)
        return verdict(RerollReason.UNREADABLE, f"pips read {pips.value}, the classifier {seen}")
    reason = pips.reason or RerollReason.UNREADABLE
    if flat_none and reason is RerollReason.UNREADABLE and finder_sure:
        reason = RerollReason.COCKED  # a die the finder is sure of, showing no flat top face
    return verdict(reason, pips.detail)


def _leans(
    candidate: Candidate, pips: PipReading, p: Params, face_size: float | None
) -> str | None:
    """Why a die on the kiosk's tray may lean, beyond what its pips show (face.py refuses a
    die whose pips show a tilt: `face.kiosk_leaning`), or None.

    A die touching the wall, where dice lean, showing 1, 2, 3 or 6, is judged by its pips' shape
    alone: where they could not be measured (too faint), nothing shows it does not lean.
    Every face is also held to the size of the tray's flat faces (face_size, once learnt: a
    window widened to what this camera measures): a die tipped far over on the wall turns a
    side almost to the camera, laid out nearly square but smaller than a flat top.
    """
    if face_size and pips.face is not None and pips.value is not None:
        ratio = pips.face.side / face_size
        low, high = p.judge.top_face
        if not low <= ratio <= high:
            return f"a face {ratio:.2f} times a die's top face"
    faint = pips.value in SHAPED and pips.pip_stretch is None
    if candidate.at_wall and faint:
        return "a die against the wall whose pips could not be measured"
    return None


def _inside_face(verdict: DieVerdict, host: DieVerdict, p: Params) -> bool:
    """Does this candidate's centre lie on the face of the die read in `host` (within
    `inside_face` face sides of its centre along the face's own axes), while it is smaller than
    that die or no face at all? (A die of its size showing a face there lies on it.)"""
    face = host.pips.face if host.pips is not None else None
    if face is None or host.die is None:
        return False
    x, y = verdict.candidate.centre
    z = complex(x - face.centre[0], y - face.centre[1]) / face.axes
    on = max(abs(z.real), abs(z.imag)) < p.judge.inside_face
    smaller = verdict.candidate.size < 0.8 * host.candidate.size  # a pip, a spot
    no_face = verdict.guess is not None and verdict.guess.value is None  # a glint, a rim
    return bool(on and (smaller or no_face))


def judge_dice(
    candidates: Sequence[Candidate],
    pips: Sequence[PipReading],
    guesses: Sequence[FaceGuess],
    p: Params = PARAMS,
    face_size: float | None = None,
) -> list[DieVerdict]:
    """Every candidate's verdict; parts of a die read (inside its face) are left out."""
    verdicts = [
        judge_die(c, r, g, p, face_size) for c, r, g in zip(candidates, pips, guesses, strict=True)
    ]
    read = [v for v in verdicts if v.die is not None]
    out = []
    for v in verdicts:
        host = next((r for r in read if r is not v and _inside_face(v, r, p)), None)
        if host is not None:
            v = DieVerdict(v.candidate, v.pips, v.guess, None, None, "part of a die read", False)
        out.append(v)
    return _apart(out, p)


def _apart(verdicts: list[DieVerdict], p: Params) -> list[DieVerdict]:
    """Dice whose top faces would overlap lie on one another: both are refused (`overlap`)."""
    counted = [v for v in verdicts if v.counts]
    crowded = set()
    for i, a in enumerate(counted):
        for b in counted[i + 1 :]:
            face = min(_face_side(a, p), _face_side(b, p))  # a box found over two dice is large
            (ax, ay), (bx, by) = _centre(a), _centre(b)
            apart = p.judge.faces_apart if a.die and b.die else p.judge.boxes_apart
            if np.hypot(ax - bx, ay - by) < apart * face:
                crowded.update((id(a), id(b)))
    why = "dice on top of each other"
    return [v.refused(RerollReason.OVERLAP, why) if id(v) in crowded else v for v in verdicts]


def _face_side(v: DieVerdict, p: Params) -> float:
    return v.die.size if v.die else v.candidate.size / p.candidates.body_of_face


def _centre(v: DieVerdict) -> tuple[float, float]:
    """Where the finder marked the die: the face found on two touching dice of one colour can
    take in a part of the other, and its centre is pulled towards it."""
    return v.candidate.centre


def judge_roll(
    verdicts: Sequence[DieVerdict],
    unexplained: Sequence[np.ndarray],
    expect: int | None,
    p: Params = PARAMS,
) -> Roll:
    """The roll: `ok` only when every die is read, nothing else lies there, the count is right."""
    dice = tuple(sorted((v.die for v in verdicts if v.die is not None), key=lambda d: d.center))
    refused = [v for v in verdicts if v.counts and v.die is None]
    unexplained = [u for u in unexplained if not _holds(u, refused) and not _all_read(u, verdicts)]
    if unexplained:
        x, y = np.asarray(unexplained[0]).reshape(-1, 2).mean(axis=0)
        why = f"something on the tray that is not one die (dice heaped?) at ({x:.0f}, {y:.0f})"
        return Roll(dice, RerollReason.OVERLAP, why)
    if refused:
        worst = min(refused, key=lambda v: PRIORITY.index(v.reason))
        x, y = worst.candidate.centre
        return Roll(dice, worst.reason, f"{worst.detail} at ({x:.0f}, {y:.0f})")
    if not dice:
        return Roll((), RerollReason.WRONG_COUNT, "no dice found")
    if expect is not None and len(dice) != expect:
        found = f"{len(dice)} {'die' if len(dice) == 1 else 'dice'}"
        return Roll(dice, RerollReason.WRONG_COUNT, f"{found}, expected {expect}")
    return Roll(dice)


def _holds(outline: np.ndarray, verdicts: Sequence[DieVerdict]) -> bool:
    """Does something unexplained on the tray hold one of these dice? One refused for its own
    reason: a die leaning on the wall shows more of itself than a flat one (its side, its
    shadow up the wall), so its outline is more than one die's, and the visitor is told it
    leans."""
    return bool(_inside(outline, verdicts))


def _all_read(outline: np.ndarray, verdicts: Sequence[DieVerdict]) -> bool:
    """Is a blob that held one die more than the finder marked explained: the die the tray
    difference alone saw (candidates._missed) read by both readings, and every mark in the
    blob read as a die of its own? A mark left out as a part of that die (its box drawn
    across two dice) leaves a die unread, and the blob refusing the roll."""
    inside = _inside(outline, verdicts)
    missed = any(v.candidate.p_die == 0.0 and v.die is not None for v in inside)
    return missed and all(v.die is not None for v in inside)


def _inside(outline: np.ndarray, verdicts: Sequence[DieVerdict]) -> list[DieVerdict]:
    """The verdicts whose candidate's centre lies in the outline (frame px)."""
    polygon = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return [v for v in verdicts if cv2.pointPolygonTest(polygon, v.candidate.centre, False) >= 0]
