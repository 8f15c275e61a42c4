"""`azar-kiosk read`: read the dice in photos, one line per image (or one JSON object).

Exit code 0 when every image could be opened (whatever the dice said), 1 when one could not
(each such image gets its message; the others are still read), 2 for bad arguments. A file is
measured from its header before it is decoded: one too large is refused, a large one decoded
reduced (vision/image.py), so no photo can exhaust the memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "read",
        help="read the dice in photos",
        description="Read the dice in each IMAGE and print the roll, or why it must be thrown "
        "again.",
    )
    parser.add_argument("images", metavar="IMAGE", nargs="+", help="photo files (jpg, png...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--expect",
        default="3",
        type=_expect,
        help="number of dice the roll must have, or 'any' (default: 3)",
    )
    parser.add_argument(
        "--debug-dir", type=Path, help="write each image annotated with what was found here"
    )
    parser.set_defaults(func=run)


def _expect(text: str) -> int | None:
    if text.lower() == "any":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of dice or 'any', got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError("the number of dice must be at least 1")
    return value


def roll_json(image: str, roll) -> dict:
    """The fixed JSON shape of one read."""
    return {"image": image, **answer_fields(roll)}


def answer_fields(roll) -> dict:
    """A roll as JSON fields (status, reason, dice, sum), shared with `azar-kiosk watch`."""
    return {
        "status": roll.status,
        "reason": None if roll.ok else str(roll.reason),
        "dice": [
            {
                "value": die.value,
                "center": [die.center[0], die.center[1]],
                "size": die.size,
                "confidence": die.confidence,
            }
            for die in roll.dice
        ],
        "sum": roll.total,
    }


def roll_line(image: str, roll) -> str:
    if roll.ok:
        values = " ".join(str(v) for v in roll.values)
        return f"{image}: ok {values} (sum {roll.total})"
    return f"{image}: reroll, {roll.reason} ({roll.detail})"


def in_file_pixels(roll, scale: int):
    """The roll with positions and sizes from a reduced decode back in the file's pixels."""
    if scale == 1:
        return roll
    from dataclasses import replace

    dice = tuple(
        replace(d, center=(d.center[0] * scale, d.center[1] * scale), size=d.size * scale)
        for d in roll.dice
    )
    return replace(roll, dice=dice)


def debug_folder(folder: Path | None) -> bool:
    """Make the --debug-dir folder (if one is asked for); False, said on stderr, if it cannot
    be made."""
    if folder is None:
        return True
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"cannot create {folder}: {error.strerror}", file=sys.stderr)
        return False
    return True


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.debug import annotate
    from vision.image import ImageFileError, load_image
    from vision.reader import inspect

    if not debug_folder(args.debug_dir):
        return 1
    failed = False
    for image in args.images:
        try:
            photo = load_image(image)
        except ImageFileError as error:
            print(f"{image}: cannot read ({error})", file=sys.stderr)
            failed = True
            continue
        frame = photo.frame
        roll, readings = inspect(frame, expect=args.expect)
        roll = in_file_pixels(roll, photo.scale)
        print(
            json.dumps(roll_json(image, roll)) if args.json else roll_line(image, roll), flush=True
        )
        if args.debug_dir is not None:
            target = args.debug_dir / (Path(image).stem + ".debug.png")
            if not cv2.imwrite(str(target), annotate(frame, readings, roll)):
                print(f"cannot write {target}", file=sys.stderr)
                failed = True
    return 1 if failed else 0
