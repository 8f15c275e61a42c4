"""What the maintenance screen's camera tools tell staff of the kiosk's reader
(vision.reader.TrayReader): what it has learnt of dice at the tray's wall, and whether the
camera has moved since calibration (vision.tray_shift.FollowedCamera). Pure: a reader and the
translator in, a sentence out ("" where there is nothing to say)."""

from __future__ import annotations

from kiosk.i18n import N_, Translator

# What the reader has learnt of the dice at the tray's wall (vision.reader.TrayReader).
WALL_LEARNING = N_(
    "Dice at the wall showing 1, 2 or 3: learning their faces ({n} of {total} dice read)."
)
WALL_READ = N_("Dice at the wall: read.")
WALL_REFUSED = N_(
    "Dice at the wall showing 1, 2 or 3: always thrown again (these dice's faces measure loosely)."
)
# Where the camera is against the calibration (vision.tray_shift.FollowedCamera).
CAMERA_FOLLOWED = N_(
    "The camera has moved ({dx:+d}, {dy:+d}) px since calibration; the reader follows it. "
    "Calibrate again if it keeps moving."
)
CAMERA_TOO_FAR = N_(
    "The camera has moved too far since calibration: every roll is thrown again. Calibrate again."
)
CAMERA_LOST = N_(
    "The picture no longer matches the calibration (a turned camera, or something on the "
    "rim?). Calibrate again."
)


def wall_state(reader: object, tr: Translator) -> str:
    """Until the reader has learnt the tray's flat faces, every 1, 2 or 3 touching the wall is
    thrown again; after, it is read, or always thrown again where the faces measure loosely."""
    if reader is None or not hasattr(reader, "learning"):
        return ""
    if reader.learning is not None:
        read, needed = reader.learning
        return tr(WALL_LEARNING).format(n=read, total=needed)
    return tr(WALL_READ if reader.reads_wall else WALL_REFUSED)


def camera_state(reader: object, tr: Translator) -> str:
    """The camera followed (by how much), too far (every roll is thrown again), or the picture
    no longer matching the calibration at all."""
    camera = getattr(reader, "camera", None)
    if camera is None:
        return ""
    if camera.too_far:
        return tr(CAMERA_TOO_FAR)
    if camera.lost:
        return tr(CAMERA_LOST)
    dx, dy = camera.offset
    return tr(CAMERA_FOLLOWED).format(dx=dx, dy=dy) if dx or dy else ""
