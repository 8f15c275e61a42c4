"""The reader on synthetic trays: values at any rotation, colour and size; every reroll reason."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import synth
from hypothesis import example, given, settings
from hypothesis import strategies as st
from synth import DrawnDie

from vision.calibration import Calibration
from vision.reader import read_roll
from vision.reading import RerollReason


@pytest.mark.parametrize("style", synth.STYLES, ids=lambda s: f"body{s.body}")
@pytest.mark.parametrize("values", [(1, 2, 3), (4, 5, 6), (6, 6, 1)])
def test_reads_three_dice_in_every_colour_scheme(style, values):
    roll = read_roll(synth.three_dice(values, style, uneven=0.4))
    assert roll.ok, roll.detail
    assert sorted(roll.values) == sorted(values)
    assert roll.total == sum(values)


@settings(deadline=None, max_examples=40)
@given(
    values=st.tuples(*[st.integers(1, 6)] * 3),
    angles=st.tuples(*[st.floats(0, 90)] * 3),
    side=st.floats(34, 70),
    style=st.sampled_from(synth.STYLES),
)
def test_reads_any_values_at_any_rotation_and_size(values, angles, side, style):
    places = [(160, 150), (330, 330), (500, 170)]
    dice = [DrawnDie(v, p, side, a) for v, p, a in zip(values, places, angles, strict=True)]
    roll = read_roll(synth.scene(dice, style))
    # the reader may abstain, but never reads a wrong value
    if roll.ok:
        assert sorted(roll.values) == sorted(values)
    for die in roll.dice:
        nearest = min(dice, key=lambda d: np.hypot(*np.subtract(d.centre, die.center)))
        assert die.value == nearest.value


def test_abstains_rarely_on_clean_frames():
    rng = np.random.default_rng(3)
    ok = 0
    for _ in range(20):
        values = tuple(int(v) for v in rng.integers(1, 7, 3))
        ok += read_roll(synth.three_dice(values, synth.IVORY_ON_GREEN)).ok
    assert ok >= 18


def test_reads_at_1280x720_with_large_dice():
    roll = read_roll(synth.three_dice((2, 4, 5), side=100, width=1280, height=720))
    assert roll.ok and sorted(roll.values) == [2, 4, 5]


def test_dice_positions_and_sizes_are_reported_in_frame_pixels():
    roll = read_roll(synth.three_dice((1, 3, 5), side=48))
    assert roll.ok
    expected = [(0.25 * 640, 0.35 * 480), (0.55 * 640, 0.6 * 480), (0.78 * 640, 0.3 * 480)]
    for die, (x, y) in zip(roll.dice, expected, strict=True):
        assert np.hypot(die.center[0] - x, die.center[1] - y) < 6
        assert 38 < die.size < 58
        assert 0 < die.confidence <= 1


def test_touching_dice_in_a_row_are_both_read():
    dice = [DrawnDie(2, (200, 200)), DrawnDie(5, (248, 200)), DrawnDie(6, (450, 300), angle=20)]
    roll = read_roll(synth.scene(dice))
    assert roll.ok and sorted(roll.values) == [2, 5, 6]


def test_expect_any_reports_every_die():
    dice = [DrawnDie(v, (110 + 100 * i, 240), angle=10 * i) for i, v in enumerate((1, 2, 3, 4, 6))]
    roll = read_roll(synth.scene(dice), expect=None)
    assert roll.ok and sorted(roll.values) == [1, 2, 3, 4, 6]


def kiosk_read(frame, style=synth.IVORY_ON_GREEN, **kw):
    """Read as the kiosk does: with an empty-tray frame (another exposure: other noise)."""
    empty = synth.tray(frame.shape[1], frame.shape[0], style, kw.pop("uneven", 0.0), seed=8)
    return read_roll(frame, calibration=Calibration(empty=empty, **kw))


def test_wrong_number_of_dice():
    dice = [DrawnDie(2, (200, 200)), DrawnDie(6, (450, 300), angle=20)]
    roll = read_roll(synth.scene(dice), expect=3)
    assert roll.reason is RerollReason.WRONG_COUNT
    assert roll.total is None


def test_empty_tray_is_wrong_count():
    assert read_roll(synth.tray()).reason is RerollReason.WRONG_COUNT


def test_unreadable_die_with_pips_that_fit_no_face():
    frame = synth.scene([DrawnDie(2, (200, 200)), DrawnDie(6, (450, 300), angle=20)])
    synth.draw_die(frame, DrawnDie(1, (330, 150)), synth.IVORY_ON_GREEN)
    for dx, dy in ((-12, -3), (9, 11), (-2, 13)):  # three pips in no layout
        synth.cv2.circle(frame, (330 + dx, 150 + dy), 4, (25, 25, 25), -1)
    roll = read_roll(frame)
    assert roll.reason is RerollReason.UNREADABLE


@pytest.mark.parametrize("style", synth.STYLES[:3], ids=lambda s: f"body{s.body}")
@pytest.mark.parametrize("tilt", [40, 45, 50])
def test_cocked_die(style, tilt):
    dice = [DrawnDie(2, (200, 200)), DrawnDie(5, (320, 215), angle=30, tilt=tilt)]
    dice.append(DrawnDie(6, (450, 300), angle=20))
    assert kiosk_read(synth.scene(dice, style), style).reason is RerollReason.COCKED


@pytest.mark.parametrize("lines", [0.5, 0.62, 0.79, 1.0])
def test_a_flat_six_of_any_makers_design_beside_a_die_is_read(lines):
    """A 6's lines lie 0.5-1 pip steps from its middle as its maker chose (byler's flat 6s
    measured 1.26 long against the standard design). Beside another die, where the kiosk holds
    layouts to 1.05, a flat 6 of any such design is read, its pips round."""
    six = tuple((x * lines, y) for x, y in synth.PIPS[6])
    dice = [DrawnDie(2, (200, 200)), DrawnDie(6, (249, 205), angle=5, pips=six)]
    dice.append(DrawnDie(4, (450, 300), angle=20))
    frame = synth.scene(dice)
    roll = kiosk_read(frame)
    assert roll.ok and sorted(roll.values) == [2, 4, 6], roll.detail


@pytest.mark.parametrize("lines", [0.5, 0.79, 1.0])
@pytest.mark.parametrize("tilt", [25, 35])
def test_a_six_leaning_across_its_lines_is_refused(lines, tilt):
    """Tilted across its lines, a 6 is laid out as a narrower design would be; its pips'
    shape shows the tilt (faces.SHAPED), and the kiosk refuses it beside another die."""
    six = tuple((x * lines, y) for x, y in synth.PIPS[6])
    tilted = tuple((y, x) for x, y in six)  # lines along x: synth tilts along y, across them
    dice = [DrawnDie(2, (200, 200)), DrawnDie(6, (252, 205), angle=5, tilt=tilt, pips=tilted)]
    dice.append(DrawnDie(4, (450, 300), angle=20))
    roll = kiosk_read(synth.scene(dice))
    assert roll.reason is RerollReason.COCKED, roll


@settings(deadline=None, max_examples=40)
@given(
    value=st.integers(1, 6),
    tilt=st.floats(5, 85),
    angle=st.floats(0, 90),
    style=st.sampled_from(synth.STYLES),
    reference=st.booleans(),
)
def test_a_leaning_die_is_never_read_by_its_side(value, tilt, angle, style, reference):
    """A die leaning less than 45 degrees shows its top face most, more than 45 its side (near
    45, either): the reader may refuse it (it should when it can tell), but never announces the
    face that is turned away."""
    dice = [DrawnDie(2, (200, 200)), DrawnDie(value, (330, 250), angle=angle, tilt=tilt)]
    dice.append(DrawnDie(6, (480, 330), angle=20))
    frame = synth.scene(dice, style)
    roll = kiosk_read(frame, style) if reference else read_roll(frame)
    facing = {value} if tilt < 40 else {7 - value} if tilt > 50 else {value, 7 - value}
    if roll.ok:
        assert any(sorted(roll.values) == sorted([2, face, 6]) for face in facing)


@pytest.mark.parametrize("style", synth.STYLES, ids=lambda s: f"body{s.body}")
def test_a_photo_taken_at_a_slant_is_read(style):
    """A tilted camera foreshortens every flat die alike (here: the picture squashed to 0.8 of
    its height, faces 1.25 times as wide as high, however turned)."""
    frame = synth.three_dice((2, 4, 5), style, side=56.0)
    h, w = frame.shape[:2]
    assert read_roll(frame).ok  # straight on
    slanted = synth.cv2.resize(frame, (w, round(0.8 * h)), interpolation=synth.cv2.INTER_AREA)
    roll = read_roll(slanted)
    assert roll.ok and sorted(roll.values) == [2, 4, 5]


@settings(deadline=None, max_examples=60)
@example(value=1, tilt=45.875, angle=119.125, reach=0.3203125, style=synth.IVORY_ON_GREEN)
@given(
    value=st.integers(1, 6),
    tilt=st.floats(5, 85),
    angle=st.floats(0, 360),
    reach=st.floats(0.3, 0.45),
    style=st.sampled_from(synth.STYLES),
)
def test_a_die_leaning_as_perspective_shows_a_flat_one_is_never_read_by_its_side(
    value, tilt, angle, reach, style
):
    """The worst case for reading single photos in perspective: a die leaning off the middle of
    the view, the side it turns up facing the middle, as a flat die's side there would."""
    width, height = 640, 480
    turn = np.radians(angle)
    side = (-np.sin(turn), np.cos(turn))  # where the drawn side lies from the top face
    out = reach * 0.5 * np.hypot(width, height)
    centre = (width / 2 - side[0] * out, height / 2 - side[1] * out)
    frame = synth.scene([DrawnDie(value, centre, angle=angle, tilt=tilt)], style)
    roll = read_roll(frame, expect=None)
    facing = {value} if tilt < 40 else {7 - value} if tilt > 50 else {value, 7 - value}
    if roll.ok:
        assert len(roll.values) == 1 and set(roll.values) <= facing


@pytest.mark.parametrize("tilt", [45, 50, 53, 60])
def test_a_leaning_die_in_a_single_photo_is_never_dropped_as_clutter(tilt):
    """A die leaning near 50 degrees looks like no die face to the classifier (it learnt them
    so); still a die, it makes the roll a reroll or is read by the face it turns up, and is
    never left out (a die leaning 53 degrees was, and two dice read of three thrown)."""
    dice = [DrawnDie(2, (60, 60)), DrawnDie(3, (150, 120), angle=29, tilt=tilt)]
    dice.append(DrawnDie(6, (580, 420), angle=20))
    roll = read_roll(synth.scene(dice, synth.RED_ON_LIGHT), expect=None)
    assert not roll.ok or len(roll.values) == 3


@pytest.mark.xfail(
    strict=True,
    reason="known weakness (docs/vision.md): in a single photo a die leaning 60 degrees is read "
    "by its side face, the most upward one, while its foreshortened top is left out as no die",
)
def test_cocked_die_without_a_reference_is_not_announced():
    dice = [DrawnDie(2, (200, 200)), DrawnDie(5, (320, 215), angle=30, tilt=60)]
    dice.append(DrawnDie(6, (450, 300), angle=20))
    assert not read_roll(synth.scene(dice)).ok


@pytest.mark.parametrize("style", synth.STYLES[:3], ids=lambda s: f"body{s.body}")
def test_dice_on_top_of_each_other(style):
    dice = [DrawnDie(2, (200, 200)), DrawnDie(5, (225, 215), angle=30)]
    dice.append(DrawnDie(6, (450, 300), angle=20))
    frame = synth.scene(dice, style)
    # refused: as dice on one another, for the die above, which leans on the one below, or as
    # a die missing (the one below hidden, the one above read flat by its square layout where
    # its face found takes in the one below): never three dice read
    refusals = (RerollReason.OVERLAP, RerollReason.COCKED, RerollReason.UNREADABLE)
    assert kiosk_read(frame, style).reason in (*refusals, RerollReason.WRONG_COUNT)
    assert read_roll(frame).reason in (*refusals, RerollReason.WRONG_COUNT)


@pytest.mark.parametrize("style", synth.STYLES[:3], ids=lambda s: f"body{s.body}")
def test_die_cut_by_the_image_edge(style):
    dice = [DrawnDie(2, (200, 200)), DrawnDie(5, (10, 215), angle=30)]
    dice.append(DrawnDie(6, (450, 300), angle=20))
    frame = synth.scene(dice, style)
    assert kiosk_read(frame, style).reason is RerollReason.CUT
    assert not read_roll(frame).ok


def test_die_cut_by_the_tray_edge_and_dice_outside_the_tray_ignored():
    dice = [DrawnDie(2, (200, 200)), DrawnDie(4, (300, 380)), DrawnDie(6, (450, 300), angle=20)]
    frame = synth.scene(dice + [DrawnDie(3, (600, 60))])
    tray = np.array([[100, 100], [560, 100], [560, 380], [100, 380]], np.int32)
    roll = read_roll(frame, calibration=Calibration(tray=tray))
    assert roll.reason is RerollReason.CUT
    inside = synth.scene(dice[:1] + [DrawnDie(4, (300, 300))] + dice[2:] + [DrawnDie(3, (600, 60))])
    roll = read_roll(inside, calibration=Calibration(tray=tray))
    assert roll.ok and sorted(roll.values) == [2, 4, 6]


def test_with_a_known_die_size_a_die_across_the_tray_edge_is_cut_and_one_beside_ignored():
    """With the die size known the finder reads only the floor and a die's width around it:
    a die across the floor's edge is still seen (cut), one beside the tray is not thrown."""
    tray = np.array([[100, 100], [560, 100], [560, 380], [100, 380]], np.int32)
    dice = [DrawnDie(2, (200, 200)), DrawnDie(6, (450, 300), angle=20)]
    beside = DrawnDie(3, (600, 440))  # 40 px past two edges: beside the tray
    inside = synth.scene([*dice, DrawnDie(4, (300, 300)), beside])
    roll = kiosk_read(inside, tray=tray, die_size=48.0)
    assert roll.ok and sorted(roll.values) == [2, 4, 6]
    across = synth.scene([*dice, DrawnDie(4, (300, 385)), beside])
    assert kiosk_read(across, tray=tray, die_size=48.0).reason is RerollReason.CUT


def _sim_tray_and_calibration():
    from hardware.sim import SimulatedTray

    clock = [0.0]
    tray = SimulatedTray(seed=3, clock=lambda: clock[0])
    tray.open()
    return tray, clock, Calibration(tray.tray_polygon, 48.0, tray.empty_frame())


def test_things_on_the_rim_and_beside_the_tray_do_not_stop_a_roll():
    """Visitors lean on the rim: a sleeve on it and a phone on the table beside it differ from
    the empty tray, but lie off the floor, and must not refuse every roll as dice heaped."""

    def clutter(frame):
        cv2.rectangle(frame, (20, 200), (110, 420), (60, 90, 200), -1)  # a sleeve on the rim
        cv2.circle(frame, (640, 690), 40, (200, 200, 200), -1)  # a phone below the tray
        return frame

    assert _read_alike(clutter, throws=4) >= 3


def _read_alike(change, throws: int) -> int:
    """Throws on the simulated tray, each read as it lies and with `change` made to its frame:
    the same answer both ways, every time. Returns how many were read."""
    tray, clock, calibration = _sim_tray_and_calibration()
    read = 0
    for _ in range(throws):
        tray.throw()
        clock[0] += tray.settle_time + 0.5
        frame = tray.read().image
        plain = read_roll(frame, calibration=calibration)
        changed = read_roll(change(frame.copy()), calibration=calibration)
        assert changed.reason == plain.reason, changed.detail
        assert sorted(changed.values) == sorted(plain.values)
        read += changed.ok
    return read


def test_a_die_beside_the_tray_is_never_taken_for_dice_heaped_on_it():
    """Only what lies within half a die of the floor counts, so a die thrown out of the tray
    shows at most its edge there: that edge belongs to the die the finder marks beside the
    tray (a re-throw for the count or the edge, not "two dice lie on top of each other")."""
    from hardware.sim import Hazard, SimulatedTray

    clock = [0.0]
    tray = SimulatedTray(seed=3, clock=lambda: clock[0], die_colour="#2040a0", pip_colour="#f0f0f0")
    tray.open()
    calibration = Calibration(tray.tray_polygon, 56.0, tray.empty_frame())
    for _ in range(20):
        tray.throw(hazard=Hazard.OUTSIDE)
        clock[0] += tray.settle_time + 0.5
        roll = read_roll(tray.read().image, calibration=calibration)
        assert not roll.ok and roll.reason is not RerollReason.OVERLAP, roll.detail


@pytest.mark.parametrize("dark, edge", [(0.6, 60.0), (0.4, 12.0), (0.6, 4.0)])
def test_a_visitors_shadow_over_the_tray_does_not_stop_a_roll(dark, edge):
    """A visitor leaning over a spot-lit tray shades half of it, dice included, with an edge
    as sharp as the lamp makes it: the light changed, nothing came onto the tray."""
    x = np.arange(1280, dtype=np.float32)
    shade = 1 - (1 - dark) / (1 + np.exp(np.clip((640 - x) / (edge / 4), -50, 50)))  # right half
    shaded = lambda frame: np.clip(frame * shade[None, :, None], 0, 255).astype(np.uint8)  # noqa: E731
    assert _read_alike(shaded, throws=3) >= 2


def test_a_hand_reaching_onto_the_floor_still_refuses_the_roll():
    tray, clock, calibration = _sim_tray_and_calibration()
    tray.throw()
    clock[0] += tray.settle_time + 0.5
    frame = tray.read().image
    x0, y0 = tray.tray_polygon.reshape(-1, 2).min(axis=0)
    cv2.rectangle(frame, (20, 300), (int(x0) + 90, 420), (60, 90, 200), -1)  # over the rim
    roll = read_roll(frame, calibration=calibration)
    assert not roll.ok and roll.reason is RerollReason.OVERLAP, roll.detail


def test_a_die_against_the_tray_wall_is_read_flat_and_refused_leaning():
    """A die touching the wall may lean on it: it is read only when its top shows no tilt at
    all (square face, square pip layout); tilted by 25 degrees it is refused."""
    tray = np.array([[100, 100], [560, 100], [560, 380], [100, 380]], np.int32)
    dice = [DrawnDie(2, (200, 200)), DrawnDie(4, (300, 355)), DrawnDie(6, (450, 300), angle=20)]
    roll = read_roll(synth.scene(dice), calibration=Calibration(tray=tray))
    assert roll.ok and sorted(roll.values) == [2, 4, 6]
    dice[1] = DrawnDie(4, (300, 355), tilt=25)
    roll = read_roll(synth.scene(dice), calibration=Calibration(tray=tray))
    assert roll.reason is RerollReason.COCKED


@pytest.mark.parametrize("style", synth.STYLES, ids=lambda s: f"body{s.body}")
def test_empty_tray_reference_and_die_size_are_used(style):
    frame = synth.three_dice((1, 5, 6), style, uneven=0.5)
    roll = kiosk_read(frame, style, uneven=0.5, die_size=48.0)
    assert roll.ok and sorted(roll.values) == [1, 5, 6]


def test_motion_blur():
    """Never read; on the kiosk's tray refused as blurred, or as leaning where a 1, 2 or 3's
    pips, smeared long, look like a leaning die's (the kiosk reads dice at rest, and leaning
    dice are the commoner cause)."""
    frame = synth.motion_blur(synth.three_dice(), 14)
    assert kiosk_read(frame).reason in (RerollReason.BLUR, RerollReason.COCKED)
    assert not read_roll(frame).ok


def test_glare_hiding_a_pip_is_never_read():
    frame = synth.glare(synth.three_dice((3, 5, 6)), (0.55 * 640, 0.6 * 480), 17)
    assert kiosk_read(frame).reason is RerollReason.GLARE
    assert read_roll(frame).reason is RerollReason.GLARE


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_glare_on_a_corner_of_the_face_hides_no_pip(value):
    """A highlight on a die's rounded corner, away from every place a pip could be, is no
    reason to refuse it. A 1 may still be refused: the glint takes the face found off its
    lone pip, which has no layout to centre the face by; it is never read as another value."""
    dice = [DrawnDie(2, (160, 170)), DrawnDie(value, (352, 288)), DrawnDie(6, (500, 140), angle=71)]
    frame = synth.glare(synth.scene(dice), (352 + 24, 288 + 24), 48 * 0.3)
    for roll in (kiosk_read(frame), read_roll(frame)):
        if value == 1 and not roll.ok:
            continue
        assert roll.ok and sorted(roll.values) == sorted([2, value, 6])


@pytest.mark.parametrize("angle", [0, 30])
@pytest.mark.parametrize("value", [1, 3])
def test_a_face_overexposed_around_its_middle_pip_is_read(value, angle):
    """A lamp's pool of light clips a light face white all over while its dark pips stay dark.
    Glare that covers the middle pip read, and it is seen, hides neither corner beside it: a
    glint is as convex as its lamp, so a 1 so lit is no 3 and a 3 no 5 (glints._between)."""
    dice = [
        DrawnDie(2, (160, 170)),
        DrawnDie(value, (352, 288), angle=angle),
        DrawnDie(6, (500, 140), angle=71),
    ]
    frame = synth.spotlight(synth.scene(dice), (352, 288), 40, 1.6)
    assert frame[288 - 10, 352 + 10].min() == 255  # the face beside the middle pip is clipped
    for roll in (kiosk_read(frame), read_roll(frame)):
        assert roll.ok and sorted(roll.values) == sorted([2, value, 6]), roll.detail


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
def test_a_face_under_a_glare_as_wide_as_itself_is_never_read(value):
    """A mirror's glint as wide as the face hides the pips under it, the middle one too:
    whatever is left, the die is not announced."""
    dice = [DrawnDie(2, (160, 170)), DrawnDie(value, (352, 288)), DrawnDie(6, (500, 140), angle=71)]
    frame = synth.glare(synth.scene(dice), (352, 288), 30)
    for roll in (kiosk_read(frame), read_roll(frame)):
        assert not roll.ok


@pytest.mark.parametrize(
    ("value", "spots", "hides"),
    [
        (1, [(-1, -1), (1, 1)], True),  # where a 3's other two pips would be
        (4, [(0, 0)], True),  # a 5's middle pip
        (2, [(0, 0)], True),  # a 3's middle pip
        (6, [(0, -1), (0, 0), (0, 1)], False),  # between a 6's lines: no face has more pips
        (5, [(1, 0), (-1, 0)], False),  # beside a 5's middle: no face adds pips there to a 5
    ],
)
def test_glare_refuses_only_where_it_could_hide_a_face(value, spots, hides):
    """Glare on empty pip places refuses a die only when a face with more pips, holding the
    pips seen, would have its other pips exactly there."""
    step = 0.27 * 48
    dice = [DrawnDie(2, (160, 170)), DrawnDie(value, (352, 288)), DrawnDie(6, (500, 140), angle=71)]
    frame = synth.scene(dice)
    for gx, gy in spots:
        frame = synth.glare(frame, (352 + gx * step, 288 + gy * step), 0.11 * 48)
    for roll in (kiosk_read(frame), read_roll(frame)):
        if hides:
            assert roll.reason is RerollReason.GLARE
        else:
            assert roll.ok and sorted(roll.values) == sorted([2, value, 6])


def glint(frame: np.ndarray, centre: tuple[float, float], radius: float, light: float):
    """A lamp's glint: a round spot of near-white light added to the die, softened a little."""
    layer = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(layer, (round(centre[0] * 16), round(centre[1] * 16)), round(radius * 16), 1.0,
               -1, cv2.LINE_AA, 4)  # fmt: skip
    layer = cv2.GaussianBlur(layer, (0, 0), 0.03 * 48)
    return np.clip(frame + light * layer[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("value", [2, 4])
def test_a_glint_on_the_middle_of_a_face_is_no_pip(value):
    """A glint on the plain middle of a 2 or a 4 looks like the middle pip of a 3 or a 5.
    On an ivory die with dark pips it is lighter than the face where the pips are darker
    (pips of one paint: `pips.one_tone`); on a red die with white pips it is clipped white
    where the pips are not (`glints.glare_fakes_pip`). Either way the die is read right or
    refused, never read as a 3 or a 5."""
    for style in (synth.IVORY_ON_GREEN, synth.RED_ON_LIGHT):
        dice = [
            DrawnDie(6, (160, 170)),
            DrawnDie(value, (352, 288), angle=20),
            DrawnDie(5, (500, 140)),
        ]
        frame = glint(synth.scene(dice, style).astype(np.float32), (352, 288), 0.07 * 48, 255)
        assert frame[288, 352].min() == 255  # clipped: a lamp, not paint
        for roll in (kiosk_read(frame, style), read_roll(frame)):
            assert not roll.ok or sorted(roll.values) == sorted([6, value, 5]), roll
            glinted = [d.value for d in roll.dice if abs(d.center[0] - 352) < 10]
            assert glinted in ([], [value]), roll.detail


LIGHT_PIPS = {
    "yellow on blue": synth.Style(body=(150, 70, 20), pip=(60, 200, 230), tray=(200, 205, 210)),
    "white on blue": synth.Style(body=(150, 70, 20), pip=(245, 245, 245), tray=(200, 205, 210)),
    "white on red": synth.Style(body=(40, 40, 180), pip=(245, 245, 245), tray=(200, 205, 210)),
}


@pytest.mark.parametrize("name", LIGHT_PIPS)
@pytest.mark.parametrize("value", [2, 4])
def test_a_glint_short_of_clipping_on_a_face_of_light_pips_is_no_pip(name, value):
    """A softer glint on the middle of a 2 or a 4 with light pips, clipped in two channels at
    most (never in all three, as `glints.glare_fakes_pip` needs): as light as the pips, it is
    the lamp's light on the die's colour, not their paint (`glints.odd_paint`,
    `pips.one_paint`). Never read as a 3 or a 5, at any brightness; the reader before the
    paint check announced 13 of these 24 so."""
    style = LIGHT_PIPS[name]
    for light in (110, 140, 170, 200):
        dice = [
            DrawnDie(6, (160, 170)),
            DrawnDie(value, (352, 288), angle=20),
            DrawnDie(5, (500, 140)),
        ]
        frame = glint(synth.scene(dice, style).astype(np.float32), (352, 288), 0.07 * 48, light)
        assert frame[288, 352].min() < 250  # not the clipped glint glare_fakes_pip sees
        for roll in (kiosk_read(frame, style), read_roll(frame)):
            glinted = [d.value for d in roll.dice if abs(d.center[0] - 352) < 10]
            assert glinted in ([], [value]), (light, roll.detail)
            assert not roll.ok or sorted(roll.values) == sorted([6, value, 5]), (light, roll)


@pytest.mark.parametrize("name", LIGHT_PIPS)
def test_light_pips_of_one_paint_are_read(name):
    """The paint check refuses no face whose pips are of one paint: a 3 and a 5 of light pips
    on each of those dice are read."""
    style = LIGHT_PIPS[name]
    dice = [DrawnDie(3, (160, 170)), DrawnDie(5, (352, 288), angle=20), DrawnDie(6, (500, 140))]
    frame = synth.scene(dice, style)
    for roll in (kiosk_read(frame, style), read_roll(frame)):
        assert roll.ok and sorted(roll.values) == [3, 5, 6], roll.detail


def test_white_pips_clipped_alike_are_read():
    """Where every pip of a face is clipped white (white paint overexposed, not a glint), the
    face is read: a glint is clipped where the pips of its face are not."""
    style = synth.Style(body=(40, 40, 200), pip=(255, 255, 255), tray=(200, 205, 210))
    dice = [DrawnDie(6, (160, 170)), DrawnDie(3, (352, 288), angle=20), DrawnDie(5, (500, 140))]
    frame = synth.scene(dice, style)
    for roll in (kiosk_read(frame, style), read_roll(frame)):
        assert roll.ok and sorted(roll.values) == [3, 5, 6], roll.detail


WARM_IVORY = synth.Style(body=(190, 228, 245), pip=(25, 25, 25), tray=(60, 110, 50))


def test_a_sheen_that_leaves_a_channel_unclipped_hides_no_pip():
    """A warm ivory face lit white to the eye (grey 250 and up) nearly all over, as a phone's
    exposure for a dark carpet leaves it, but not clipped in its blue channel, shows what lies
    under it: a 2 is read as a 2, its empty places hiding nothing; a 3 as a 3 or refused,
    never as a 2 (its middle pip shows darker in the blue channel). On the kiosk's tray the 2
    may be refused instead: the sheen washes out the side of each pip towards its middle, and
    pips that look long are a leaning die's (pip_shape.py; a known weakness)."""

    def lit(value: int) -> np.ndarray:
        dice = [DrawnDie(2, (160, 170)), DrawnDie(value, (352, 288)), DrawnDie(6, (500, 140))]
        frame = synth.scene(dice, WARM_IVORY)
        return synth.glare(frame, (352, 288), 0.45 * 48, strength=0.85)

    two = lit(2)
    middle = two[288 - 2 : 288 + 3, 352 - 2 : 352 + 3].reshape(-1, 3)
    grey = cv2.cvtColor(middle[None], cv2.COLOR_BGR2GRAY)
    assert (grey >= 250).all() and (middle.min(axis=1) < 250).all()  # white, not clipped
    roll = read_roll(two)
    assert roll.ok and sorted(roll.values) == [2, 2, 6], roll.detail
    roll = kiosk_read(two, WARM_IVORY)
    assert roll.ok and sorted(roll.values) == [2, 2, 6] or roll.reason is RerollReason.COCKED
    three = lit(3)
    for roll in (kiosk_read(three, WARM_IVORY), read_roll(three)):
        assert not roll.ok or sorted(roll.values) == [2, 3, 6], roll


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((480, 640, 3), np.uint8),
        np.full((480, 640, 3), 255, np.uint8),
        np.full((480, 640, 3), 128, np.uint8),
        np.zeros((480, 640), np.uint8),
        np.zeros((480, 640, 4), np.uint8),
        np.zeros((480, 640, 3), np.float32),
        np.zeros((10, 10, 3), np.uint8),
        np.zeros((0, 0, 3), np.uint8),
        None,
        "frame.jpg",
    ],
    ids=["black", "saturated", "flat", "grey", "bgra", "float", "tiny", "empty", "none", "str"],
)
def test_bad_frames(frame):
    roll = read_roll(frame)
    assert roll.reason is RerollReason.BAD_FRAME
    assert roll.detail


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), expect=st.sampled_from([None, 3]))
def test_noise_never_raises_and_is_never_ok(seed, expect):
    frame = np.random.default_rng(seed).integers(0, 256, (240, 320, 3), dtype=np.uint8)
    roll = read_roll(frame, expect=expect)
    assert not roll.ok


@settings(deadline=None, max_examples=40)
@given(
    dice=st.lists(
        st.tuples(
            st.integers(1, 6),
            st.floats(-20, 660),
            st.floats(-20, 500),
            st.floats(0, 90),
            st.floats(20, 90),
            st.sampled_from([0.0, 0.0, 30.0, 60.0]),
        ),
        max_size=7,
    ),
    style=st.sampled_from(synth.STYLES),
    blur=st.sampled_from([0, 0, 5, 15]),
    expect=st.sampled_from([None, 3]),
)
def test_any_scene_gives_an_answer_never_an_exception(dice, style, blur, expect):
    drawn = [DrawnDie(v, (x, y), side, a, tilt) for v, x, y, a, side, tilt in dice]
    frame = synth.scene(drawn, style, uneven=0.3)
    if blur:
        frame = synth.motion_blur(frame, blur)
    roll = read_roll(frame, expect=expect)
    assert roll.ok or roll.reason is not None
    if roll.ok:
        assert all(1 <= v <= 6 for v in roll.values)
        assert len(roll.values) <= len(drawn)


def test_sharp_simulated_frames_are_never_called_blurred_without_calibration():
    """The simulated tray's wooden rim shows soft grain with faint spots: it is not a blurred
    die. Without a calibration, settled (sharp) frames must never be refused as blurred, and
    every roll announced must be right."""
    from hardware.sim import SimulatedTray

    clock = [0.0]
    tray = SimulatedTray(seed=5, clock=lambda: clock[0])
    tray.open()
    for _ in range(12):
        tray.throw()
        clock[0] += tray.settle_time + 0.5
        roll = read_roll(tray.read().image, expect=3)
        assert roll.reason is not RerollReason.BLUR, roll.detail
        if roll.ok:
            assert sorted(roll.values) == sorted(tray.last_values)


def test_uncalibrated_simulated_throws_never_announce_a_wrong_value():
    """Without a calibration, a knot in the rim's grain (a lone faint spot) must not count as a
    die of 1, and a 3 whose face is found cut short by a touching neighbour must not pass for a
    2: either would complete a roll of three with a wrong value."""
    from hardware.sim import Hazard, SimulatedTray

    clock = [0.0]
    tray = SimulatedTray(seed=5, clock=lambda: clock[0])
    tray.open()
    for hazard in (None, Hazard.OUTSIDE, Hazard.COCKED, Hazard.STACKED):
        for _ in range(15):
            tray.throw(hazard=hazard)  # not read: only brings the tray to the throws below
    for _ in range(15):
        tray.throw(hazard=Hazard.TOUCHING)
        clock[0] += tray.settle_time + 0.5
        roll = read_roll(tray.read().image, expect=3)
        if roll.ok:
            assert sorted(roll.values) == sorted(tray.last_values), roll


@pytest.mark.parametrize(
    "style",
    [synth.STYLES[2], synth.STYLES[1]],
    ids=lambda s: f"body{s.body}",
)
def test_a_die_overhanging_another_is_not_read_as_two_flat_dice(style):
    """Two ones of one colour, the second drawn over the first's corner: the pip reader once
    read the first as a 2 (its face found through the second die, with the second's pip)."""
    side = DrawnDie(1, (0, 0)).side
    offset = 0.7 * side / np.sqrt(2)
    dice = [DrawnDie(1, (250, 250)), DrawnDie(1, (250 + offset, 250 + offset))]
    frame = synth.scene([*dice, DrawnDie(6, (480, 120), angle=20)], style)
    roll = kiosk_read(frame, style)
    assert not roll.ok and roll.reason in (RerollReason.OVERLAP, RerollReason.UNREADABLE)


@settings(deadline=None, max_examples=40)
@example(
    values=(1, 2),
    overhang=0.75,
    direction=0.0,
    angles=(20.0, 0.0),
    style=synth.IVORY_ON_GREEN,
    reference=False,
)  # a 1 a quarter under a 2 was read as a 2: a pip of the 2 taken for its own
@given(
    values=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    overhang=st.floats(0.3, 0.95),
    direction=st.floats(0, 360),
    angles=st.tuples(st.floats(0, 90), st.floats(0, 90)),
    style=st.sampled_from(synth.STYLES),
    reference=st.booleans(),
)
def test_dice_over_one_another_are_never_read_as_other_faces(
    values, overhang, direction, angles, style, reference
):
    """A die drawn over part of another (its centre `overhang` die sides away): refused, or (a
    sliver hidden) read as the faces showing, never as any other."""
    side = DrawnDie(1, (0, 0)).side
    turn = np.radians(direction)
    over = (250 + overhang * side * np.cos(turn), 250 + overhang * side * np.sin(turn))
    dice = [DrawnDie(values[0], (250, 250), angle=angles[0])]
    dice += [DrawnDie(values[1], over, angle=angles[1]), DrawnDie(6, (480, 120), angle=20)]
    frame = synth.scene(dice, style)
    roll = kiosk_read(frame, style) if reference else read_roll(frame)
    if roll.ok:
        assert sorted(roll.values) == sorted([*values, 6])


@pytest.mark.parametrize("side", [24.0, 32.0])
def test_a_small_sharp_face_is_not_blurred_and_the_same_face_blurred_is(side):
    """A small die's shaded edge spans a large share of its face: blur is judged in frame
    pixels as well as in face sides (PipParams.blurred_px), so a sharp 24-32 px face is not
    called blurred, and the same face blurred by 2.5 px is."""
    from vision.face import _blurred, box_outline
    from vision.params import PARAMS
    from vision.pips import find_spots
    from vision.top_face import find_face

    p = PARAMS.pips
    sharp = synth.scene([synth.DrawnDie(4, (320.0, 240.0), side=side, angle=20)])
    verdicts = []
    for frame in (sharp, cv2.GaussianBlur(sharp, (0, 0), 2.5)):
        box = side * 1.25
        face = find_face(frame, box_outline((320.0, 240.0), box), (320.0, 240.0), box, 0.0, p)
        assert face is not None
        spots = find_spots(frame, face, p)
        verdicts.append((spots.sharpness(p) > p.blurred, _blurred(spots, face, p)))
    (sharp_by_face, sharp_blurred), (_, blurred_blurred) = verdicts
    assert sharp_by_face, "in face sides alone this sharp small face looks blurred"
    assert not sharp_blurred
    assert blurred_blurred


@pytest.mark.parametrize("angle", [0.0, 25.0])
def test_touching_dice_on_the_tray_are_held_to_their_own_top_faces(angle):
    """On the kiosk's tray, once the flat top face's size is learnt, two dice of one colour
    face against face are each read on its own top: a box of a die's size about one takes in
    a strip of the other's face, and that face, found a tenth long, was refused as a die's top
    with its side in view (reader._apart)."""
    from vision.reader import inspect

    style = synth.IVORY_ON_GREEN
    turn = np.exp(1j * np.radians(angle))
    step = 48 * turn  # the drawn side: the two dice touch
    dice = [
        DrawnDie(2, (240, 220), angle=angle),
        DrawnDie(5, (240 + step.real, 220 + step.imag), angle=angle),
        DrawnDie(6, (480, 330), angle=10),
    ]
    empty = synth.tray(640, 480, style, 0.0, seed=8)
    lone, _ = inspect(
        synth.scene([DrawnDie(3, (320, 240), angle=angle)], style),
        calibration=Calibration(empty=empty),
        expect=1,
    )
    assert lone.ok
    face = lone.dice[0].size  # the top face's side, as the kiosk learns it from flat dice
    roll, _ = inspect(
        synth.scene(dice, style), calibration=Calibration(empty=empty), face_size=face
    )
    assert roll.ok and sorted(roll.values) == [2, 5, 6], roll
