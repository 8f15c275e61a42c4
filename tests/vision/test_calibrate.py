"""Calibration helpers on drawn trays of known geometry, and saving/loading a Calibration."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.calibrate import (
    Verdict,
    assess_image,
    calibrate,
    die_size_from_frame,
    die_size_from_roll,
    find_tray,
)
from vision.calibration import Calibration, CalibrationError
from vision.reading import Die, RerollReason, Roll
from vision.settle import SettleConfig, SettleDetector, SettleState


def texture(h: int, w: int, colour, grain: float, seed: int, blur: float = 1.2) -> np.ndarray:
    """A surface of one colour with a fine random grain, float32 BGR."""
    rng = np.random.default_rng(seed)
    noise = cv2.GaussianBlur(rng.normal(0, grain, (h, w)).astype(np.float32), (0, 0), blur)
    return np.array(colour, np.float32)[None, None, :] + noise[..., None]


def polygon_mask(shape: tuple[int, int], polygon: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(polygon).astype(np.int32).reshape(-1, 1, 2)], 1)
    return mask


def floor_and_walls(size: tuple[int, int], floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the drawn floor and of the floor with its 6 px inner walls (inside the rim)."""
    inner = polygon_mask((size[1], size[0]), floor)
    return inner, cv2.dilate(inner, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (13, 13)))


def draw_tray(
    size: tuple[int, int],
    floor: np.ndarray,
    floor_colour=(50, 110, 45),
    rim_colour=(40, 80, 130),
    table_colour=(150, 150, 150),
    rim: int = 30,
    wall: float = 0.55,
    seed: int = 3,
) -> np.ndarray:
    """A tray seen from above: a table, the rim's top (`rim` px wide), the rim's inner wall
    (6 px, its colour times `wall`: in shadow), and the floor polygon `floor` (float (N, 2),
    frame pixels) with felt grain and a light falloff towards the corners. Returns BGR uint8."""
    w, h = size
    inner, band = floor_and_walls(size, floor)
    top = cv2.dilate(band, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rim + 1,) * 2))
    image = texture(h, w, table_colour, 8, seed)
    image[top > 0] = texture(h, w, rim_colour, 6, seed + 1)[top > 0]
    image[band > 0] = texture(h, w, np.array(rim_colour) * wall, 4, seed + 2)[band > 0]
    image[inner > 0] = texture(h, w, floor_colour, 10, seed + 3)[inner > 0]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.0 - 0.3 * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2)
    return np.clip(image * light[..., None], 0, 255).astype(np.uint8)


def rectangle(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float64)


def ellipse(cx: float, cy: float, a: float, b: float) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 180, endpoint=False)
    return np.stack([cx + a * np.cos(t), cy + b * np.sin(t)], axis=1)


def misfit(floor: np.ndarray, inside_rim: np.ndarray, found: np.ndarray) -> tuple[float, float]:
    """How far an outline strays from the band between the floor's edge and the rim top's inner
    edge (the inner walls, seen from above), both masks: the mean width, in pixels, of floor
    left out, and of what lies beyond the rim's inner edge (area over perimeter)."""
    mask = polygon_mask(floor.shape, found)
    contours, _ = cv2.findContours(floor, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    perimeter = cv2.arcLength(max(contours, key=cv2.contourArea), True)
    left_out = np.count_nonzero(floor & (1 - mask)) / perimeter
    beyond = np.count_nonzero(mask & (1 - inside_rim)) / perimeter
    return left_out, beyond


TRAYS = {
    "green felt in a wooden rim, 640x480": ((640, 480), rectangle(320, 240, 520, 370), {}),
    "tilted navy leather in a beige rim, 1280x720": (
        (1280, 720),
        rectangle(640, 360, 980, 520, 8.0),
        {"floor_colour": (90, 40, 30), "rim_colour": (170, 200, 215)},
    ),
    "round red felt in a black rim": (
        (640, 480),
        ellipse(320, 240, 250, 180),
        {"floor_colour": (40, 40, 150), "rim_colour": (25, 25, 25)},
    ),
    "floor and rim of the same grey, different hue": (
        (640, 480),
        rectangle(330, 235, 500, 360),
        {"floor_colour": (60, 120, 60), "rim_colour": (120, 80, 118), "wall": 1.0},
    ),
}


@pytest.mark.parametrize("name", sorted(TRAYS))
def test_the_tray_is_found_between_floor_edge_and_rim(name: str) -> None:
    size, floor, colours = TRAYS[name]
    empty = draw_tray(size, floor, **colours)
    found = find_tray(empty)
    assert found.dtype == np.int32 and found.ndim == 2 and found.shape[1] == 2
    left_out, beyond = misfit(*floor_and_walls(size, floor), found)
    assert left_out < 1.0 and beyond < 1.0


@pytest.mark.parametrize("seed", [1, 4])
@pytest.mark.parametrize("surface", ["felt", "wood"])
@pytest.mark.parametrize("resolution", [(640, 480), (1280, 720)])
def test_the_simulated_trays_are_found_between_floor_edge_and_rim(surface, resolution, seed):
    """The kiosk's simulated tray: perspective walls, a shaded wooden rim, ambient occlusion,
    sensor noise, and a striped wooden floor as the hard case. Within a pixel and a half (the
    outline is found at most 640 px wide: 2 frame pixels per step at 1280)."""
    sim = pytest.importorskip("hardware.sim.tray")
    tray = sim.SimulatedTray(resolution=resolution, seed=seed, surface=surface)
    floor = polygon_mask(resolution[::-1], tray.tray_polygon)
    inside_rim = polygon_mask(resolution[::-1], tray.geometry.rim_rects()[0])
    left_out, beyond = misfit(floor, inside_rim, find_tray(tray.empty_frame()))
    assert left_out < 1.5 and beyond < 1.5


def test_grey_levels_alone_do_not_separate_that_hued_rim() -> None:
    """Guards the case above: it is only found through colour, not brightness."""
    _, floor, colours = TRAYS["floor and rim of the same grey, different hue"]
    floor_rim = (colours["floor_colour"], colours["rim_colour"])
    grey = [cv2.cvtColor(np.uint8([[c]]), cv2.COLOR_BGR2GRAY)[0, 0] for c in floor_rim]
    assert abs(int(grey[0]) - int(grey[1])) <= 2 and colours["wall"] == 1.0


def test_a_frame_that_is_all_floor_gives_the_whole_frame() -> None:
    empty = np.clip(texture(480, 640, (50, 110, 45), 10, 1), 0, 255).astype(np.uint8)
    found = find_tray(empty)
    assert cv2.contourArea(found.reshape(-1, 1, 2)) > 0.97 * 639 * 479


def clutter(seed: int = 5) -> np.ndarray:
    """A desk seen from above: blocks of random colours, 24 px, edges everywhere."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, (20, 27, 3), dtype=np.uint8)
    return cv2.resize(blocks, (648, 480), interpolation=cv2.INTER_NEAREST)[:, :640].copy()


@pytest.mark.parametrize(
    "frame, message",
    [
        (clutter(), "too small|no tray floor|not clear|not a plain"),
        (np.zeros((480, 640, 2), np.uint8), "shape"),
        (np.zeros((480, 640, 3), np.float32), "not an image"),
    ],
)
def test_no_tray_is_a_clear_calibration_error(frame, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        find_tray(frame)


def test_a_small_smooth_patch_in_the_middle_is_not_taken_for_the_tray() -> None:
    frame = clutter()
    frame[190:290, 260:380] = (50, 110, 45)  # a beer mat on the desk, 4% of the view
    with pytest.raises(CalibrationError, match="too small|not clear|not a plain"):
        find_tray(frame)


# --- die size ------------------------------------------------------------------------------


def draw_die(image: np.ndarray, centre, side: float, angle: float, value: int = 5) -> None:
    """A white die with black pips and a soft shadow to its lower right (diffuse light)."""
    shade = np.zeros(image.shape[:2], np.float32)
    box = cv2.boxPoints(((centre[0] + 3, centre[1] + 3), (side, side), angle))
    cv2.fillConvexPoly(shade, np.round(box).astype(np.int32), 0.25)
    shade = cv2.GaussianBlur(shade, (0, 0), 3)
    image[:] = (image * (1 - shade[..., None])).astype(np.uint8)
    box = cv2.boxPoints(((centre[0], centre[1]), (side, side), angle))
    cv2.fillConvexPoly(image, np.round(box).astype(np.int32), (232, 234, 236), cv2.LINE_AA)
    spots = {5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 2: [(-1, -1), (1, 1)]}[value]
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    for u, v in spots:
        x = centre[0] + 0.27 * side * (u * c - v * s)
        y = centre[1] + 0.27 * side * (u * s + v * c)
        cv2.circle(image, (round(x), round(y)), round(0.09 * side), (20, 20, 20), -1, cv2.LINE_AA)


def test_die_size_from_a_frame_ignores_touching_dice() -> None:
    floor = rectangle(320, 240, 520, 370)
    empty = draw_tray((640, 480), floor)
    dice = empty.copy()
    for centre, angle in [((160, 150), 0), ((320, 300), 25), ((470, 160), 60)]:
        draw_die(dice, centre, 44, angle)
    for first, second in [
        ((200, 360), (244, 360)),
        ((380, 110), (380, 154)),
        ((490, 300), (534, 300)),
    ]:
        draw_die(dice, first, 44, 0)  # two dice side by side: one oblong blob
        draw_die(dice, second, 44, 0)
    size = die_size_from_frame(dice, empty, find_tray(empty))
    assert 44 * 0.93 <= size <= 44 * 1.1


def test_die_size_needs_dice() -> None:
    empty = draw_tray((640, 480), rectangle(320, 240, 520, 370))
    with pytest.raises(CalibrationError, match="no die found"):
        die_size_from_frame(empty, empty)
    with pytest.raises(CalibrationError, match="differ in size"):
        die_size_from_frame(empty, empty[:240])


def test_die_size_from_a_reading_is_the_median_side() -> None:
    dice = tuple(Die(v, (10.0 * v, 5.0), s, 0.9) for v, s in [(1, 40.0), (2, 44.0), (3, 90.0)])
    assert die_size_from_roll(Roll(dice)) == 44.0
    assert die_size_from_roll(Roll((), RerollReason.WRONG_COUNT)) is None


# --- exposure and focus --------------------------------------------------------------------

FLOOR = rectangle(320, 240, 520, 370)


def tray_with_dice() -> np.ndarray:
    image = draw_tray((640, 480), FLOOR)
    for centre, angle in [((200, 180), 10), ((330, 260), 35), ((450, 170), 70)]:
        draw_die(image, centre, 40, angle)
    return image


def noisy(image: np.ndarray, sigma: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


def test_a_good_picture_is_ok() -> None:
    quality = assess_image(tray_with_dice(), FLOOR)
    assert quality.verdict is Verdict.OK
    assert 60 < quality.mean < 200 and quality.clipped == 0


def test_too_dark_and_too_bright() -> None:
    image = tray_with_dice().astype(np.float32)
    dark = assess_image((image * 0.2).astype(np.uint8), FLOOR)
    bright = assess_image(np.clip(image * 2.2 + 70, 0, 255).astype(np.uint8), FLOOR)
    assert dark.verdict is Verdict.TOO_DARK and dark.mean < 45
    assert bright.verdict is Verdict.TOO_BRIGHT


def test_glare_inside_the_tray_but_not_outside() -> None:
    image = tray_with_dice()
    outside = image.copy()
    cv2.circle(outside, (20, 20), 15, (255, 255, 255), -1)  # a lamp in the corner of the view
    assert assess_image(outside, FLOOR).verdict is Verdict.OK
    cv2.ellipse(image, (330, 260), (20, 12), 30, 0, 360, (255, 255, 255), -1)
    quality = assess_image(image, FLOOR)
    assert quality.verdict is Verdict.GLARE and quality.clipped > 0.002


@pytest.mark.parametrize("sigma", [0.0, 6.0])
def test_blur_is_out_of_focus_even_when_noise_adds_fine_detail(sigma: float) -> None:
    sharp = tray_with_dice()
    blurred = cv2.GaussianBlur(sharp, (0, 0), 2.5)
    assert assess_image(noisy(sharp, sigma), FLOOR).verdict is Verdict.OK
    assert assess_image(noisy(blurred, sigma), FLOOR).verdict is Verdict.OUT_OF_FOCUS


def test_the_noise_estimate_is_near_the_true_sensor_noise() -> None:
    smooth = cv2.GaussianBlur(tray_with_dice(), (0, 0), 2.0)
    luma = float(np.sqrt(0.114**2 + 0.587**2 + 0.299**2))  # independent noise per channel
    for sigma in (3.0, 8.0):
        noise = assess_image(noisy(smooth, sigma), FLOOR).noise
        assert noise == pytest.approx(sigma * luma, rel=0.2)


def test_measures_do_not_depend_much_on_resolution() -> None:
    small = tray_with_dice()
    large = cv2.resize(small, (1280, 960), interpolation=cv2.INTER_CUBIC)
    a, b = assess_image(small, FLOOR), assess_image(large, FLOOR * 2)
    assert a.verdict is b.verdict is Verdict.OK
    assert abs(a.mean - b.mean) < 2


# --- calibrate, save, load -----------------------------------------------------------------


def test_calibrate_save_load_and_drive_the_settle_detector(tmp_path) -> None:
    empty = draw_tray((640, 480), FLOOR)
    made = calibrate(empty, dice=tray_with_dice())
    assert max(misfit(*floor_and_walls((640, 480), FLOOR), made.tray)) < 1.0
    assert 37 <= made.die_size <= 44
    path = made.save(tmp_path / "calibration")
    loaded = Calibration.load(tmp_path / "calibration")
    assert path.name == "calibration.json"
    assert np.array_equal(loaded.tray, made.tray) and loaded.die_size == made.die_size
    assert np.array_equal(loaded.empty, empty)  # PNG is lossless
    assert sorted(p.name for p in path.parent.iterdir()) == ["calibration.json", "empty.png"]
    detector = SettleDetector(SettleConfig(still_for=0.1), loaded)
    states = [detector.update(empty, i / 30) for i in range(6)]
    assert states[-1] is SettleState.EMPTY


def test_a_calibration_without_an_empty_frame_round_trips(tmp_path) -> None:
    Calibration(die_size=41.5).save(tmp_path)
    assert Calibration.load(tmp_path) == Calibration(die_size=41.5)


def test_nothing_saved_loads_as_none(tmp_path) -> None:
    assert Calibration.load(tmp_path) is None
    assert Calibration.load(tmp_path / "missing") is None


@pytest.mark.parametrize(
    "record, message",
    [
        ("{not json", "not JSON"),
        (json.dumps({"version": 99}), "not a version 1"),
        (json.dumps({"version": 1, "tray": [[1, 2], [3, 4]]}), "at least 3 points"),
        (json.dumps({"version": 1, "tray": "square"}), "polygon|points"),
        (json.dumps({"version": 1, "die_size": -4}), "positive"),
        (json.dumps({"version": 1, "die_size": "big"}), "not a number"),
        (json.dumps({"version": 1, "empty": "empty.png", "frame_size": [640, 480]}), "missing"),
    ],
)
def test_a_damaged_calibration_says_what_is_wrong(tmp_path, record: str, message: str) -> None:
    (tmp_path / "calibration.json").write_text(record, encoding="utf-8")
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(tmp_path)


def test_an_empty_image_of_another_size_is_refused(tmp_path) -> None:
    Calibration(empty=draw_tray((640, 480), FLOOR)).save(tmp_path)
    cv2.imwrite(str(tmp_path / "empty.png"), np.zeros((240, 320, 3), np.uint8))
    with pytest.raises(CalibrationError, match="does not match"):
        Calibration.load(tmp_path)
