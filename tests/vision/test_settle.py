"""Settle detection, voting and one-answer-per-throw, on drawn frame sequences with a fake clock.

The reader is not under test here: `ScriptedReader` answers from the dice the test drew, so the
tests pin down what the settle and vote logic does with the reader's answers.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

import cv2
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hardware.sim.dice import PIPS
from vision.calibration import Calibration
from vision.motion import FrameError, changed_fraction, shrink
from vision.reading import Die, RerollReason, Roll
from vision.settle import SettleConfig, SettleDetector, SettleState
from vision.vote import RollVote, same_dice
from vision.watcher import ThrowWatcher

FPS = 30.0
W, H = 640, 480


@functools.cache
def _felt(width: int, height: int, seed: int, falloff: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 10, (height, width)).astype(np.float32), (0, 0), 1.2)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1.0 - falloff * (((xx - width / 2) / width) ** 2 + ((yy - height / 2) / height) ** 2)
    base = np.array([50, 110, 45], np.float32)
    image = (base[None, None, :] + grain[..., None]) * light[..., None]
    return np.clip(image, 0, 255).astype(np.uint8)


def felt(width: int = W, height: int = H, seed: int = 1, falloff: float = 0.25) -> np.ndarray:
    """A green felt tray floor with fine texture and a soft light falloff, BGR uint8."""
    return _felt(width, height, seed, falloff).copy()


@dataclass(frozen=True)
class Drawn:
    """A die as the test drew it: value, centre (x, y) in pixels, side, rotation in degrees,
    body and pip colours (BGR)."""

    value: int
    center: tuple[float, float]
    size: float = 40.0
    angle: float = 0.0
    body: tuple[int, int, int] = (235, 235, 228)
    pip: tuple[int, int, int] = (25, 25, 25)


def draw_die(image: np.ndarray, die: Drawn) -> None:
    """Draws the die seen from above, in place (sub-pixel positions)."""
    scale = 16  # cv2 drawing `shift` bits = 4
    rotation = cv2.getRotationMatrix2D((0.0, 0.0), die.angle, 1.0)[:, :2]
    half = die.size / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rotation.T
    corners = np.round((corners + die.center) * scale).astype(np.int32)
    cv2.fillConvexPoly(image, corners, die.body, cv2.LINE_AA, 4)
    for px, py in PIPS[die.value]:
        offset = np.array([px, py]) * die.size * 0.27 @ rotation.T
        centre = np.round((offset + die.center) * scale).astype(np.int32)
        cv2.circle(
            image,
            tuple(int(c) for c in centre),
            round(die.size * 0.09 * scale),
            die.pip,
            -1,
            cv2.LINE_AA,
            4,
        )


def scene(
    dice: list[Drawn] = (),
    tray: np.ndarray | None = None,
    hand: tuple[float, float] | None = None,
    gain: float = 1.0,
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """A frame: the tray, the dice, an optional hand (a big skin-coloured blob) and forearm
    reaching in from the bottom edge, a brightness gain, and Gaussian sensor noise."""
    image = (felt() if tray is None else tray).copy()
    for die in dice:
        draw_die(image, die)
    if hand is not None:
        x, y = int(hand[0]), int(hand[1])
        cv2.ellipse(image, (x, y), (70, 90), 20, 0, 360, (120, 150, 200), -1)
        cv2.rectangle(image, (x - 45, y), (x + 45, H + 10), (110, 140, 190), -1)
    if gain != 1.0 or noise:
        work = image.astype(np.float32) * gain
        if noise:
            work += (rng or np.random.default_rng(0)).normal(0, noise, work.shape)
        image = np.clip(work, 0, 255).astype(np.uint8)
    return image


THREE = [
    Drawn(3, (200.0, 180.0), angle=10),
    Drawn(5, (330.0, 260.0), angle=35),
    Drawn(6, (450.0, 170.0), angle=70),
]


def empty_calibration(**kw) -> Calibration:
    return Calibration(empty=felt(), **kw)


def run(detector: SettleDetector, frames, t0: float = 0.0) -> list[tuple[float, SettleState]]:
    """Feeds frames at FPS from t0; returns (t, state) per frame."""
    out = []
    for i, frame in enumerate(frames):
        t = t0 + i / FPS
        out.append((t, detector.update(frame, t)))
    return out


def throw_frames(dice: list[Drawn], moving: int = 15) -> list[np.ndarray]:
    """Dice tumbling in from the left for `moving` frames, then the frame they land in."""
    frames = []
    for i in range(moving, 0, -1):
        tumbling = [
            Drawn(
                (d.value + i) % 6 + 1,
                (d.center[0] - 12 * i, d.center[1] + 3 * i),
                d.size,
                d.angle + 25 * i,
            )
            for d in dice
        ]
        frames.append(scene(tumbling))
    frames.append(scene(dice))
    return frames


# --- the detector -------------------------------------------------------------------------


def test_empty_tray_is_empty_once_still_for_a_window() -> None:
    detector = SettleDetector(SettleConfig(still_for=0.3), empty_calibration())
    states = run(detector, [scene()] * 20)
    assert all(s is SettleState.MOVING for t, s in states if t < 0.3 - 1e-9)
    assert all(s is SettleState.EMPTY for t, s in states if t >= 0.3)


def test_dice_settle_exactly_one_window_after_they_stop() -> None:
    config = SettleConfig(still_for=0.3)
    detector = SettleDetector(config, empty_calibration())
    run(detector, [scene()] * 12)
    frames = throw_frames(THREE)
    states = run(detector, frames + [frames[-1]] * 15, t0=1.0)
    landed = 1.0 + (len(frames) - 1) / FPS
    assert all(s is SettleState.MOVING for t, s in states if t < landed + 0.3 - 1e-9)
    assert all(s is SettleState.SETTLED for t, s in states if t >= landed + 0.3 - 1e-9)
    assert detector.cover > config.empty_cover


def test_without_a_calibration_a_still_scene_is_settled() -> None:
    detector = SettleDetector(SettleConfig(still_for=0.2))
    states = run(detector, [scene(THREE)] * 10)
    assert states[-1][1] is SettleState.SETTLED


def test_a_red_die_on_green_felt_of_the_same_brightness_is_seen() -> None:
    """Colour counts, not only brightness: this die and its pips have the felt's grey level."""
    red = Drawn(4, (320.0, 240.0), body=(40, 40, 200), pip=(45, 130, 20))
    grey = [cv2.cvtColor(np.uint8([[c]]), cv2.COLOR_BGR2GRAY)[0, 0] for c in (red.body, red.pip)]
    felt_grey = cv2.cvtColor(felt(), cv2.COLOR_BGR2GRAY)[200:280, 280:360].mean()
    assert all(abs(int(g) - felt_grey) < 8 for g in grey)
    detector = SettleDetector(SettleConfig(still_for=0.2), empty_calibration())
    assert run(detector, [scene([red])] * 10)[-1][1] is SettleState.SETTLED
    nudged = Drawn(4, (324.0, 240.0), body=red.body, pip=red.pip)
    assert detector.update(scene([nudged]), 1.0) is SettleState.MOVING


@pytest.mark.parametrize("falloff", [0.25, 0.0])
def test_big_bright_dice_do_not_make_the_bare_floor_look_changed(falloff: float) -> None:
    """Eight 90 px white dice cover a fifth of the tray and nearly double its mean blue and red;
    the light is matched on the bare floor, so only the dice count as covering the tray. The
    evenly lit tray is the hard case: matched on the whole tray, no floor pixel looks bare."""
    xs, ys = (110.0, 250.0, 390.0, 530.0), (150.0, 330.0)
    big = [Drawn(6, (x, y), size=90.0) for x in xs for y in ys]
    area = len(big) * 90 * 90 / (W * H)
    tray = felt(falloff=falloff)
    detector = SettleDetector(SettleConfig(still_for=0.2), Calibration(empty=tray))
    assert run(detector, [scene(big, tray=tray)] * 10)[-1][1] is SettleState.SETTLED
    assert area <= detector.cover < 1.3 * area


def test_sensor_noise_is_not_motion() -> None:
    rng = np.random.default_rng(7)
    detector = SettleDetector(SettleConfig(still_for=0.2), empty_calibration())
    frames = [scene(THREE, noise=6.0, rng=rng) for _ in range(40)]
    states = run(detector, frames)
    assert all(s is SettleState.SETTLED for t, s in states if t >= 0.2)


def test_lighting_flicker_is_not_motion() -> None:
    """Mains flicker beating with the frame rate: the whole image brighter and darker by 12%."""
    detector = SettleDetector(SettleConfig(still_for=0.2), empty_calibration())
    frames = [scene(THREE, gain=1.0 + 0.12 * np.sin(i * 1.3)) for i in range(40)]
    states = run(detector, frames)
    assert all(s is SettleState.SETTLED for t, s in states if t >= 0.2)


def test_a_hand_over_the_tray_is_moving_then_blocking_never_settled() -> None:
    """A hand covers far more than twelve dice (of the calibrated 40 px), so it is not dice."""
    detector = SettleDetector(SettleConfig(still_for=0.2), empty_calibration(die_size=40.0))
    run(detector, [scene(THREE)] * 10)
    passing = [scene(THREE, hand=(100 + 20 * i, 300)) for i in range(15)]
    resting = [scene(THREE, hand=(400, 300))] * 15
    states = run(detector, passing + resting, t0=1.0)
    assert {s for _, s in states[:15]} == {SettleState.MOVING}
    assert states[-1][1] is SettleState.BLOCKED
    assert SettleState.SETTLED not in {s for _, s in states}
    after = run(detector, [scene(THREE)] * 10, t0=3.0)
    assert after[0][1] is SettleState.MOVING and after[-1][1] is SettleState.SETTLED


def test_slow_creep_below_the_frame_to_frame_threshold_is_still_motion() -> None:
    """A die sliding a quarter pixel every frame: no two consecutive frames differ enough, but
    the window's first frame does, so the scene never settles while it slides."""
    config = SettleConfig(still_for=0.3)
    frames = [scene([*THREE[:2], Drawn(6, (450.0 + 0.25 * i, 170.0), angle=70)]) for i in range(45)]
    small = [shrink(f, config.work_width) for f in frames]
    mask = np.full(small[0].shape[:2], 255, np.uint8)
    steps = [
        changed_fraction(b, a, mask, config.motion_level) for a, b in itertools.pairwise(small)
    ]
    assert max(steps) <= config.motion_cover  # invisible frame to frame
    detector = SettleDetector(config, empty_calibration())
    states = run(detector, frames)
    assert SettleState.SETTLED not in {s for _, s in states}


def test_slow_daylight_drift_keeps_the_tray_empty_and_the_dice_settled() -> None:
    """Ten minutes of light fading by 60% from one side, a frame every two seconds: the
    empty-tray reference must follow the light, even while dice lie on the tray."""
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    calibration = empty_calibration()

    def dusk(image: np.ndarray, k: float) -> np.ndarray:
        shade = 1.0 - 0.6 * k * (xx / W)
        return np.clip(image * shade[..., None], 0, 255).astype(np.uint8)

    config = SettleConfig(still_for=0.3, max_gap=3.0)
    detector = SettleDetector(config, calibration)
    states = [detector.update(dusk(scene(), i / 300), 2.0 * i) for i in range(300)]
    assert set(states[1:]) == {SettleState.EMPTY}
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, config, calibration)
    answers = []
    for i in range(300):
        answers.append(watcher.update(dusk(scene(THREE), i / 300), 2.0 * i))
        assert i < 1 or watcher.state is SettleState.SETTLED
    assert [a.values for a in answers if a is not None] == [(3, 5, 6)]
    assert reader.calls == config.votes


dice_layouts = st.lists(
    st.builds(
        Drawn,
        value=st.integers(1, 6),
        center=st.tuples(st.floats(120, 520), st.floats(100, 380)),
        size=st.floats(30, 60),
        angle=st.floats(0, 90),
    ),
    min_size=1,
    max_size=3,
).filter(  # dice lie apart: none hides another
    lambda dice: all(
        np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) > 1.5 * max(a.size, b.size)
        for i, a in enumerate(dice)
        for b in dice[i + 1 :]
    )
)


@settings(deadline=None, max_examples=15)
@given(
    dice=dice_layouts,
    noise=st.floats(0, 6),
    flicker=st.floats(0, 0.12),
    fps=st.sampled_from([15.0, 30.0, 60.0]),
    seed=st.integers(0, 2**16),
)
def test_still_dice_settle_whatever_the_noise_flicker_and_frame_rate(
    dice, noise, flicker, fps, seed
) -> None:
    rng = np.random.default_rng(seed)
    detector = SettleDetector(SettleConfig(still_for=0.3), empty_calibration())
    base = scene(dice)
    for i in range(int(0.5 * fps)):
        gain = 1.0 + flicker * np.sin(i * 1.3)
        frame = np.clip(base * gain + rng.normal(0, noise, base.shape), 0, 255).astype(np.uint8)
        state = detector.update(frame, i / fps)
        assert state is (SettleState.MOVING if i / fps < 0.3 - 1e-9 else SettleState.SETTLED)


@settings(deadline=None, max_examples=15)
@given(dice=dice_layouts, step=st.tuples(st.floats(-4, 4), st.floats(-4, 4)))
def test_a_die_that_moves_two_pixels_is_seen_moving(dice, step) -> None:
    assume(np.hypot(*step) >= 2.0)
    detector = SettleDetector(SettleConfig(still_for=0.2), empty_calibration())
    assert run(detector, [scene(dice)] * 8)[-1][1] is SettleState.SETTLED
    first = dice[0]
    nudged = Drawn(first.value, (first.center[0] + step[0], first.center[1] + step[1]),
                   first.size, first.angle)  # fmt: skip
    assert detector.update(scene([nudged, *dice[1:]]), 8 / FPS) is SettleState.MOVING


def test_motion_outside_the_tray_polygon_is_ignored() -> None:
    tray = np.array([[100, 80], [540, 80], [540, 400], [100, 400]], np.int32)
    detector = SettleDetector(SettleConfig(still_for=0.2), empty_calibration(tray=tray))
    frames = []
    for i in range(30):  # somebody walking past in the strip left of the tray
        frame = scene(THREE)
        cv2.circle(frame, (40, 30 + 14 * i), 35, (30, 30, 30), -1)
        frames.append(frame)
    states = run(detector, frames)
    assert all(s is SettleState.SETTLED for t, s in states if t >= 0.2)


def test_time_going_backwards_or_a_stalled_camera_restarts_the_window() -> None:
    config = SettleConfig(still_for=0.2, max_gap=1.0)
    detector = SettleDetector(config, empty_calibration())
    frame = scene(THREE)
    assert run(detector, [frame] * 10)[-1][1] is SettleState.SETTLED
    assert detector.update(frame, 0.05) is SettleState.MOVING  # clock went backwards
    assert run(detector, [frame] * 10, t0=0.1)[-1][1] is SettleState.SETTLED
    assert detector.update(frame, 5.0) is SettleState.MOVING  # 4.7 s without frames
    assert detector.update(frame, 5.1) is SettleState.MOVING
    assert detector.update(frame, 5.2) is SettleState.SETTLED


def test_a_new_frame_size_restarts_and_a_mismatched_calibration_is_refused() -> None:
    detector = SettleDetector(SettleConfig(still_for=0.1))
    run(detector, [scene(THREE)] * 5)
    small = cv2.resize(scene(THREE), (320, 240))
    assert detector.update(small, 1.0) is SettleState.MOVING
    assert detector.update(small, 1.2) is SettleState.SETTLED
    calibrated = SettleDetector(SettleConfig(), empty_calibration())
    with pytest.raises(FrameError, match="calibrate again"):
        calibrated.update(small, 0.0)


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((48, 64), np.float32),
        np.zeros((48, 64, 2), np.uint8),
        np.zeros((0, 64), np.uint8),
        np.zeros(64, np.uint8),
        [[0, 1], [2, 3]],
    ],
)
def test_bad_frames_get_a_clear_error(frame) -> None:
    with pytest.raises(FrameError, match="frame must be"):
        SettleDetector().update(frame, 0.0)


def test_grey_and_bgra_frames_are_accepted() -> None:
    colour = scene(THREE)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    bgra = cv2.cvtColor(colour, cv2.COLOR_BGR2BGRA)
    for frame in (grey, bgra):
        detector = SettleDetector(SettleConfig(still_for=0.1))
        assert run(detector, [frame] * 5)[-1][1] is SettleState.SETTLED


# --- the vote -----------------------------------------------------------------------------


def roll(*dice: tuple[int, float, float], reason: RerollReason | None = None) -> Roll:
    return Roll(tuple(Die(v, (x, y), 40.0, 0.9) for v, x, y in dice), reason)


A = roll((3, 200, 180), (5, 330, 260), (6, 450, 170))


def test_same_dice_matches_die_by_die_in_any_order_within_tolerance() -> None:
    shuffled = roll((6, 455, 172), (3, 198, 181), (5, 330, 262))
    assert same_dice(A, shuffled, 0.5)
    assert not same_dice(A, roll((6, 450, 170), (3, 200, 180), (4, 330, 260)), 0.5)  # a value
    assert not same_dice(A, roll((3, 200, 180), (5, 330, 260), (6, 480, 170)), 0.5)  # a place
    assert not same_dice(A, roll((3, 200, 180), (5, 330, 260)), 0.5)  # a count
    assert same_dice(roll(), roll(), 0.5)


def test_the_vote_needs_consecutive_agreeing_reads_and_returns_one_of_them() -> None:
    vote = RollVote(SettleConfig(votes=3))
    odd = roll((3, 200, 180), (5, 330, 260), (5, 450, 170))
    again = roll((5, 331, 259), (3, 201, 180), (6, 449, 171))
    assert vote.add(A) is None
    assert vote.add(odd) is None
    assert vote.add(A) is None
    assert vote.add(A) is None
    assert vote.add(again) is again  # never an average: the newest reading itself


def test_consecutive_rerolls_give_the_newest_of_the_commonest_reason() -> None:
    vote = RollVote(SettleConfig(votes=3))
    cocked = roll((3, 200, 180), reason=RerollReason.COCKED)
    overlap = roll((3, 200, 180), reason=RerollReason.OVERLAP)
    assert vote.add(A) is None
    assert vote.add(overlap) is None
    assert vote.add(cocked) is None  # an ok read among the last three: no answer yet
    again = roll((3, 201, 180), reason=RerollReason.OVERLAP)
    assert vote.add(again) is again  # overlap, cocked, overlap: overlap, the newest one


def test_reads_that_keep_disagreeing_end_in_an_unreadable_reroll() -> None:
    vote = RollVote(SettleConfig(votes=3, max_reads=6))
    five = roll((3, 200, 180), (5, 330, 260), (5, 450, 170))
    answers = [vote.add(A if i % 2 else five) for i in range(6)]
    assert answers[:5] == [None] * 5
    assert answers[5].reason is RerollReason.UNREADABLE
    assert "disagree" in answers[5].detail


def test_the_read_limit_follows_the_votes_unless_given() -> None:
    assert SettleConfig().max_reads == 12
    assert SettleConfig(votes=30).max_reads == 120
    assert SettleConfig(votes=2, max_reads=5).max_reads == 5
    with pytest.raises(ValueError, match="votes"):
        SettleConfig(votes=5, max_reads=3)


def die_reads():
    value = st.integers(1, 6)
    where = st.sampled_from([(100.0, 100.0), (300.0, 100.0), (100.0, 300.0)])
    one = st.tuples(value, where).map(lambda p: Die(p[0], p[1], 40.0, 0.9))
    ok = st.lists(one, max_size=3, unique_by=lambda d: d.center).map(lambda ds: Roll(tuple(ds)))
    bad = st.sampled_from(list(RerollReason)).map(lambda r: Roll((), r))
    return st.lists(ok | bad, min_size=1, max_size=30)


@settings(deadline=None, max_examples=200)
@given(die_reads(), st.integers(1, 4))
def test_an_answer_is_always_backed_by_the_votes_before_it(reads, votes) -> None:
    config = SettleConfig(votes=votes, max_reads=12)
    vote = RollVote(config)
    for n, read in enumerate(reads, start=1):
        answer = vote.add(read)
        if answer is None:
            assert n < config.max_reads
            continue
        if answer.ok:
            assert answer is read and n >= votes
            assert all(r.ok and same_dice(r, read, 0.5) for r in reads[n - votes : n])
        else:
            last = reads[n - votes : n] if n >= votes else []
            agreed = last and all(not r.ok for r in last) and any(answer is r for r in last)
            assert agreed or (n == config.max_reads and answer.reason is RerollReason.UNREADABLE)
        break


# --- the watcher --------------------------------------------------------------------------


@dataclass
class ScriptedReader:
    """Reads what the test says lies in the tray; counts its calls. Optional per-call overrides
    play the reader's occasional odd answer."""

    dice: list[Drawn]
    odd: dict[int, Roll] = field(default_factory=dict)
    calls: int = 0

    def __call__(self, frame: np.ndarray) -> Roll:
        self.calls += 1
        if self.calls in self.odd:
            return self.odd[self.calls]
        dice = tuple(Die(d.value, d.center, d.size, 0.95) for d in self.dice)
        if len(dice) != 3:
            return Roll(dice, RerollReason.WRONG_COUNT)
        return Roll(dice)


def watch(watcher: ThrowWatcher, frames, t0: float) -> list[Roll]:
    answers = []
    for i, frame in enumerate(frames):
        answer = watcher.update(frame, t0 + i / FPS)
        if answer is not None:
            answers.append(answer)
    return answers


def test_one_throw_gives_one_answer_and_reading_stops() -> None:
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3, votes=3), empty_calibration())
    watch(watcher, [scene()] * 15, 0.0)
    assert reader.calls == 0  # an empty tray is never read
    frames = throw_frames(THREE)
    answers = watch(watcher, frames + [frames[-1]] * 60, 1.0)
    assert len(answers) == 1 and answers[0].ok and answers[0].values == (3, 5, 6)
    assert reader.calls == 3


def test_an_odd_read_delays_the_answer_but_does_not_change_it() -> None:
    glare = Roll((), RerollReason.GLARE)
    reader = ScriptedReader(THREE, odd={2: glare})
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3, votes=3), empty_calibration())
    answers = watch(watcher, throw_frames(THREE) + [scene(THREE)] * 30, 0.0)
    assert len(answers) == 1 and answers[0].ok and reader.calls == 5


def test_a_hand_passing_over_still_dice_is_a_throw_that_was_not() -> None:
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    first = watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    passing = [scene(THREE, hand=(60 + 35 * i, 250)) for i in range(16)]
    second = watch(watcher, passing + [scene(THREE)] * 20, 2.0)
    assert [a.values for a in first] == [(3, 5, 6)]
    assert len(second) == 1 and second[0].reason is RerollReason.NOT_MOVED
    assert second[0].values == (3, 5, 6)
    assert reader.calls == 3  # the pixels alone told it: no read needed


def test_without_a_calibrated_die_size_the_first_answer_teaches_it() -> None:
    """A hand resting in the tray covers an eighth of it: less than the 30% fallback, so it is
    only told from dice once the reader has said how big the dice are."""
    watcher = ThrowWatcher(ScriptedReader(THREE), SettleConfig(still_for=0.3), empty_calibration())
    watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    assert watcher.detector.die_size == 40.0
    watch(watcher, [scene(THREE, hand=(400, 300))] * 20, 2.0)
    assert watcher.state is SettleState.BLOCKED
    untaught = SettleDetector(SettleConfig(still_for=0.3), empty_calibration())
    assert run(untaught, [scene(THREE, hand=(400, 300))] * 20)[-1][1] is SettleState.SETTLED


def test_a_coin_dropped_next_to_still_dice_is_caught_by_the_reading() -> None:
    """The scene changed (a coin) but the dice read the same at the same places."""
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    with_coin = scene(THREE)
    cv2.circle(with_coin, (560, 400), 22, (40, 160, 200), -1)
    answers = watch(watcher, [scene(THREE, hand=(500, 350))] * 8 + [with_coin] * 20, 2.0)
    assert [a.reason for a in answers] == [RerollReason.NOT_MOVED]


def test_a_new_throw_after_an_answer_gets_a_new_answer() -> None:
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    first = watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    pickup = [scene(THREE, hand=(300, 250 + 5 * i)) for i in range(10)] + [scene()] * 15
    again = [
        Drawn(1, (160.0, 300.0)),
        Drawn(2, (260.0, 120.0), angle=50),
        Drawn(4, (420.0, 330.0), angle=20),
    ]
    reader.dice = again
    second = watch(watcher, pickup + throw_frames(again) + [scene(again)] * 20, 2.0)
    assert [a.values for a in first + second] == [(3, 5, 6), (1, 2, 4)]
    assert all(a.ok for a in first + second)


def test_a_single_noisy_frame_after_an_answer_is_not_a_new_throw() -> None:
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    blip = scene(THREE)
    blip[200:260, 250:330] = 255  # one frame with a burst of glare
    answers = watch(watcher, [blip] + [scene(THREE)] * 20, 2.0)
    assert answers == [] and reader.calls == 3


def test_passing_frames_spread_over_half_a_second_are_not_a_throw_that_was_not() -> None:
    """A video compressed between frames has poorer frames here and there (B-frames): each
    changes a patch of the tray in one frame, and the next looks as the tray did. Spread over
    half a second they are no stir: the old answer stands, nothing is read or said."""
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    frames = []
    for k in range(3):
        poor = scene(THREE)
        poor[150 + 40 * k : 200 + 40 * k, 240:330] //= 2  # blocks smeared darker, one frame
        frames += [poor] + [scene(THREE)] * 7
    answers = watch(watcher, frames + [scene(THREE)] * 20, 2.0)
    assert answers == [] and reader.calls == 3


def _lit(image: np.ndarray, factors, edge: float, soft: float) -> np.ndarray:
    """`image` lit anew right of x = `edge`: each BGR channel times its factor (one for all:
    a shadow; warm ones: the sun), the change `soft` px wide."""
    xx = np.arange(image.shape[1], dtype=np.float32)
    cover = 1 / (1 + np.exp(np.clip(-(xx - edge) / max(soft / 4, 1e-3), -50, 50)))
    light = 1 + cover[None, :, None] * (np.asarray(factors, np.float32) - 1)
    return np.clip(image * light + 0.5, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("factors", "soft"), [(0.5, 1.0), (0.6, 40.0), ((0.8, 1.3, 1.6), 20.0)])
def test_a_change_of_light_after_an_answer_is_no_throw(factors, soft) -> None:
    """A visitor leans over the tray to look (a shadow over half of it, sharp or soft), or the
    sun comes out through a window (warm light), and goes again: the dice did not move, nobody
    threw, and nothing is said, read or answered (before: "the dice did not move" now and then
    as the light came or went)."""
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    edges = np.linspace(W + 60, 300, 12)  # the light's edge sweeps in over 12 frames
    coming = [_lit(scene(THREE), factors, x, soft) for x in edges]
    going = coming[::-1]
    answers = watch(watcher, coming + [coming[-1]] * 25 + going + [scene(THREE)] * 25, 2.0)
    assert answers == [] and reader.calls == 3


def test_a_hand_in_a_visitors_shadow_is_still_a_throw_that_was_not() -> None:
    """The shadow comes first, then the hand passes over the dice: the hand is no light."""
    reader = ScriptedReader(THREE)
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 0.0)
    shade = [_lit(scene(THREE), 0.6, x, 30.0) for x in np.linspace(W + 60, 200, 8)]
    passing = [_lit(scene(THREE, hand=(60 + 35 * i, 250)), 0.6, 200, 30.0) for i in range(16)]
    answers = watch(watcher, shade + passing + [scene(THREE)] * 25, 2.0)
    assert [a.reason for a in answers] == [RerollReason.NOT_MOVED]


def test_a_settled_shadow_with_no_dice_is_read_but_never_announced() -> None:
    reader = ScriptedReader([])
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.2, votes=3), empty_calibration())
    shadow = scene(gain=1.0)
    cv2.circle(shadow, (320, 240), 40, (20, 50, 20), -1)
    answers = watch(watcher, [shadow] * 40, 0.0)
    assert answers == [] and reader.calls == 3


def test_dice_taken_away_unread_from_a_bare_tray_are_no_throw_that_was_not() -> None:
    """Without a calibration the bare tray settles and is read (no dice: nothing said). Dice
    thrown that never look still (a compressed video's flicker) and are then taken away leave
    it as bare as it was: nothing lay there to be "where the last read left them"."""
    reader = ScriptedReader([])
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.2, votes=3), None)
    assert watch(watcher, [scene()] * 20, 0.0) == [] and reader.calls == 3
    rolling = throw_frames(THREE, moving=25)[:-1]  # taken away before they land
    answers = watch(watcher, rolling + [scene()] * 30, 1.0)
    assert answers == [] and watcher.unanswered_since is None
    reader.dice = THREE  # thrown again, and now they come to rest: read as ever
    answers = watch(watcher, throw_frames(THREE) + [scene(THREE)] * 20, 3.0)
    assert [a.values for a in answers] == [(3, 5, 6)]


def test_dice_moved_before_their_reads_agree_are_told_once_when_they_move() -> None:
    """Dice at rest, read twice with no agreement yet (a glint on the first read), then picked
    up: that throw never has an answer, and the watcher says so on the frame they move, with
    when the rest began and how many reads it had. An answered rest is never told so."""
    glare = Roll((), RerollReason.GLARE)
    reader = ScriptedReader(THREE, odd={1: glare})
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3, votes=3), empty_calibration())
    told, first_read, t = [], None, 0.0
    for frame in throw_frames(THREE) + [scene(THREE)] * 30:
        assert watcher.update(frame, t) is None
        told.append(watcher.cut_short)
        if reader.calls == 1 and first_read is None:
            first_read = t  # the first settled frame is read at once
        if reader.calls == 2:
            break
        t += 1 / FPS
    assert told == [None] * len(told)
    pickup = [scene(THREE, hand=(300, 250 + 5 * i)) for i in range(10)] + [scene()] * 15
    cuts = []
    for i, frame in enumerate(pickup):
        watcher.update(frame, t + (i + 1) / FPS)
        cuts.append(watcher.cut_short)
    assert [c for c in cuts if c is not None] == [(first_read, 2)]
    assert cuts[0] is not None  # told on the first frame that moved
    t += 2.0
    answers = []
    for i, frame in enumerate(throw_frames(THREE) + [scene(THREE)] * 20 + pickup):
        answers.append(watcher.update(frame, t + i / FPS))
        assert watcher.cut_short is None  # this rest was answered: nothing cut short
    assert [a.values for a in answers if a is not None] == [(3, 5, 6)]


def test_a_cocked_die_gives_one_reroll_for_the_throw() -> None:
    cocked = Roll((), RerollReason.COCKED, "die 2 leans on the rim")
    reader = ScriptedReader(THREE, odd={i: cocked for i in range(1, 100)})
    watcher = ThrowWatcher(reader, SettleConfig(still_for=0.3), empty_calibration())
    answers = watch(watcher, throw_frames(THREE) + [scene(THREE)] * 30, 0.0)
    assert answers == [cocked]


# --- end to end, on the kiosk's simulated tray with the real reader -------------------------


def test_simulated_throws_get_one_answer_each_and_a_non_throw_is_caught() -> None:
    """The kiosk's path: calibrate on the empty tray, then frames at 30 fps through the watcher
    and the real reader. Every throw gets exactly one answer, about half a second after the
    dice stop; an ok answer shows the values thrown; leaving the dice in place is NOT_MOVED."""
    sim = pytest.importorskip("hardware.sim.tray")
    hazards = pytest.importorskip("hardware.sim.throw").Hazard
    reader = pytest.importorskip("vision.reader")
    from vision.calibrate import calibrate

    now = [0.0]
    tray = sim.SimulatedTray(resolution=(640, 480), seed=11, clock=lambda: now[0])
    tray.open()
    empty = tray.empty_frame()
    tray.throw()
    now[0] += tray.settle_time
    calibration = calibrate(empty, dice=tray.read().image)  # the maintenance screen's way
    assert calibration.die_size == pytest.approx(tray.die_size, rel=0.15)
    tray.clear()
    watcher = ThrowWatcher(
        lambda frame: reader.read_roll(frame, calibration=calibration), SettleConfig(), calibration
    )

    def film(seconds: float) -> list[tuple[float, Roll]]:
        answers, end = [], now[0] + seconds
        while now[0] < end:
            frame = tray.read()
            answer = watcher.update(frame.image, frame.timestamp)
            if answer is not None:
                answers.append((now[0], answer))
            now[0] += 1 / FPS
        return answers

    assert film(1.0) == [] and watcher.state is SettleState.EMPTY
    for hazard in [None, None, hazards.NOT_MOVED, None]:
        tray.throw(hazard=hazard)
        started = now[0]
        answers = film(tray.settle_time + 1.5)
        assert len(answers) == 1
        when, answer = answers[0]
        # still_for, the votes, and a frame or two: a die's last creep, as small as a camera's
        # shake from one frame to the next, is caught against the still window's first frame
        assert when - (started + tray.settle_time) < 0.3 + 4 / FPS + 0.2
        if hazard is hazards.NOT_MOVED:
            assert answer.reason is RerollReason.NOT_MOVED
        elif answer.ok:
            assert sorted(answer.values) == sorted(tray.last_values)
