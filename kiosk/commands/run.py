"""`azar-kiosk run`: the kiosk itself (full screen), or the demo with the simulated tray."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from kiosk.languages import LANGUAGES

log = logging.getLogger("kiosk")


class StopRequest:
    """systemd's SIGTERM, heeded from the first line of `run` on. systemd may stop a kiosk that
    is still starting (opening the camera, loading the models): the stop waits for the start to
    finish, then everything closes as after any other stop and the exit is 0."""

    def __init__(self) -> None:
        self.requested = False
        self.kiosk: Any = None

    def __call__(self, signum: int, frame: object) -> None:
        self.requested = True
        if self.kiosk is not None:
            self.kiosk.running = False  # the frame being drawn is finished, then the loop ends

    def attach(self, kiosk: Any) -> None:
        """The kiosk is built: a stop asked for meanwhile ends it before its first frame."""
        self.kiosk = kiosk
        if self.requested:
            kiosk.running = False

    def release(self) -> None:
        """Before the error screen, which has no loop to end: SIGTERM ends the process again."""
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 800x480") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"{text!r} is outside 320x240 .. 7680x4320")
    return width, height


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the kiosk",
        description="Run the kiosk. --demo needs no camera or buttons: the dice are simulated "
        "and the keyboard stands in for the buttons (arrows, Enter; F12 for maintenance).",
    )
    parser.add_argument("--demo", action="store_true", help="simulated dice tray and keyboard")
    parser.add_argument("--config", type=Path, help="TOML configuration file")
    parser.add_argument("--lang", choices=LANGUAGES, help="language shown first")
    parser.add_argument("--windowed", action="store_true", help="a window, not full screen")
    parser.add_argument("--size", type=size, help="screen or window size, e.g. 800x480")
    parser.add_argument(
        "--autoplay", action="store_true", help="throw the dice and press the buttons automatically"
    )
    parser.add_argument("--max-seconds", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--max-games", type=int, metavar="N", help="with --autoplay: stop after N games end"
    )
    parser.add_argument(
        "--screenshots", type=Path, metavar="DIR", help="save a PNG of every new screen in DIR"
    )
    parser.add_argument(
        "--speed", type=float, default=None, help="game clock speed (default 1; 4 with --autoplay)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    stop = StopRequest()
    signal.signal(signal.SIGTERM, stop)
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    log.info("starting the %s", "demo" if args.demo else "kiosk")
    from kiosk.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as error:
        log.error("configuration: %s", error)
        from kiosk.ui.errorscreen import show_error

        stop.release()
        if stop.requested:
            return 2
        show_error(str(error), args.size, args.windowed, args.max_seconds)
        return 2
    from kiosk import app, health
    from kiosk.logfile import data_dir

    # For the maintenance screen, across restarts: today's starts, and the errors from here on.
    health.record_start(data_dir(config.kiosk.data_dir))
    health.keep_errors(data_dir(config.kiosk.data_dir))
    speed = args.speed if args.speed is not None else (4.0 if args.autoplay else 1.0)
    windowed = True if args.windowed else None
    try:
        kiosk = app.build(
            config,
            demo=args.demo,
            size=args.size,
            windowed=windowed,
            language=args.lang,
            screenshots=args.screenshots,
            speed=speed,
        )
    except Exception as error:
        log.exception("cannot start the kiosk")
        from kiosk.ui.errorscreen import show_error

        stop.release()
        if stop.requested:
            return 1
        show_error(f"The kiosk cannot start: {error}", args.size, args.windowed, args.max_seconds)
        return 1
    stop.attach(kiosk)
    on_frame = None
    autoplay = None
    if args.autoplay:
        from kiosk.ui.autoplay import Autoplay

        autoplay = Autoplay(kiosk)

        def on_frame() -> None:
            autoplay.step()
            if args.max_games is not None and autoplay.games >= args.max_games:
                kiosk.running = False

    try:
        return kiosk.run(args.max_seconds, on_frame)
    except KeyboardInterrupt:
        return 0
    finally:
        if autoplay is not None:  # each game that ended, once: `history` lists them as over
            log.info("autoplay: %d games played to the end", autoplay.games)
        app.shutdown(kiosk)
