"""The second look: when the die finder's word is taken, and when it is not."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import synth
from synth import DrawnDie

from vision.bodies import Body
from vision.dice_net import Candidate
from vision.pips import Face
from vision.reader import DieReading, decide, read_dice
from vision.reading import Die, RerollReason
from vision.second_look import (
    AGREED,
    BOTH_CROPS,
    LOOSE_APART,
    SEEN_DIE,
    SURE_DIE,
    SURE_VALUE,
    _judged,
    merge,
    read_at_edge,
    read_faces,
    read_pips,
    reframe,
)

FRAME = (480, 640, 3)


def body(x: float, y: float, side: float = 40.0) -> Body:
    h = side / 2
    contour = np.array(
        [[[x - h, y - h]], [[x + h, y - h]], [[x + h, y + h]], [[x - h, y + h]]], dtype=np.int32
    )
    return Body((x, y), side, ((x, y), (side, side), 0.0), contour, False, 1)


def refused(
    x: float,
    y: float,
    reason: RerollReason,
    side: float = 40.0,
    spots: int = 0,
    face: Face | None = None,
) -> DieReading:
    return DieReading(body(x, y, side), None, reason, "pips not read", face=face, spots=spots)


def read(x: float, y: float, value: int) -> DieReading:
    return DieReading(body(x, y), Die(value, (x, y), 34.0, 0.8), None, "")


def candidate(
    x: float, y: float, value: int, p_value: float = 0.995, p_die: float = 0.9, p_mean=None
):
    return Candidate((x, y), 40.0, p_die, value, p_value, p_value if p_mean is None else p_mean)


def test_a_sure_finder_reads_a_die_the_pips_called_blurred():
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.BLUR), read(500, 300, 6)]
    roll = decide(merge(readings, [candidate(302, 199, 5)], FRAME), expect=3)
    assert roll.ok and sorted(roll.values) == [2, 5, 6]


def test_an_unsure_finder_leaves_the_refusal():
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.UNREADABLE), read(500, 300, 6)]
    roll = decide(merge(readings, [candidate(300, 200, 5, p_value=SURE_VALUE - 0.1)], FRAME), 3)
    assert roll.reason is RerollReason.UNREADABLE


def test_an_unsure_face_is_read_when_the_refused_pips_count_it():
    """The views disagree (p_value 0), but the likeliest face is the pip reader's count, and the
    body's own crop reads that face too (the two crops' mean probability at least AGREED)."""
    unsure = candidate(300, 200, 4, p_value=0.0, p_mean=AGREED + 0.05)
    body_crop = [None, replace(unsure, p_mean=AGREED), None]
    for reason in (RerollReason.BLUR, RerollReason.UNREADABLE):
        readings = [read(100, 100, 2), refused(300, 200, reason, spots=4), read(500, 300, 6)]
        roll = decide(merge(readings, [unsure], FRAME, framed=body_crop), expect=3)
        assert roll.ok and sorted(roll.values) == [2, 4, 6]
        # its confidence is the classifier's mean probability times the finder's (not 0)
        four = next(d for d in roll.dice if d.value == 4)
        assert four.confidence == round(unsure.p_mean * unsure.p_die, 3)


def test_a_pip_count_and_one_unsure_crop_are_not_enough():
    """A highlight on a translucent die passes for a pip, and the classifier may see it so too
    (byler 112419 in soft focus: a 1 counted and likeliest read as a 2): a count confirms the
    classifier's likeliest face only when the body's own crop reads it as well."""
    unsure = candidate(300, 200, 2, p_value=0.0, p_mean=0.6)
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.BLUR, spots=2), read(500, 300, 6)]
    for body_crop in (
        None,  # not asked
        replace(unsure, value=1, p_mean=0.47),  # another face
        replace(unsure, p_mean=0.35),  # the same face, the two crops' mean under AGREED
    ):
        merged = merge(readings, [unsure], FRAME, framed=[None, body_crop, None])
        assert decide(merged, 3).reason is RerollReason.BLUR
    merged = merge(readings, [unsure], FRAME, framed=[None, replace(unsure, p_mean=0.45), None])
    assert decide(merged, 3).ok


def test_an_unsure_face_the_pip_count_does_not_confirm_stays_refused():
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.BLUR, spots=3), read(500, 300, 6)]
    counted_else = candidate(300, 200, 4, p_value=0.0, p_mean=0.9)
    assert decide(merge(readings, [counted_else], FRAME), 3).reason is RerollReason.BLUR
    readings[1] = refused(300, 200, RerollReason.BLUR, spots=4)
    too_unsure = candidate(300, 200, 4, p_value=0.0, p_mean=AGREED - 0.05)
    assert decide(merge(readings, [too_unsure], FRAME), 3).reason is RerollReason.BLUR
    for reason in (RerollReason.COCKED, RerollReason.CUT, RerollReason.GLARE):
        readings[1] = refused(300, 200, reason, spots=4)
        agreeing = candidate(300, 200, 4, p_value=0.0, p_mean=0.9)
        assert decide(merge(readings, [agreeing], FRAME), 3).reason is reason


def test_an_unsure_face_is_read_when_the_pips_read_it_where_the_finder_points():
    """A pale die on a pale tray, its body found in part: the pips read the face in a die-sized
    square at the finder's point, and the classifier's likeliest face is that one."""
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.BLUR), read(500, 300, 6)]
    confirmed = candidate(300, 200, 5, p_value=0.0, p_mean=AGREED + 0.05)
    roll = decide(merge(readings, [replace(confirmed, pips=5)], FRAME), expect=3)
    assert roll.ok and sorted(roll.values) == [2, 5, 6]
    roll = decide(merge(readings, [replace(confirmed, pips=4)], FRAME), expect=3)
    assert roll.reason is RerollReason.BLUR
    too_unsure = replace(confirmed, p_mean=AGREED - 0.05, pips=5)
    assert decide(merge(readings, [too_unsure], FRAME), 3).reason is RerollReason.BLUR


def test_read_pips_reads_the_face_at_an_unsure_candidate_only():
    frame = synth.scene([DrawnDie(4, (320, 240), angle=20)], synth.WHITE_ON_DARK)
    unsure = candidate(321, 239, 4, p_value=0.0, p_mean=0.6)
    sure = candidate(321, 239, 4)
    nothing = candidate(100, 100, 3, p_value=0.0, p_mean=0.6)
    pipped = read_pips(frame, [unsure, sure, nothing], 48.0)
    assert [c.pips for c in pipped] == [4, 0, 0]
    outline = replace(unsure, size=60.0)  # the finder's size: the die's outline
    assert read_pips(frame, [outline], None)[0].pips == 4  # no face size known


def test_pips_and_finder_disagreeing_is_never_announced():
    readings = [read(100, 100, 2), read(300, 200, 4), read(500, 300, 6)]
    roll = decide(merge(readings, [candidate(300, 200, 5, p_value=0.7)], FRAME), 3)
    assert not roll.ok and roll.reason is RerollReason.UNREADABLE
    assert sorted(roll.values) == [2, 6]


def test_pips_and_finder_agreeing_keep_the_pip_reading():
    readings = [read(100, 100, 2), read(300, 200, 4), read(500, 300, 6)]
    merged = merge(readings, [candidate(301, 201, 4)], FRAME)
    assert merged == readings


def test_a_leaning_cut_or_glared_die_stays_refused_whatever_the_finder_says():
    for reason in (RerollReason.COCKED, RerollReason.CUT, RerollReason.GLARE):
        readings = [read(100, 100, 2), refused(300, 200, reason), read(500, 300, 6)]
        roll = decide(merge(readings, [candidate(300, 200, 3)], FRAME), 3)
        assert roll.reason is reason


def test_a_die_no_body_showed_is_read_when_sure_and_refused_when_not():
    readings = [read(100, 100, 2), read(500, 300, 6)]
    sure = decide(merge(readings, [candidate(300, 200, 1)], FRAME), 3)
    assert sure.ok and sorted(sure.values) == [1, 2, 6]
    unsure = decide(merge(readings, [candidate(300, 200, 1, p_value=0.6)], FRAME), 3)
    assert unsure.reason is RerollReason.UNREADABLE
    # the finder sure of a die whose face the classifier takes, unsure, for none (a white die
    # on a pale desk, only its pips marked): a die missed, not nothing
    no_face_unsure = candidate(300, 200, 0, p_value=0.0, p_mean=0.57, p_die=0.81)
    roll = decide(merge(readings, [no_face_unsure], FRAME), None)
    assert roll.reason is RerollReason.UNREADABLE
    no_face = candidate(300, 200, 0, p_value=0.95, p_die=0.81)  # surely no die face there
    assert decide(merge(readings, [no_face], FRAME), None).ok


def test_faint_candidates_at_the_border_or_off_the_tray_are_ignored():
    readings = [read(100, 100, 2), read(500, 300, 6), read(300, 200, 3)]
    faint = candidate(300, 400, 1, p_die=SURE_DIE - 0.05)
    border = candidate(10, 240, 1, p_die=SEEN_DIE - 0.05)
    off_tray = candidate(600, 440, 1)
    tray = np.array([[50, 50], [580, 50], [580, 420], [50, 420]], dtype=np.int32)
    roll = decide(merge(readings, [faint, border, off_tray], FRAME, tray), 3)
    assert roll.ok and sorted(roll.values) == [2, 3, 6]


def test_a_die_the_finder_sees_at_the_picture_edge_is_cut_not_left_out():
    """The finder sure of a die whose box the picture's edge cuts, the classifier's likeliest a
    face (a die touching the frame, its body unseen in a soft photo): the roll is `cut`; a
    shape there the classifier takes rather for no face is let be (a stapler's end)."""
    readings = [read(100, 100, 2), read(500, 300, 6)]
    unsure_four = candidate(15, 240, 4, p_value=0.0, p_mean=0.6, p_die=SEEN_DIE + 0.1)
    roll = decide(merge(readings, [unsure_four], FRAME), None)
    assert roll.reason is RerollReason.CUT and sorted(roll.values) == [2, 6]
    no_face = replace(unsure_four, value=0)
    assert decide(merge(readings, [no_face], FRAME), None).ok
    faint = replace(unsure_four, p_die=SEEN_DIE - 0.05)
    assert decide(merge(readings, [faint], FRAME), None).ok


def test_dice_crowded_into_one_body_are_reported_but_not_announced():
    crowd = refused(300, 200, RerollReason.OVERLAP, side=90.0)
    merged = merge([crowd], [candidate(280, 200, 3), candidate(320, 200, 4)], FRAME)
    roll = decide(merged, expect=None)
    assert roll.reason is RerollReason.OVERLAP
    assert sorted(roll.values) == [3, 4]


def test_in_a_single_photo_a_crowd_all_surely_read_is_dice_touching():
    crowd = refused(300, 200, RerollReason.OVERLAP, side=60.0)
    pair = [candidate(280, 200, 3), candidate(320, 200, 4)]
    roll = decide(merge([crowd], pair, FRAME, clutter=[False]), expect=None)
    assert roll.ok and sorted(roll.values) == [3, 4]
    # one of them not sure: a die may hide under the other
    unsure = [candidate(280, 200, 3), candidate(320, 200, 4, p_value=0.6)]
    assert (
        decide(merge([crowd], unsure, FRAME, clutter=[False]), None).reason is RerollReason.OVERLAP
    )
    # a body much larger than the dice read: something else lies in it
    heap = refused(300, 200, RerollReason.OVERLAP, side=120.0)
    assert decide(merge([heap], pair, FRAME, clutter=[False]), None).reason is RerollReason.OVERLAP
    # a faint trace of a third die between them (a small die in a heap): not just two touching
    faint = candidate(300, 222, 1, p_value=0.0, p_mean=0.8, p_die=SURE_DIE - 0.08)
    roll = decide(merge([crowd], [*pair, faint], FRAME, clutter=[False]), None)
    assert roll.reason is RerollReason.OVERLAP and sorted(roll.values) == [3, 4]


def test_in_a_single_photo_a_lone_sure_die_is_read_despite_perspective_refusals():
    """Without calibration a flat die near the picture's edge shows its sides like a leaning
    one; a lone die the classifier surely reads is read there (if its top face is seen square),
    on a calibrated tray never."""
    square = Face((300.0, 200.0), 34.0, 0.0, 1.05, 0.85)
    for reason in (RerollReason.COCKED, RerollReason.OVERLAP):
        readings = [read(100, 100, 2), refused(300, 200, reason, face=square), read(500, 300, 6)]
        clutter = [False, False, False]
        roll = decide(merge(readings, [candidate(300, 200, 3)], FRAME, clutter=clutter), 3)
        assert roll.ok and sorted(roll.values) == [2, 3, 6]
        unsure = candidate(300, 200, 3, p_value=0.0, p_mean=0.9)
        assert decide(merge(readings, [unsure], FRAME, clutter=clutter), 3).reason is reason
        assert decide(merge(readings, [candidate(300, 200, 3)], FRAME), 3).reason is reason
    foreshortened = Face((300.0, 200.0), 34.0, 0.0, 1.45, 0.9)  # leaning near 50 degrees
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.COCKED, face=foreshortened)]
    readings.append(read(500, 300, 6))
    roll = decide(merge(readings, [candidate(300, 200, 3)], FRAME, clutter=[False] * 3), 3)
    assert roll.reason is RerollReason.COCKED
    for reason in (RerollReason.CUT, RerollReason.GLARE):
        readings = [read(100, 100, 2), refused(300, 200, reason, face=square), read(500, 300, 6)]
        roll = decide(merge(readings, [candidate(300, 200, 3)], FRAME, clutter=[False] * 3), 3)
        assert roll.reason is reason


def test_in_a_single_photo_a_lone_sure_die_is_read_though_its_face_is_oblong():
    """A die lying alone has nothing to lean on: refused as leaning, with a face up to
    UNPROPPED_FACE oblong, the classifier's sure reading is taken; not for a die in a cluster
    (it may lean on another), nor one far more oblong, nor on a calibrated tray."""
    oblong = Face((300.0, 200.0), 34.0, 0.0, 1.38, 0.85)
    clutter = [False] * 3

    def roll_of(refusal: DieReading, **kw):
        readings = [read(100, 100, 2), refusal, read(500, 300, 6)]
        return decide(merge(readings, [candidate(300, 200, 3)], FRAME, **kw), 3)

    alone = refused(300, 200, RerollReason.COCKED, face=oblong)
    roll = roll_of(alone, clutter=clutter)
    assert roll.ok and sorted(roll.values) == [2, 3, 6]
    assert roll_of(alone).reason is RerollReason.COCKED  # calibrated: the pips' rule only
    in_cluster = replace(alone, body=replace(alone.body, pieces=2))
    assert roll_of(in_cluster, clutter=clutter).reason is RerollReason.COCKED
    larger = refused(300, 200, RerollReason.COCKED, side=60.0, face=oblong)
    assert roll_of(larger, clutter=clutter).reason is RerollReason.COCKED
    too_oblong = refused(300, 200, RerollReason.COCKED, face=replace(oblong, aspect=1.45))
    assert roll_of(too_oblong, clutter=clutter).reason is RerollReason.COCKED


def test_on_a_calibrated_tray_pips_beyond_the_face_read_keep_a_die_refused():
    """The pips saw six spots where the models read a 2: the others lie on a side the die turns
    up (it leans); in a single photo a marbled die's swirl passes for pips, so there they may."""
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.BLUR, spots=6), read(500, 300, 6)]
    assert decide(merge(readings, [candidate(300, 200, 2)], FRAME), 3).reason is RerollReason.BLUR
    roll = decide(merge(readings, [candidate(300, 200, 2)], FRAME, clutter=[False] * 3), 3)
    assert roll.ok and sorted(roll.values) == [2, 2, 6]
    readings[1] = refused(300, 200, RerollReason.BLUR, spots=2)
    assert decide(merge(readings, [candidate(300, 200, 2)], FRAME), 3).ok


def test_a_die_at_the_tray_wall_is_never_read_by_the_finder():
    """It may lean on the wall (the pips' rule too): the simulated tray's `cocked` hazard had a
    leaning die the pips called blurred read as a 1 by the classifier."""
    tray = np.array([[50, 50], [600, 50], [600, 430], [50, 430]], np.int32)
    at_wall = DieReading(replace(body(300, 200), against_rim=True), None, RerollReason.BLUR, "")
    readings = [read(100, 100, 2), at_wall, read(500, 300, 6)]
    roll = decide(merge(readings, [candidate(300, 200, 3)], FRAME, tray), expect=3)
    assert roll.reason is RerollReason.BLUR
    two = [read(100, 100, 2), read(500, 300, 6)]
    roll = decide(merge(two, [candidate(300, 65, 3)], FRAME, tray), expect=3)
    assert roll.reason is RerollReason.COCKED
    roll = decide(merge(two, [candidate(300, 200, 3)], FRAME, tray), expect=3)
    assert roll.ok and sorted(roll.values) == [2, 3, 6]
    # a leaning dark die's box stops short of the wall: within 0.75 top faces of it, its centre
    # lies where a leaning die's does (once the dice's size is known)
    roll = decide(merge(two, [candidate(300, 75, 3)], FRAME, tray, die_size=40.0), expect=3)
    assert roll.reason is RerollReason.COCKED
    assert decide(merge(two, [candidate(300, 75, 3)], FRAME, tray), expect=3).ok


def test_an_unsure_face_is_read_when_the_body_crop_surely_reads_the_same():
    """Two framings of one die: the finder's crop leans to a 4 (not surely), the crop of the
    body the pip reader found is sure of a 4, or, neither sure, the two lean to a 4 with a mean
    probability of BOTH_CROPS or more."""
    unsure = candidate(300, 200, 4, p_value=0.0, p_mean=0.7)
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.BLUR), read(500, 300, 6)]

    def framed(value: int, p_value: float, p_mean: float = 0.9) -> list:
        return [None, Candidate((300.0, 200.0), 40.0, 1.0, value, p_value, p_mean), None]

    leaning = 2 * BOTH_CROPS - unsure.p_mean  # the body crop's mean p that brings them to it
    for agreeing in (framed(4, 0.9), framed(4, 0.0, leaning + 0.01)):
        roll = decide(merge(readings, [unsure], FRAME, framed=agreeing), expect=3)
        assert roll.ok and sorted(roll.values) == [2, 4, 6]
    for other in (framed(5, 0.9), framed(4, 0.0, leaning - 0.02), framed(0, 0.95)):
        assert decide(merge(readings, [unsure], FRAME, framed=other), 3).reason is RerollReason.BLUR


def test_dice_read_with_overlapping_faces_are_dice_on_top_of_each_other():
    """Flat dice's top faces lie in one plane and never overlap, however the dice touch."""

    def two(gap: float):
        dice = (Die(2, (100.0, 100.0), 40.0, 0.9), Die(5, (100.0 + gap, 100.0), 40.0, 0.9))
        readings = [DieReading(body(*die.center), die, None, "") for die in dice]
        return decide(readings, expect=None)

    assert two(40.0).ok  # touching edge to edge
    assert two(25.0).reason is RerollReason.OVERLAP


def test_a_body_found_in_part_does_not_take_its_die_with_it_as_clutter():
    """A die whose body was found in part (a sliver refused as leaning, the classifier seeing no
    face in its small crop) claims the finder's sure candidate beside it: in a single photo the
    body is not dropped as clutter (the die would vanish from the roll), it stays refused."""
    sliver = DieReading(body(300, 200, side=16.0), None, RerollReason.COCKED, "leaning", False)
    readings = [read(100, 100, 2), sliver, read(500, 300, 6)]
    beside = candidate(310, 200, 4, p_die=0.82)  # 2 px off the sliver, within its own reach
    clutter = [False, True, False]
    roll = decide(merge(readings, [beside], FRAME, clutter=clutter), None)
    assert roll.reason is RerollReason.COCKED and sorted(roll.values) == [2, 6]


def test_a_lone_sure_die_in_an_overlapping_body_is_not_read_beside_a_faint_trace():
    """A body refused as overlapping, holding one candidate surely read, and the finder's faint
    mark of a second die in it (byler 111858 with a retrained finder: a 3 read, the 4 under its
    edge left out): the body stays refused."""
    readings = [read(100, 100, 2), refused(300, 200, RerollReason.OVERLAP, side=70.0)]
    readings.append(read(500, 300, 6))
    clutter = [False, False, False]
    lone = candidate(292, 190, 3)
    assert decide(merge(readings, [lone], FRAME, clutter=clutter), None).ok
    faint = candidate(308, 222, 4, p_value=0.86, p_die=SURE_DIE - 0.01)
    roll = decide(merge(readings, [lone, faint], FRAME, clutter=clutter), None)
    assert roll.reason is RerollReason.OVERLAP


def test_in_a_single_photo_a_die_at_the_edge_is_read_when_pips_and_classifier_agree():
    """A die touching the picture's edge, its top face in view: read in a single photo when the
    finder is sure of it, the classifier sure of its face and the pips read that same face
    there (read_at_edge); never on a calibrated tray (no clutter flags: the kiosk's camera sees
    the whole tray, a die at the picture's edge lies on its rim), nor when the pips read
    nothing in view or another face, nor when the finder is unsure."""
    readings = [read(100, 100, 2), refused(300, 15, RerollReason.CUT), read(500, 300, 6)]
    clutter = [False, False, False]
    seen = replace(candidate(300, 20, 4), pips=4)
    roll = decide(merge(readings, [seen], FRAME, clutter=clutter), None)
    assert roll.ok and sorted(roll.values) == [2, 4, 6]
    assert decide(merge(readings, [seen], FRAME), None).reason is RerollReason.CUT
    for doubtful in (
        replace(seen, pips=0),
        replace(seen, pips=5),
        replace(seen, p_die=SEEN_DIE - 0.05),
        replace(seen, p_value=SURE_VALUE - 0.05),
    ):
        roll = decide(merge(readings, [doubtful], FRAME, clutter=clutter), None)
        assert roll.reason is RerollReason.CUT
    bodiless = [readings[0], readings[2]]  # no body found there: the finder's alone
    roll = decide(merge(bodiless, [seen], FRAME, clutter=[False, False]), None)
    assert roll.ok and sorted(roll.values) == [2, 4, 6]
    assert decide(merge(bodiless, [seen], FRAME), None).reason is RerollReason.CUT


def test_read_at_edge_reads_the_pips_only_when_all_pip_places_are_in_view():
    dice = [DrawnDie(3, (150, 240), angle=10)]
    touching = synth.scene([*dice, DrawnDie(4, (420, 24), angle=25)], synth.IVORY_ON_GREEN)
    at_edge = Candidate((422.0, 23.0), 65.0, 0.85, 4, 0.95, 0.95)
    middle = Candidate((150.0, 240.0), 62.0, 0.85, 3, 0.98, 0.98)
    readings, _ = read_dice(touching)
    read = read_at_edge(touching, [at_edge, middle], readings, 46.0)
    assert [c.pips for c in read] == [4, 0]
    deeper = synth.scene([*dice, DrawnDie(4, (420, 12), angle=25)], synth.IVORY_ON_GREEN)
    readings, _ = read_dice(deeper)
    assert (
        read_at_edge(deeper, [replace(at_edge, centre=(422.0, 12.0))], readings, 46.0)[0].pips == 0
    )


def test_an_overlapping_body_the_picture_edge_cuts_is_not_read_by_its_lone_die():
    """A die held in a hand at the frame's bottom edge (byler 112623: hand and die one body,
    refused as a heap, the finder sure of the die): what joins it runs out of view, so neither
    the lone-die rule nor the crowd rule reads it; away from the edge the same body is read."""
    held = refused(300, 440, RerollReason.OVERLAP, side=70.0)
    readings = [read(100, 100, 2), held, read(500, 300, 6)]
    clutter = [False, False, False]
    lone = candidate(300, 430, 4)
    assert decide(merge(readings, [lone], FRAME, clutter=clutter), None).ok
    for side in (70.0, 42.0):  # a body larger than the die, and one it fills (a crowd of one)
        cut = refused(300, 440, RerollReason.OVERLAP, side=side)
        readings[1] = replace(cut, body=replace(cut.body, at_edge=True))
        roll = decide(merge(readings, [lone], FRAME, clutter=clutter), None)
        assert roll.reason is RerollReason.OVERLAP


@pytest.mark.parametrize("style", synth.STYLES, ids=lambda s: f"{s.body}-{s.pip}")
def test_a_die_marked_by_its_pip_alone_is_seen_at_the_dice_size(style):
    """The finder may mark a 1 by its pip (a white die on a pale desk): the classifier, shown
    that pip enlarged, surely sees no face; asked at the size of the dice surely seen, it sees
    the 1 (a die is there, its face not taken on that word alone). A small mark on bare tray
    stays no face; sure marks, and marks where a die would overlap one read, are left as
    they are."""
    frame = synth.scene(
        [
            DrawnDie(1, (200, 240), angle=15),
            DrawnDie(5, (330, 200), angle=30),
            DrawnDie(6, (450, 260)),
        ],
        style,
    )
    marks = [
        Candidate((330.0, 200.0), 60.0, 0.9),
        Candidate((450.0, 260.0), 60.0, 0.9),
        Candidate((200.0, 240.0), 22.0, 0.5),  # the 1's pip
        Candidate((120.0, 400.0), 22.0, 0.4),  # bare tray
    ]
    near = read_faces(frame, marks)
    assert [c.value for c in near] == [5, 6, 0, 0]
    wide = reframe(frame, near, [])
    assert [c.value for c in wide] == [5, 6, 1, 0]
    assert wide[2].wide and wide[2].p_value == 0.0 and wide[2].p_mean >= SURE_VALUE
    assert wide[2].size == 60.0 and wide[:2] == near[:2] and wide[3].size == 22.0
    assert reframe(frame, near[2:], []) == near[2:]  # no die surely seen: no size to ask at
    assert reframe(frame, near, [(215.0, 250.0)]) == near  # a die read there: part of it


def test_a_die_seen_only_at_the_dice_size_is_never_left_out_nor_read():
    """A loose mark whose face the classifier sees only at the dice's size (reframe) refuses the
    roll whatever the finder's heat, and is not read; an unsure faint mark is let be."""
    readings = [read(100, 100, 2), read(500, 300, 6)]
    seen = Candidate((300.0, 200.0), 40.0, SURE_DIE, 1, 0.0, 0.9, wide=True)
    roll = decide(merge(readings, [seen], FRAME, clutter=[False, False]), None)
    assert roll.reason is RerollReason.UNREADABLE and sorted(roll.values) == [2, 6]
    unseen = replace(seen, wide=False, p_mean=0.4)
    roll = decide(merge(readings, [unseen], FRAME, clutter=[False, False]), None)
    assert roll.ok and sorted(roll.values) == [2, 6]


def test_readings_at_two_sizes_see_a_face_if_either_does():
    """_judged: a face at the dice's size wins (never sure: it shows a die, not surely its
    face); an unsure face at the finder's size stays when the dice's size shows none; no face
    at both is surely none if either reading is sure."""
    near_none = Candidate((10.0, 10.0), 20.0, 0.5, 0, 0.95, 0.95)
    wide_one = Candidate((10.0, 10.0), 60.0, 0.5, 1, 0.9, 0.9)
    assert _judged(near_none, wide_one) == replace(wide_one, p_value=0.0, wide=True)
    near_three = Candidate((10.0, 10.0), 20.0, 0.5, 3, 0.0, 0.6)
    wide_none = Candidate((10.0, 10.0), 60.0, 0.5, 0, 0.9, 0.9)
    assert _judged(near_three, wide_none) == near_three
    unsure_none = replace(near_none, p_value=0.0, p_mean=0.47)
    judged = _judged(unsure_none, wide_none)
    assert judged.value == 0 and judged.p_value == 0.9 and judged.size == 20.0
    unsure_wide = replace(wide_none, p_value=0.0, p_mean=0.8)
    assert _judged(unsure_none, unsure_wide).p_value == 0.0
    assert _judged(near_none, unsure_wide).p_value == 0.95


def test_two_dice_the_finder_reads_closer_than_flat_dice_lie_are_not_announced():
    """A die leaning near 45 degrees shows its top and a side alike: the finder may read each as
    a die, where no body was kept (a property test found one read as a 6 and a 1, their boxes'
    centres 0.70 of a box apart). Flat dice lie a face side apart or more: LOOSE_APART boxes."""
    readings = [read(100, 100, 2)]
    top = candidate(300, 200, 1)
    for apart, announced in (
        (0.70, False),
        (LOOSE_APART - 0.02, False),
        (LOOSE_APART + 0.02, True),
    ):
        side = replace(top, centre=(300 + apart * top.size, 200.0), value=6)
        roll = decide(merge(readings, [top, side], FRAME, clutter=[False]), None)
        if announced:
            assert roll.ok and sorted(roll.values) == [1, 2, 6]
        else:
            assert roll.reason is RerollReason.OVERLAP and roll.values == (2,)
