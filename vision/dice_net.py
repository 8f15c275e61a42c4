"""The die finder: a small convolutional net that marks where dice lie and how large they are.

Die bodies found by colour fail where dice crowd, touch or match the tray; the net, trained on
labelled photos and rendered dice (tools/train_dice_net.py), marks where top faces are centred
and how large the die is, at three levels of a pyramid when the die size is not known. It runs
with OpenCV's DNN module (no other runtime). Its answers are candidates: the reader still
decides what is announced.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.image import Halvings
from vision.params import PARAMS, CandidateParams

MODEL = Path(__file__).resolve().parent / "models" / "dice_net.onnx"
STRIDE = 4  # frame pixels per cell of the net's maps
ALIGN = 8  # the net's input sides must be multiples of this
BAND = (10.0, 64.0)  # die sizes (pixels the net sees) each pyramid level trusts it for
_LOCK = threading.Lock()  # one cv2.dnn.Net is shared; it is not safe to run from two threads
# the face classifier's (probability of a face, likeliest value or None) for each box
FaceTest = Callable[[np.ndarray, list[tuple[float, float, float]]], list[tuple[float, int | None]]]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A die the net points at: its centre and size (side of a square of the die's area) in
    frame pixels, and how sure the net is that a die is there."""

    centre: tuple[float, float]
    size: float
    p_die: float


def _net() -> cv2.dnn.Net:
    return _load(str(MODEL))


@lru_cache(maxsize=2)
def _load(path: str) -> cv2.dnn.Net:
    if not Path(path).is_file():
        raise FileNotFoundError(f"die finder model missing: {path}")
    return cv2.dnn.readNetFromONNX(path)


def level_step(p: CandidateParams = PARAMS.candidates) -> float:
    """How much smaller each coarser level of the pyramid sees the frame: `p.levels` levels
    span BAND's ratio, so the coarsest sees dice as large as two levels did, and each band
    overlaps the next by half."""
    return (BAND[1] / BAND[0]) ** (1 / (p.levels - 1))


def levels(
    shape: tuple[int, ...], die: float | None, p: CandidateParams = PARAMS.candidates
) -> list[float]:
    """The scales the net reads the frame at: one with a known die size (a die `p.work_die`
    px wide), else a pyramid of `p.levels` whose bands (BAND / scale, in frame pixels) reach
    from 15 px to past 400 px in a large frame. A frame whose long side is under
    `p.long_side` / level_step() is also read enlarged, a step at a time while its long side
    stays within `p.long_side`: its smallest dice (10-16 px in a 320 px frame) then lie inside
    a band, not at its edge, where the net marks two touching ones as one."""
    if die:
        return [p.work_die / die]
    step = level_step(p)
    long_side = max(shape[:2])
    fine = min(1.0, p.long_side / long_side)
    larger: list[float] = []
    scale = fine * step
    while long_side * scale <= p.long_side:
        larger.insert(0, scale)
        scale *= step
    return larger + [fine / step**k for k in range(p.levels)]


def shrink(frame: np.ndarray, scale: float, halvings: Halvings | None = None) -> np.ndarray:
    """The frame scaled by `scale` as the net was trained to see it: area-averaged where it
    shrinks (each pixel the mean of the frame's under it, `Halvings.scaled`: 1280x720 to 0.23,
    2.3 -> 0.9 ms on one core), linear where it grows. halvings: the frame's, where another
    stage shrinks it too."""
    if scale < 1:
        return (halvings or Halvings(frame)).scaled(scale)
    return cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)


def maps(frame: np.ndarray, scale: float, halvings: Halvings | None = None) -> np.ndarray:
    """The net's maps (2, h/4, w/4) for the frame scaled by `scale`: heat logit, log die size."""
    image = shrink(frame, scale, halvings)
    h, w = image.shape[:2]
    ph, pw = -h % ALIGN + max(0, 4 * ALIGN - h), -w % ALIGN + max(0, 4 * ALIGN - w)
    fill = tuple(float(c) for c in np.median(image[::4, ::4].reshape(-1, 3), axis=0))
    image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=fill)
    blob = cv2.dnn.blobFromImage(image, 1 / 255.0)
    with _LOCK:
        net = _net()
        net.setInput(blob)
        return net.forward()[0].copy()


def find_dice(
    frame: np.ndarray,
    die: float | None = None,
    is_face: FaceTest | None = None,
    halvings: Halvings | None = None,
    p: CandidateParams = PARAMS.candidates,
) -> list[Candidate]:
    """Every die the net points at, surest first, one per die, at most `p.max_candidates`.

    frame: BGR uint8 (h, w, 3). die: the expected die size in frame pixels (a calibration's):
    the frame is read once, scaled so dice are `p.work_die` wide. Without it the frame is read
    at `p.levels` levels (`levels`), each trusted for the die sizes of its band; where two find the
    same die, the surer answer stands (an echo, _merge). A large candidate
    with smaller ones on it is either a die and its pips or a group of dice: `is_face` (the
    face classifier's probability of a die's face in each box; by default vision.classify's)
    tells which (see _merge). Cost: the net on at most about 1.2 times `p.long_side` squared
    pixels, whatever the frame shows, and the classifier on the few large candidates.
    halvings: the frame's (image.Halvings), where another stage shrinks it too.
    """
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError(f"a frame must be BGR uint8 (h, w, 3), not {frame.dtype} {frame.shape}")
    scales = levels(frame.shape, die, p)
    found: list[Candidate] = []
    for k, scale in enumerate(scales):
        lo = BAND[0] / p.band_tolerance if k else 0.0  # the finest level answers for the smallest
        hi = BAND[1] * p.band_tolerance if k < len(scales) - 1 else np.inf
        marks = _peaks(maps(frame, scale, halvings), scale, p)
        found += [c for c in marks if lo <= c.size * scale <= hi]

    seen: dict[int, bool] = {}  # a mark may lie on several large ones: read once

    def one(c: Candidate) -> bool:
        from vision.face import shows_one

        if id(c) not in seen:
            seen[id(c)] = shows_one(frame, (*c.centre, c.size), p.one_fill)
        return seen[id(c)]

    return _merge(found, lambda boxes: (is_face or _classifier_face)(frame, boxes), p, one)


def _classifier_face(
    frame: np.ndarray, boxes: list[tuple[float, float, float]]
) -> list[tuple[float, int | None]]:
    """The classifier's sure faces on these boxes (classify.sure_faces), at the shipped levels."""
    from vision.classify import Looks

    return Looks(frame).sure_faces(boxes)


def _pips(
    small: list[Candidate], faces: dict, p: CandidateParams, one: Callable[[Candidate], bool]
) -> bool:
    """Can these candidates on a large one be its pips? A pip seen close up looks, to the
    classifier, like no face, a face of no sure value, or a sure 1; dice of a group show
    faces of 1 to 6. At most one of them may (a die's 1 among its pips is the one pip in the
    middle). A sure 1 is a die where `one` finds a die's square face around its pip
    (face.shows_one), asked only while it can still decide: the finder marks a tray seen
    whole as one large die, and two dice on it showing 1, counted as its pips, made it one
    die showing 3."""
    dice, ones = 0, []
    for c in small:
        face, value = faces[id(c)]
        if face >= p.host_face and value is not None:
            if value == 1:
                ones.append(c)
            else:
                dice += 1
    for c in ones:
        if dice > 1:
            break
        dice += one(c)
    return dice <= 1


def _merge(
    found: list[Candidate], is_face, p: CandidateParams, one: Callable[[Candidate], bool]
) -> list[Candidate]:
    """One candidate per die. A candidate with smaller ones on it (`p.pip_of` times smaller or
    more, within its box) is a die with its pips marked, or a box over a group of dice; the
    net's heat cannot tell them apart (pips of a large die are marked as surely as dice), so
    the face classifier looks at all of them: a die's face on the large one, with small ones
    that look like pips (_pips), keeps it and drops them; else it is dropped and they are kept.
    Then weaker echoes of the same die (a peak near a surer one of about its size) are
    dropped, unless the classifier sees the die in the echo and not in the surer one
    (_face_in_other)."""

    def on(small: Candidate, big: Candidate) -> bool:
        near = np.hypot(*np.subtract(small.centre, big.centre)) < 0.6 * big.size
        return near and big.size >= p.pip_of * small.size

    hosts = [b for b in found if b.p_die >= p.min_host and any(on(c, b) for c in found)]
    hosts = sorted(hosts, key=lambda c: -c.p_die)[: p.max_hosts]
    # the surest few on each: two dice among them tell a group (cost: at most max_hosts x 5)
    on_hosts = {
        id(b): sorted((c for c in found if on(c, b)), key=lambda c: -c.p_die)[: p.look_on]
        for b in hosts
    }
    small = list({id(c): c for cs in on_hosts.values() for c in cs}.values())
    looked = hosts + small
    faces = dict(zip(map(id, looked), is_face([(*c.centre, c.size) for c in looked]), strict=True))
    dice = [
        b for b in hosts if faces[id(b)][0] >= p.host_face and _pips(on_hosts[id(b)], faces, p, one)
    ]
    groups = {id(b) for b in hosts} - {id(b) for b in dice}
    found = [c for c in found if id(c) not in groups and not any(on(c, b) for b in dice)]
    kept: list[Candidate] = []
    looks = p.max_hosts  # echoes of two sizes shown to the classifier, at most (cost)
    for candidate in sorted(found, key=lambda c: -c.p_die):
        echo = next(
            (
                i
                for i, k in enumerate(kept)
                if np.hypot(*np.subtract(candidate.centre, k.centre))
                <= p.echo * max(k.size, candidate.size)
                and max(k.size, candidate.size) < p.pip_of * min(k.size, candidate.size)
            ),
            None,
        )
        if echo is None:
            kept.append(candidate)
            if len(kept) == p.max_candidates:
                break
        elif looks and _two_sizes(kept[echo], candidate, p):
            looks -= 1
            if _face_in_other(kept[echo], candidate, is_face, p):
                kept[echo] = candidate
    return kept


def _two_sizes(a: Candidate, b: Candidate, p: CandidateParams) -> bool:
    """Are two echoes of one place of sizes too far apart to be two marks of one die whole?"""
    return max(a.size, b.size) >= p.echo_sizes * min(a.size, b.size)


def _face_in_other(surer: Candidate, echo: Candidate, is_face, p: CandidateParams) -> bool:
    """Is a weaker echo of another size the die, the surer mark a part of it? Where a die
    lies past a level's band, the net there marks a part of it (its face, its one pip) as a
    die about half its size, as surely as the level whose band holds it marks the die; and a
    level may mark a box over two dice about twice their size. Where the two sizes differ by
    `p.echo_sizes` or more, the one in whose box the classifier sees a die's face
    (`p.host_face`), the other's showing none, stands (asked about at most `p.max_hosts`
    pairs a frame, as about large marks)."""
    (face_of_surer, _), (face_of_echo, _) = is_face([(*c.centre, c.size) for c in (surer, echo)])
    return face_of_echo >= p.host_face > face_of_surer


def _peaks(out: np.ndarray, scale: float, p: CandidateParams) -> list[Candidate]:
    """The local maxima of the heat map, strongest first, at most 4 x `p.max_candidates`."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > p.min_heat)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[: 4 * p.max_candidates]
    found = []
    rows, cols = heat.shape
    for y, x in zip(ys[order], xs[order], strict=True):
        y0, y1, x0, x1 = max(0, y - 1), min(rows, y + 2), max(0, x - 1), min(cols, x + 2)
        weights = heat[y0:y1, x0:x1]
        gy, gx = np.mgrid[y0:y1, x0:x1]
        cy = float((weights * gy).sum() / weights.sum())
        cx = float((weights * gx).sum() / weights.sum())
        found.append(
            Candidate(
                centre=((cx + 0.5) * STRIDE / scale, (cy + 0.5) * STRIDE / scale),
                size=float(np.exp(out[-1, y, x])) / scale,
                p_die=float(heat[y, x]),
            )
        )
    return found
