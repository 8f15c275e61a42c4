"""What the maintenance screen's camera tools tell staff of the kiosk's reader
(vision.tray_reader.TrayReader): what it has learnt of the dice's top faces, and whether the
camera has moved since calibration (vision.tray_shift.FollowedCamera). Pure: a reader and the
translator in, a sentence out ("" where there is nothing to say)."""

from __future__ import annotations

import math

from kiosk.i18n import N_, Translator

# What the reader has learnt of the dice's top faces (vision.tray_reader.TrayReader).
FACES_LEARNING = N_("Learning the size of the dice's top faces ({n} of {total} dice read).")
FACES_LEARNT = N_("The dice's top faces measure {px} px a side.")
FACES_SMALL = N_(
    "The dice's top faces measure {px} px a side, too small to tell a leaning die: "
    "bring the camera closer ({least} px or more)."
)
FACES_LOOSE = N_(
    "The dice's top faces measure {px} px a side, their pips roughly: a die leaning under "
    "{degrees} degrees counts as flat."
)
# Where the camera is against the calibration (vision.tray_shift.FollowedCamera).
CAMERA_FOLLOWED = N_(
    "The camera has moved ({dx:+d}, {dy:+d}) px since calibration; the reader follows it. "
    "Calibrate again if it keeps moving."
)
CAMERA_TOO_FAR = N_(
    "The camera has moved too far since calibration: every roll is thrown again. Calibrate again."
)
CAMERA_ASKEW = N_(
    "Flat dice's pips look {ratio} times longer one way: is the camera square to the tray?"
)
CAMERA_LOST = N_(
    "The picture no longer matches the calibration (a turned camera, or something on the "
    "rim?). Calibrate again."
)


LEAST_FACE = 40  # px a side: the camera guide's least (docs/deploy.md). Smaller, a flat die's
# pips and layout measure as long as a leaning one's: on byler-d6-topdown's light box (faces
# of 26-28 px, benchmarks/eval_kiosk_photos.py) a tenth to a quarter of the flat dice beside
# another or the wall are thrown again as leaning, with the leaning limits learnt at or near
# their ceiling (a third to a half held to the simulated tray's); on the simulated tray (54 px)
# flat dice measure 1.02 at most.


def faces_state(reader: object, tr: Translator) -> str:
    """How far the reader has learnt the size of the tray's flat top faces, to which it then
    holds every face (a leaning die's is not of that size), and what it measured: a size far
    from the dice's tells staff the camera or the calibration is not what they think, and
    faces under LEAST_FACE px that the camera is too far for the reader to tell a leaning die
    from a flat one (it then throws flat dice again)."""
    if reader is None or not hasattr(reader, "learning"):
        return ""
    if reader.learning is not None:
        read, needed = reader.learning
        return tr(FACES_LEARNING).format(n=read, total=needed)
    size = getattr(reader, "face_size", None)
    if size is None:
        return ""
    if size < LEAST_FACE:
        return tr(FACES_SMALL).format(px=round(size), least=LEAST_FACE)
    tilt = least_tilt(reader)
    if tilt is not None and tilt > LOOSE_TILT:
        return tr(FACES_LOOSE).format(px=round(size), degrees=round(tilt))
    return tr(FACES_LEARNT).format(px=round(size))


LOOSE_TILT = 20.0  # degrees: a reader whose leaning limits let flat dice's pips and layouts
# look longer than a tilt of this much (1/cos 20 = 1.064, the simulated tray's rim leans dice
# 20-34 degrees) has widened them to what this camera measures (TrayReader.tilt_limits)


def least_tilt(reader: object) -> float | None:
    """The least tilt (degrees) the reader takes a die to lean by, from its leaning limits: a
    face tilted by t shows its pips and layout 1/cos t long; None for a reader without them."""
    limits = getattr(reader, "tilt_limits", None)
    if limits is None:
        return None
    return math.degrees(math.acos(1.0 / max(limits)))


ASKEW = 1.025  # pips of flat dice this long (their median) say the camera looks askew:
# half-way from round (flat dice's on the simulated tray, a camera square to it: 1.00-1.02)
# to `pips.cocked_pips` (1.04), past which dice showing 1-3 are thrown again as leaning


def camera_state(reader: object, tr: Translator) -> str:
    """The camera followed (by how much), too far (every roll is thrown again), the picture
    no longer matching the calibration at all, or a camera not square to the tray (the pips
    of flat dice look long: vision.tray_reader.TrayReader.pip_shape)."""
    camera = getattr(reader, "camera", None)
    if camera is None:
        return ""
    if camera.too_far:
        return tr(CAMERA_TOO_FAR)
    if camera.lost:
        return tr(CAMERA_LOST)
    dx, dy = camera.offset
    if dx or dy:
        return tr(CAMERA_FOLLOWED).format(dx=dx, dy=dy)
    shape = getattr(reader, "pip_shape", None)
    size = getattr(reader, "face_size", None)
    if size is not None and size < LEAST_FACE:
        return ""  # such small pips look long from any camera: faces_state says so
    if shape is not None and shape > ASKEW:
        return tr(CAMERA_ASKEW).format(ratio=tr.decimal(shape, 2))
    return ""
