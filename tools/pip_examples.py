"""Training examples for the pip finder (vision/pip_net.py): die crops and where their pips lie.

Dev time only. The photo sets label a die's box and value, not its pips; the pips are found
here with the geometric reading's own searches (vision/reframe.py: every framing and colour
axis), guided by the label: the first reading whose layout is the labelled value and passes
the layout checks (count, centred, spacing, fit error, square with the face) gives the pips,
at the nine-place layout's positions, of the spots' median size. Dice none of them reads are
marked "unknown" and do not count in the loss, so their pips never teach "no pip here".

Only the development part of each set (images sorted by path, `i % 4 != 3`, as
benchmarks/eval_photos.py splits them) is read; the held-out part never is.

    .venv/bin/python tools/pip_examples.py /tmp/pip_examples.pkl

`--template` also places the pips of dice no search reads, by the labelled layout fitted whole
(template_pips); the shipped model was trained without them (docs/vision-models.md, Known
weaknesses).

Beside the dice, crops centred anywhere in the image at 0.2-2 times its dice's size, and at
every mark of the die finder that lies in no labelled box, teach what is not a pip: the
table, clutter, half dice, and one pip of a die seen close (the trainer draws only pips of a
pip's size for the crop's box, so that is no pip).

The pickle holds, per crop: a BGR crop of CROP_SPAN box sides at CROP_PX px per box side, the
pips in crop pixels (x, y, radius), and the boxes of dice without pips (crop pixels).
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmarks.eval_photos import DEFAULT_DATA, load_labels, photo_sets, split  # noqa: E402
from vision.dice_net import find_dice  # noqa: E402
from vision.face import box_outline  # noqa: E402
from vision.face_patches import blob_patch, face_patch_of  # noqa: E402
from vision.faces import fit_face, grid, layout_of  # noqa: E402
from vision.params import PARAMS, PipParams  # noqa: E402
from vision.pip_fit import fit_pips, places, tilt  # noqa: E402
from vision.pip_net import die_patch  # noqa: E402
from vision.reframe import Splits, searches  # noqa: E402
from vision.top_face import Face, find_face  # noqa: E402
from vision.types import Candidate  # noqa: E402

CROP_PX = 48  # px per box side in the stored crop
CROP_SPAN = 2.4  # box sides the stored crop covers (room to turn and shift it)
RENDERS = 0  # rendered scenes beside the photos (400 give about as many crops as the photos;
# the shipped model has none: with them it read 7-8 fewer development dice, docs/vision.md)
NEGATIVES = 6  # crops an image centred anywhere, 0.2-2 times its dice's median size: the
# table, clutter, half dice, a pip of a die seen close (pips too large for the box are no pips)


def _loose_fit(spots, value: int, p: PipParams):
    """A layout of `value` fitted to exactly `value` spots that passes the layout checks,
    leaving out those on spot sizes and plain places (a marbled face's flecks)."""
    if len(spots.centres) != value or spots.cut:
        return None
    fit = fit_face(spots.centres)
    if fit is None or fit.value != value:
        return None
    if math.hypot(*fit.centre) > (p.max_offset_one if value == 1 else p.max_offset):
        return None
    if value > 1 and not (
        p.spacing[0] <= fit.spacing <= p.spacing[1]
        and fit.error <= p.max_fit_error
        and tilt(fit.angle, 0.0) <= p.max_angle
    ):
        return None
    return fit


TEMPLATE_TURNS = np.radians(np.arange(0, 180, 3))  # the layout's turn (a 2, 3 or 6 has no
# quarter-turn symmetry)
TEMPLATE_STEPS = np.linspace(0.14, 0.26, 7)  # pip spacing, box sides (a face is 0.7-0.9 of its
# box, a pip spacing 0.2-0.3 of a face)
TEMPLATE_SHIFTS = np.linspace(-0.12, 0.12, 9)  # the layout's centre from the box's, box sides
TEMPLATE_FACE = 0.75  # the top face, box sides, whose colour the pips differ from (a top face
# spans 0.65-0.8 of the box a die is labelled by)
TEMPLATE_MARGIN = 2.0  # every pip place responds by that many times the strongest plain place
# of the nine
TEMPLATE_PEAK = 0.3  # each pip's spot peaks within this many pip steps of its place (the
# geometric reading's fit error is 0.35 at most)


def template_pips(
    frame, value: int, box, p: PipParams = PARAMS.pips
) -> list[tuple[float, float, float]] | None:
    """[(x, y, radius)] frame px of the labelled die's pips where spot finding reads nothing:
    the layout of the labelled value fitted whole, as a template, to the round spots of a
    pip's size along each Lab axis (+L, -L, +a, -a, +b, -b: face_patches.blob_patch, on the
    top face the labelled box holds). Spots that run together (red pips on a blue die, whose
    colour a JPEG keeps at half resolution) still have their strongest response at their
    places. Taken only where every pip place of the layout stands out as a pip must in the
    reading (`min_contrast`) and by TEMPLATE_MARGIN times more than the plain places of the
    nine: the label says how many pips, this where. Dev time only: it knows the value. Not
    for a 1: one spot has no layout to place it, nor a size of a pip of its die."""
    if value == 1:
        return None
    x0, y0, x1, y1 = box
    size = math.sqrt(max(x1 - x0, 1) * max(y1 - y0, 1))
    face = Face(((x0 + x1) / 2, (y0 + y1) / 2), TEMPLATE_FACE * size, 0.0, 1.0, TEMPLATE_FACE)
    patch = face_patch_of(frame, face, p)
    box_px = p.face_px / TEMPLATE_FACE
    maps = [blob_patch(patch, axis, p).distance for axis in range(6)]
    side = patch.grey.shape[0]
    layout = set(layout_of(value))
    nine = grid(1.0)
    has = np.array([z in layout for z in nine])
    turns = np.exp(1j * TEMPLATE_TURNS)[:, None, None, None]
    steps = TEMPLATE_STEPS[None, :, None, None]
    shifts = (TEMPLATE_SHIFTS[:, None] + 1j * TEMPLATE_SHIFTS[None, :]).ravel()
    places = (shifts[None, None, :, None] + steps * turns * np.array(nine)) * box_px
    places += side / 2 * (1 + 1j)  # the patch's centre is the box's
    px = np.clip(places.real, 0, side - 1).astype(np.float32)
    py = np.clip(places.imag, 0, side - 1).astype(np.float32)
    best = None
    for m in maps:
        rows = places.shape[0] * places.shape[1]  # remap takes under 32,767 rows
        at = cv2.remap(m, px.reshape(rows, -1), py.reshape(rows, -1), cv2.INTER_LINEAR)
        at = at.reshape(places.shape)
        weakest = at[..., has].min(axis=-1)
        plain = at[..., ~has].max(axis=-1)  # a 2-6 leaves 3-7 of the nine places plain
        score = weakest - TEMPLATE_MARGIN * plain
        k = np.unravel_index(int(np.argmax(score)), score.shape)
        sure = weakest[k] >= p.min_contrast and score[k] > 0
        if sure and (best is None or score[k] > best[0]):
            best = (float(score[k]), places[k][has], TEMPLATE_STEPS[k[1]] * box_px, m)
    if best is None:
        return None
    _, fitted, step, m = best
    # each pip where its spot peaks: a layout of another shape (a face seen askew) is no fit
    peaks = [_peak(m, z, TEMPLATE_PEAK * step) for z in fitted]
    if any(abs(q - z) >= TEMPLATE_PEAK * step for q, z in zip(peaks, fitted, strict=True)):
        return None
    assert patch.matrix is not None
    inverse = cv2.invertAffineTransform(patch.matrix)
    radius = 0.3 * step / box_px * size  # a pip's diameter is 0.6 of a step (geometry)
    return [(*(inverse @ np.array([q.real, q.imag, 1.0])), radius) for q in peaks]


def _peak(m: np.ndarray, z: complex, reach: float) -> complex:
    """Where `m` is largest within `reach` px of `z` (px, x + iy); `z` if nowhere nearer."""
    ys, xs = np.mgrid[0 : m.shape[0], 0 : m.shape[1]]
    near = np.hypot(xs - z.real, ys - z.imag) < reach
    if not near.any():
        return z
    i = int(np.argmax(np.where(near, m, -np.inf)))
    return complex(xs.flat[i], ys.flat[i])


def label_pips(frame, value: int, box, template: bool = False, p: PipParams = PARAMS.pips):
    """[(x, y, radius)] frame px of the labelled die's pips, or None where the geometric
    reading's searches (spot_pips) read nothing and, with `template`, the labelled layout
    fitted whole (template_pips) places none."""
    found = spot_pips(frame, value, box, p)
    return template_pips(frame, value, box, p) if found is None and template else found


def spot_pips(frame, value: int, box, p: PipParams = PARAMS.pips):
    """[(x, y, radius)] frame px of the labelled die's pips, or None when no search reads it."""
    x0, y0, x1, y1 = box
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    size = math.sqrt(max(x1 - x0, 1) * max(y1 - y0, 1))
    candidate = Candidate(centre, size, 1.0)
    outline = box_outline(centre, p.outline * size)
    face = find_face(frame, outline, centre, size, 0.0, p)
    if face is None:
        return None
    colour_only = replace(p, learned=False)  # the pips the map is to learn: not its own
    tries = [(face, ("colour", -1)), *searches(frame, candidate, face, colour_only)]
    split = Splits(frame, candidate, p)
    found = None
    for strict in (True, False):
        for f, search in tries:
            spots = split.spots(f, search)
            fit = fit_pips(spots, p)[0] if strict else _loose_fit(spots, value, p)
            if fit is not None and fit.value == value:
                found = f, spots, fit
                break
        if found:
            break
    if found is None:
        return None
    f, spots, fit = found
    _, nine = places(fit, spots, p)
    radius = float(np.median(spots.diameters)) / 2 * f.side
    return [
        (f.centre[0] + (z * f.axes).real, f.centre[1] + (z * f.axes).imag, radius)
        for z, has_pip in nine
        if has_pip
    ]


def examples(data: Path, names: list[str] | None, seed: int = 1, template: bool = False):
    """Yield one example a labelled development die, and NEGATIVES more an image centred
    anywhere at any size (see the module docstring)."""
    rng = np.random.default_rng(seed)
    for set_dir in photo_sets(data, names):
        dev, _ = split(load_labels(set_dir))
        for path, labels in sorted(dev.items()):
            frame = cv2.imread(str(path))
            if frame is None:
                continue
            pips = [label_pips(frame, v, box, template) for v, *box in labels]
            sizes = [math.sqrt(max(x1 - x0, 1) * max(y1 - y0, 1)) for _, x0, y0, x1, y1 in labels]
            views = [
                (((x0 + x1) / 2, (y0 + y1) / 2), size, own is not None)
                for (_, x0, y0, x1, y1), size, own in zip(labels, sizes, pips, strict=True)
            ]
            views += _anywhere(rng, frame.shape, float(np.median(sizes)))
            for mark in find_dice(frame):  # what the finder takes for dice that no label is
                x, y = mark.centre
                if not any(x0 <= x <= x1 and y0 <= y <= y1 for _, x0, y0, x1, y1 in labels):
                    views.append((mark.centre, mark.size, None))
            known = [pip for theirs in pips if theirs is not None for pip in theirs]
            found = zip(labels, pips, strict=True)
            unknown = [box for (_, *box), theirs in found if theirs is None]
            yield from _crops(frame, views, known, unknown, set_dir.name, path.name)


def rendered(count: int, seed: int):
    """Yield one example a die of `count` rendered scenes (tools/render_dice.py: real-table
    surfaces, marbled and translucent bodies, side faces in perspective, glare, blur, JPEG),
    whose top-face pips are known exactly, and NEGATIVES more a scene centred anywhere. A
    cocked die's box is "unknown": which of its faces is the top is no pip finder's call."""
    from render_dice import scenes

    rng = np.random.default_rng(seed)
    for k, (image, dice) in enumerate(scenes(count, seed)):
        typical = float(np.median([d.size for d in dice])) if dice else 40.0
        views = [(d.centre, d.size, bool(d.flat)) for d in dice]
        views += _anywhere(rng, image.shape, typical)
        known = [pip for d in dice if d.flat for pip in d.pips]
        unknown = [
            (d.centre[0] - d.size / 2, d.centre[1] - d.size / 2,
             d.centre[0] + d.size / 2, d.centre[1] + d.size / 2)
            for d in dice if not d.flat
        ]  # fmt: skip
        yield from _crops(image, views, known, unknown, "rendered", f"scene-{k}")


def _anywhere(rng: np.random.Generator, shape: tuple[int, ...], typical: float) -> list:
    """NEGATIVES views (centre, size, None) anywhere in an image of `shape`, of any size a
    finder's mark may have about dice `typical` px wide."""
    h, w = shape[:2]
    views = []
    for _ in range(NEGATIVES):
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        views.append((centre, typical * float(np.exp(rng.uniform(-1.6, 0.7))), None))
    return views


def _crops(frame, views, pips, unknown, set_name: str, image: str):
    """One example a view (centre, size, read): the crop, every pip (frame x, y, radius) and
    every box without known pips (frame x0, y0, x1, y1) in its pixels."""
    for centre, size, own in views:
        crop, matrix = die_patch(frame, centre, size, CROP_PX, CROP_SPAN)
        scale = matrix[0, 0]
        yield {
            "set": set_name,
            "image": image,
            "crop": crop,
            "pips": [(*_to(matrix, x, y), r * scale) for x, y, r in pips],
            "unknown": [(*_to(matrix, x0, y0), *_to(matrix, x1, y1)) for x0, y0, x1, y1 in unknown],
            "read": own,  # pips found (True), not (False), not a die (None)
        }


def _to(matrix: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Frame pixels -> crop pixels through a 2x3 affine matrix."""
    q = matrix @ np.array([x, y, 1.0])
    return float(q[0]), float(q[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", nargs="*")
    parser.add_argument("--renders", type=int, default=RENDERS, help="rendered scenes to add")
    parser.add_argument("--seed", type=int, default=3, help="the rendered scenes' seed")
    parser.add_argument(
        "--template", action="store_true", help="place pips the searches miss by template_pips"
    )
    args = parser.parse_args()
    found = list(examples(args.data, args.sets, template=args.template))
    found += rendered(args.renders, args.seed)
    with open(args.out, "wb") as handle:
        pickle.dump(found, handle)
    by_set: dict[str, list[int]] = {}
    for e in found:
        by_set.setdefault(e["set"], [0, 0])
        by_set[e["set"]][0] += 1
        by_set[e["set"]][1] += bool(e["read"])
    for name, (n, read) in sorted(by_set.items()):
        print(f"{name}: {n} crops, pips found for {read} dice")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
