"""`azar-kiosk calibrate`: measure the empty tray and save the calibration the reader uses.

The same as the maintenance screen's "Calibrate the empty tray", for staff with a keyboard or
an SSH session: take a frame of the empty tray from the configured camera (or an image file),
find the tray floor, judge exposure and focus, and save it all in the data folder.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

WARM_UP_FRAMES = 10  # let exposure settle before the frame that is kept


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="calibrate the empty tray",
        description="Find the empty tray in the camera picture and save the calibration.",
    )
    parser.add_argument("--config", type=Path, help="TOML configuration file")
    parser.add_argument("--image", type=Path, help="use this photo of the empty tray instead")
    parser.add_argument("--data-dir", type=Path, help="where to save (default: the kiosk's)")
    parser.set_defaults(func=run)


def empty_frame(args: argparse.Namespace, config):
    import cv2

    if args.image is not None:
        image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read the image {args.image}")
        return image
    from hardware.camera import open_camera

    with open_camera(config.camera, config.simulated) as camera:
        frame = None
        for _ in range(WARM_UP_FRAMES):
            frame = camera.read()
            time.sleep(0.05)
        return frame.image


def run(args: argparse.Namespace) -> int:
    from kiosk.config import ConfigError, load_config
    from kiosk.logfile import data_dir
    from vision.calibrate import assess_image, calibrate
    from vision.calibration import CalibrationError

    try:
        config = load_config(args.config)
        image = empty_frame(args, config)
        calibration = calibrate(image)
        quality = assess_image(image, calibration.tray)
        folder = args.data_dir or data_dir(config.kiosk.data_dir)
        path = calibration.save(folder)
    except (ConfigError, CalibrationError, ValueError, OSError) as error:
        print(f"azar-kiosk calibrate: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # a camera that cannot be opened, with its own error type
        print(f"azar-kiosk calibrate: the camera failed: {error}", file=sys.stderr)
        return 1
    h, w = image.shape[:2]
    print(f"tray floor: {len(calibration.tray)} corners in a {w}x{h} picture")
    print(
        f"picture: {quality.verdict} (mean grey {quality.mean:.0f}, "
        f"sharpness {quality.sharpness:.1f})"
    )
    print(f"saved: {path}")
    return 0
