"""A second look, by two small learned models, when the pips alone could not read the roll.

The pip reader (reader.py) reads a die only when its pips fit a face layout; on small, crowded,
marbled or translucent dice it refuses rather than guess. The die finder (dice_net.py) points at
dice, the face classifier (face_classifier.py) reads the face at each. Their word is taken only
where the pip reader had nothing to object to but size or blur: a face the classifier is sure of
on a body the pips called blurred or unreadable, or where no body was seen at all. Where the pips
and the classifier read a die differently, neither is trusted. Leaning, cut, overlapping or
glared dice stay refused whatever the models say (dice in a crowd are reported, not announced),
except in single photos, where the camera's perspective is unknown: there a lone die surely
read is read inside a body refused as overlapping, or as leaning when its top face is seen
square (a flat die near the picture's edge shows its sides as a leaning one does) or when it
lies alone, nothing to lean on (reader.UNPROPPED_FACE); and a die touching the picture's edge
is read when all nine pip places of its top face are in view and the pips read there the face
the classifier is sure of (read_at_edge). A mark much smaller than the dice around is judged
at their size too (reframe): a face seen so shows a die the roll must not leave out.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.bodies import FACE_OF_BODY, WALL_REACH, Body, near_wall
from vision.dice_net import Candidate
from vision.face_classifier import FaceClassifier, crop_die
from vision.reading import Die, RerollReason

SURE_DIE = 0.3  # heat at which a candidate may be a die (the classifier then says whether it is)
SURE_VALUE = 0.8  # mean face probability (all views of both networks agreeing) to take a reading
SEEN_DIE = 0.5  # a die this sure, with a face the classifier cannot read, makes the roll unreadable
AGREED = 0.5  # mean probability of a face whose value the pip count confirms
DOUBT = 0.5  # a pip reading contradicted by a face this likely is not trusted
NEAR = 0.625  # a candidate belongs to a die the pips read within this many of its sizes
EDGE = 0.6  # a candidate this near the frame's border (die sizes) may be cut
FLAT_SIZE = (0.85, 1.45)  # a flat die's outline over its top face's side (sides in perspective)
CROWD_FILL = 1.2  # a crowd's body no larger than this times its dice's boxes hides no other die
SETTLED_BY_FINDER = (RerollReason.BLUR, RerollReason.UNREADABLE)
BOTH_CROPS = SURE_VALUE  # mean probability of a face two unsure framings agree on, to read it
# Flat dice's top faces lie a face side apart or more, and the finder's box is at most 1.25 face
# sides (FACE_OF_BODY): two dice it reads closer than this many boxes are not both flat.
LOOSE_APART = FACE_OF_BODY
AT_EDGE = "die finder, at the edge"  # a die read at the picture's edge (see _seen_whole)
SMALL_MARK = 0.8  # a mark this much smaller than the dice surely seen is part of a die or less
CLEAR = 0.8  # ...and is asked about at their size when this many of their sizes from every die


def _inside(body: Body, point: tuple[float, float], margin: float) -> bool:
    return cv2.pointPolygonTest(body.contour, point, True) >= -margin


def _box(candidate: Candidate) -> Body:
    """A square body where the finder points and no body was seen."""
    (x, y), side = candidate.centre, candidate.size
    half = side / 2
    contour = np.array(
        [
            [[x - half, y - half]],
            [[x + half, y - half]],
            [[x + half, y + half]],
            [[x - half, y + half]],
        ],
        dtype=np.int32,
    )
    return Body((x, y), side, ((x, y), (side, side), 0.0), contour, False, 1)


def _die(candidate: Candidate) -> Die:
    x, y = candidate.centre
    return Die(
        value=candidate.value,
        center=(round(x, 1), round(y, 1)),
        size=round(candidate.size, 1),
        confidence=round(candidate.p_mean * candidate.p_die, 3),
    )


def _sure(candidate: Candidate, die_size: float | None = None) -> bool:
    if die_size is not None:
        low, high = FLAT_SIZE
        if not low * die_size <= candidate.size <= high * die_size:
            return False
    return candidate.value != 0 and candidate.p_value >= SURE_VALUE


def _likely(candidate: Candidate, die_size: float | None) -> bool:
    """A face is its likeliest answer (sure or not), on an outline of a flat die's size."""
    return _sure(replace(candidate, p_value=1.0), die_size)


def _counted(
    candidate: Candidate, reading, die_size: float | None, framed: Candidate | None = None
) -> bool:
    """Two readers agree on a die neither is sure of alone: the classifier's likeliest face
    (every view and network together, at least AGREED likely) is the face the pip reader reads
    in a square of a die's top face at the finder's point (a pale die on a pale tray whose body
    was found in part), or the number of pip-like spots it counted on the face it refused (as
    blurred or unreadable). A count is the weaker word (a highlight on a translucent die passes
    for a pip, and the classifier may see it so too): the classifier must then read the same
    face in the body's own crop (framed), the two crops' mean probability at least AGREED."""
    if not _likely(candidate, die_size) or candidate.p_mean < AGREED:
        return False
    if candidate.value == candidate.pips:
        return True
    return candidate.value == reading.spots and _both_crops(candidate, framed, AGREED)


def _reframed(candidate: Candidate, framed: Candidate | None, die_size: float | None) -> bool:
    """Two framings of one die agree: the body's own crop is surely read as the face the
    finder's crop most likely shows (though not surely)."""
    if framed is None or not _sure(framed) or not _likely(candidate, die_size):
        return False
    return framed.value == candidate.value


def _crops_agree(candidate: Candidate, framed: Candidate | None, die_size: float | None) -> bool:
    """Two framings of one die agree, neither sure: the finder's crop and the body's own crop
    read the same likeliest face, their mean probability at least BOTH_CROPS."""
    return _likely(candidate, die_size) and _both_crops(candidate, framed, BOTH_CROPS)


def _both_crops(candidate: Candidate, framed: Candidate | None, level: float) -> bool:
    """The body's own crop (framed) reads the candidate's likeliest face, the two crops' mean
    probability at least `level`."""
    if framed is None or framed.value != candidate.value:
        return False
    return (candidate.p_mean + framed.p_mean) / 2 >= level


def _sides_seen(candidate: Candidate, reading) -> bool:
    """The pip reader counted more pip-like spots on the face it refused than the face the
    models read: on a calibrated tray (ordinary pip dice) the others are on a side it turns up,
    leaning (a black die leaning on the simulated tray's wall, 0.8 of a face from it, showed its
    side's six: its top was read as a 2 when the body's crop was surely read so). Single photos
    do without: marbled dice's swirls pass for pips."""
    return reading.spots > candidate.value


def _at_wall(candidate: Candidate, tray: np.ndarray | None, die_size: float | None) -> bool:
    """By the tray's wall: its box reaches the floor's outline, or its centre lies as near it as
    a leaning die's (WALL_REACH top faces). It may lean on the wall."""
    reach = max(candidate.size / 2, WALL_REACH * (die_size or 0.0))
    return near_wall(tray, candidate.centre, reach)


def _holds_only(body: Body, found: list[Candidate], candidates: list[Candidate]) -> bool:
    """Does this body hold nothing but the finder's dice `found` in it, as far as can be told?
    Not when the picture's edge cuts it (it may join what lies out of view: a die held in a
    hand, more dice), nor with a faint trace of another die in it (see _faint_among)."""
    return not body.at_edge and not _faint_among(body, found, candidates)


def _faint_among(body: Body, found: list[Candidate], candidates: list[Candidate]) -> bool:
    """Is there, in this body, a faint trace of a die (a finder's peak under SURE_DIE the
    classifier does not surely call no face) away from the candidates it holds?"""
    return any(
        c.p_die < SURE_DIE
        and not _no_face(c)
        and _inside(body, c.centre, 0.0)
        and all(np.hypot(*np.subtract(c.centre, f.centre)) > NEAR * f.size for f in found)
        for c in candidates
    )


def _no_face(candidate: Candidate) -> bool:
    """The classifier, in all its views, surely sees no die face at this candidate."""
    return candidate.value == 0 and candidate.p_value >= SURE_VALUE


def _stacked(candidate: Candidate, loose: list[Candidate], die_size: float | None) -> bool:
    """Does another die the finder reads where no body was kept lie closer to this one than two
    flat dice can (LOOSE_APART)? Then they are one die leaning, its top and its side each read
    as a die, or dice piled."""
    return any(
        other is not candidate
        and _sure(other, die_size)
        and np.hypot(*np.subtract(other.centre, candidate.centre))
        < LOOSE_APART * 0.5 * (other.size + candidate.size)
        for other in loose
    )


def _whole(candidate: Candidate, width: int, height: int) -> bool:
    """Far enough from the frame's border not to be cut by it."""
    x, y = candidate.centre
    margin = EDGE * candidate.size
    return margin <= x <= width - margin and margin <= y <= height - margin


def _on_tray(point: tuple[float, float], tray: np.ndarray | None) -> bool:
    return tray is None or cv2.pointPolygonTest(tray.reshape(-1, 1, 2), point, False) >= 0


def read_faces(frame: np.ndarray, candidates: list[Candidate]) -> list[Candidate]:
    """The candidates with the face the classifier reads at each: value 0 when it sees no die
    face; p_value 0 when its eight views of the die (turned, mirrored) do not all agree."""
    if not candidates:
        return []
    crops = np.array([crop_die(frame, c.centre, c.size) for c in candidates], np.uint8)
    probs, unanimous = FaceClassifier.load().views(crops)
    values = probs.argmax(axis=1)
    return [
        replace(c, value=int(v), p_value=float(p[v]) if agree else 0.0, p_mean=float(p[v]))
        for c, v, p, agree in zip(candidates, values, probs, unanimous, strict=True)
    ]


def reframe(
    frame: np.ndarray, candidates: list[Candidate], dice: list[tuple[float, float]]
) -> list[Candidate]:
    """The candidates, those marked much smaller than the dice surely seen (SMALL_MARK), not
    surely read as a face and lying clear of every die (CLEAR from the centres of the pips'
    `dice` and of those surely seen: a die there would not overlap one), judged again by the
    classifier at those dice's size.

    The finder may mark a die by a part of it: the pip of a white 1 on a pale desk, a corner.
    The classifier learnt whole dice, centred, at their size: shown such a part enlarged it sees
    no face, and a die is left out. Asked at the size a die there would have, it sees the die,
    or surely nothing (the end of a chair leg's strap, marked faintly at two thirds of a die).
    The two readings are combined by _judged().
    """
    seen = [c for c in candidates if _surely_seen(c)]
    if not seen:
        return candidates
    side = float(np.median([c.size for c in seen]))
    taken = [*dice, *(c.centre for c in seen)]

    def small(c: Candidate) -> bool:
        clear = all(np.hypot(*np.subtract(c.centre, d)) >= CLEAR * side for d in taken)
        return c.size < SMALL_MARK * side and not _sure(c) and clear

    marks = [i for i, c in enumerate(candidates) if small(c)]
    again = read_faces(frame, [replace(candidates[i], size=side) for i in marks])
    candidates = list(candidates)
    for i, wide in zip(marks, again, strict=True):
        candidates[i] = _judged(candidates[i], wide)
    return candidates


def _judged(near: Candidate, wide: Candidate) -> Candidate:
    """One candidate read at the finder's size (near) and at the dice's (wide). A face seen at
    the dice's size is a face: it shows a die is there, not surely which face (the crop is not
    the finder's), so it is never read on the classifier's word alone. An unsure face at the
    finder's size stays when the dice's size shows none. No face at both sizes is surely none
    when either reading is sure."""
    if wide.value != 0:
        return replace(wide, p_value=0.0, wide=True)
    if near.value != 0:
        return near
    return replace(
        near, p_value=max(near.p_value, wide.p_value), p_mean=max(near.p_mean, wide.p_mean)
    )


def read_pips(
    frame: np.ndarray, candidates: list[Candidate], face: float | None
) -> list[Candidate]:
    """The candidates, those whose likeliest face is not sure with the face the pip reader
    reads in a square of a die's top face (side `face`, else FACE_OF_BODY of the finder's
    size) centred where the finder points."""
    from vision.reader import read_body

    read = []
    for c in candidates:
        if c.p_die >= SURE_DIE and c.value != 0 and c.p_value < SURE_VALUE and c.p_mean >= AGREED:
            side = face or FACE_OF_BODY * c.size
            reading = read_body(frame, _box(replace(c, size=side)))
            if reading.die is not None:
                c = replace(c, pips=reading.die.value)
        read.append(c)
    return read


def read_at_edge(
    frame: np.ndarray, candidates: list[Candidate], readings: list, face: float | None
) -> list[Candidate]:
    """The candidates, those at the picture's edge that the finder and the classifier are sure
    of with the face the pips read there when all nine pip places lie in the picture: in
    squares where the finder points, of a die's top face (side `face`) and of FACE_OF_BODY of
    the finder's size (the face found in a square is unsteady where the picture cuts it), and
    on the body cut by the edge that holds it, read as if whole. Each read may fail; those
    that succeed must all agree. For single photos: see merge()."""
    from vision.reader import read_body

    height, width = frame.shape[:2]
    cut = [r.body for r in readings if r.problem is RerollReason.CUT]
    read = []
    for c in candidates:
        if _surely_seen(c) and not _whole(c, width, height):
            sides = {side for side in (face, FACE_OF_BODY * c.size) if side}
            squares = [_box(replace(c, size=side)) for side in sorted(sides)]
            holding = [replace(b, at_edge=False) for b in cut if _inside(b, c.centre, 0.1 * c.size)]
            seen = {
                r.die.value
                for r in (read_body(frame, b) for b in [*squares, *holding])
                if r.die is not None and r.in_view
            }
            if len(seen) == 1:
                c = replace(c, pips=seen.pop())
        read.append(c)
    return read


def _surely_seen(candidate: Candidate) -> bool:
    """The finder sure of a die there (SEEN_DIE), the classifier sure of its face."""
    return candidate.p_die >= SEEN_DIE and _sure(candidate)


def _seen_whole(candidate: Candidate) -> bool:
    """A die at the picture's edge whose top face is in view: surely seen, the pips reading the
    same face there with all nine pip places in view (read_at_edge)."""
    return _surely_seen(candidate) and candidate.pips == candidate.value


def body_faces(frame: np.ndarray, readings: list) -> list[Candidate | None]:
    """For each reading: what the classifier reads in an unread body's own crop (centred on the
    body the pip reader found, at its size), None for a die already read. A second framing of
    the die the finder points at, and the clutter test of single photos."""
    unread = [i for i, r in enumerate(readings) if r.die is None]
    bodies = [readings[i].body for i in unread]
    read = read_faces(frame, [Candidate(body.centre, body.size, 1.0) for body in bodies])
    framed: list[Candidate | None] = [None] * len(readings)
    for i, candidate in zip(unread, read, strict=True):
        framed[i] = candidate
    return framed


def not_faces(framed: list[Candidate | None]) -> list[bool]:
    """For each body_faces() reading: an unread body the classifier, in all eight views, surely
    calls no die face (a shoe's edge, a printed rim, a shadow)."""
    return [f is not None and _no_face(f) for f in framed]


def merge(
    readings: list,
    candidates: list[Candidate],
    frame_shape: tuple[int, ...],
    tray: np.ndarray | None = None,
    clutter: list[bool] | None = None,
    die_size: float | None = None,
    framed: list[Candidate | None] | None = None,
) -> list:
    """The pip readings, amended by the finder's candidates (see the module's docstring).

    clutter: given for single photos (no calibration: the pip reader's bodies rest on a guessed
    background), the not_faces() flags of the readings. Then an unread body with no candidate
    centred on it or claimed by it (or only candidates the classifier surely calls no face) that
    the classifier calls no face is dropped (not one the pips refused as leaning that looks like
    a die: the classifier takes a die leaning near 50 degrees for no face), and a body refused
    as `overlap` holding exactly one candidate, surely read and whole in the frame, and no faint
    trace of another die, is read (a crowd of such dice filling their body is dice touching),
    unless the picture's edge cuts the body (see _holds_only); so is one refused as `cocked`
    whose top face is seen square, only its sides showing, or that lies alone with a face no
    more oblong than reader.UNPROPPED_FACE (never one more foreshortened or among other dice: a
    die leaning near 50 degrees shows a side as square as its top, and the classifier may read
    either). A die at the picture's edge, cut body or none, is read when the finder is sure of
    it and the pips confirm the face the classifier is sure of, all nine pip places in view
    (read_at_edge); else it stays `cut`.
    die_size: the calibrated size of a die's top face; a candidate whose outline is not of a flat
    die's size (a die leaning shows a larger one) is never read.
    framed: the body_faces() readings of the readings; a body's lone candidate the classifier is
    not sure of is read when the body's own crop is surely read as the candidate's likeliest face,
    or reads it too, the two crops' mean probability at the sureness level (BOTH_CROPS); a pip
    count confirms that face only with the body's crop reading it too (_counted).
    """
    from vision.reader import COCKED_FACE, UNPROPPED_FACE, DieReading, lies_alone

    height, width = frame_shape[:2]
    readings = list(readings)
    read_bodies = [r.body.size for r in readings if r.die is not None]
    body_size = float(np.median(read_bodies)) if read_bodies else None

    def seen_flat(reading) -> bool:
        """A die refused as leaning whose top is seen square (only sides in perspective), or
        that lies alone (nothing to lean on) and shows a face no more oblong than a top face
        leaning under 44 degrees (see reader.UNPROPPED_FACE)."""
        face = reading.face
        if face is None or face.aspect > UNPROPPED_FACE:
            return False
        return face.aspect <= COCKED_FACE or lies_alone(reading.body, body_size)

    sure = [c for c in candidates if c.p_die >= SURE_DIE and _on_tray(c.centre, tray)]
    claimed: dict[int, list[Candidate]] = {}
    loose = []
    for candidate in sure:
        owner = None
        for i, reading in enumerate(readings):
            die = reading.die
            if die is not None:
                if np.hypot(*np.subtract(die.center, candidate.centre)) <= NEAR * die.size:
                    owner = i
                    break
            elif _inside(reading.body, candidate.centre, 0.1 * candidate.size):
                owner = i
        if owner is None:
            loose.append(candidate)
        else:
            claimed.setdefault(owner, []).append(candidate)
    for i, found in claimed.items():
        reading = readings[i]
        body_crop = framed[i] if framed else None
        if reading.die is not None:
            best = max(found, key=lambda c: c.p_die)
            if best.value not in (0, reading.die.value) and best.p_value >= DOUBT:
                why = f"pips read {reading.die.value}, the face classifier sees {best.value}"
                readings[i] = DieReading(reading.body, None, RerollReason.UNREADABLE, why)
        elif (
            len(found) == 1
            and clutter is not None
            and reading.problem is RerollReason.CUT
            and _seen_whole(found[0])
        ):
            readings[i] = DieReading(reading.body, _die(found[0]), None, AT_EDGE)
        elif len(found) == 1 and (
            reading.problem in SETTLED_BY_FINDER
            or (
                clutter is not None
                and reading.problem is RerollReason.OVERLAP
                and _holds_only(reading.body, found, candidates)
            )
            or (
                clutter is not None
                and reading.problem is RerollReason.COCKED
                and seen_flat(reading)
            )
        ):
            if (
                _whole(found[0], width, height)
                and not reading.body.against_rim  # it may lean on the wall: the pips' rule
                and not _at_wall(found[0], tray, die_size)
                and not (clutter is None and _sides_seen(found[0], reading))
                and (
                    _sure(found[0], die_size)
                    or _counted(found[0], reading, die_size, body_crop)
                    or _reframed(found[0], body_crop, die_size)
                    or _crops_agree(found[0], body_crop, die_size)
                )
            ):
                readings[i] = DieReading(reading.body, _die(found[0]), None, "die finder")
        elif reading.problem is RerollReason.OVERLAP:
            # dice crowded into one body: report the ones the finder reads; in a single photo a
            # crowd of dice all surely read, filling their body, with no faint trace of another
            # die among them (a small die in a heap, marked only faintly), is dice touching
            whole_and_read = [c for c in found if _sure(c, die_size) and _whole(c, width, height)]
            touching = (
                clutter is not None
                and len(whole_and_read) == len(found)
                and _holds_only(reading.body, found, candidates)
                and reading.body.size**2 <= CROWD_FILL * sum(c.size**2 for c in found)
            )
            if touching:
                readings[i] = DieReading(reading.body, None, None, "dice touching", False)
            readings += [
                DieReading(_box(c), _die(c), None, "die finder, in a crowd")
                for c in found
                if _sure(c, die_size)
            ]
    if clutter is not None:
        # no trace of a die there for the finder either (not even a faint peak on it, unless
        # the classifier surely sees no face at the peak as well); a candidate the body claimed
        # is a trace of it too (a die whose body was found in part: its candidate, claimed, must
        # not vanish with the body)
        traces = [c for c in candidates if not _no_face(c)]
        traced = {
            i
            for i, r in enumerate(readings[: len(clutter)])
            if any(_inside(r.body, c.centre, 0.1 * r.body.size) for c in traces)
            or any(not _no_face(c) for c in claimed.get(i, ()))
        }
        readings = [
            r
            for i, r in enumerate(readings)
            if i >= len(clutter)
            or i in traced
            or r.die is not None
            or not clutter[i]
            or (r.problem is RerollReason.COCKED and r.evidence)  # a die leaning, never clutter
        ]
    for candidate in loose:
        seen = f"{candidate.value}?" if candidate.value else "no face?"
        if not _whole(candidate, width, height):
            if clutter is not None and _seen_whole(candidate):
                readings.append(DieReading(_box(candidate), _die(candidate), None, AT_EDGE))
            elif candidate.p_die >= SEEN_DIE and candidate.value != 0:
                # the finder sure of a die, the classifier's likeliest a face: a die cut by the
                # edge of the picture (a shape at the edge that is likelier no face is let be)
                why = f"a die the pips missed at the picture's edge ({seen})"
                readings.append(DieReading(_box(candidate), None, RerollReason.CUT, why))
            continue
        if _at_wall(candidate, tray, die_size):
            why = f"a die the pips missed against the tray wall ({candidate.value}?): it may lean"
            readings.append(DieReading(_box(candidate), None, RerollReason.COCKED, why))
        elif _sure(candidate, die_size) and _stacked(candidate, loose, die_size):
            why = f"two dice the finder reads one on the other ({candidate.value}?: a die leaning?)"
            readings.append(DieReading(_box(candidate), None, RerollReason.OVERLAP, why))
        elif _sure(candidate, die_size):
            readings.append(DieReading(_box(candidate), _die(candidate), None, "die finder"))
        elif (candidate.p_die >= SEEN_DIE and not _no_face(candidate)) or candidate.wide:
            # the finder sure of a die, the classifier not sure there is none (nor which face),
            # or seeing a face only at the dice's size (reframe): a white die on a pale desk,
            # its body unseen, whose pips alone the finder marked
            why = f"a die the pips missed, its face unsure ({seen})"
            readings.append(DieReading(_box(candidate), None, RerollReason.UNREADABLE, why))
    return readings
