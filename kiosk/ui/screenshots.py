"""Regenerate docs/screenshots/: every scene in every language at 800x480, and at 1920x1080.

Run with `scripts/screenshots` (or `python -m kiosk.ui.screenshots DIR`). The play screens show
a frame of the simulated tray read by the real dice reader, and games played through the real
rules engine, so the pictures show what the kiosk does, not a mock-up.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
from pathlib import Path
from types import SimpleNamespace

import pygame

from kiosk.gamelog import GameLog
from kiosk.i18n import LANGUAGES
from kiosk.rules.variants import find_variant
from kiosk.ui.scenes.attract import LANGUAGE_SECONDS
from kiosk.ui.scenes.rules import PAGES

# Every scene in every language on the official Pi display; at 1920x1080 in English only, to
# show the layout scaling without tripling the pictures kept in the repository
# (`--every-language` renders 1920x1080 in all three, for checking).
SIZES = {"": ((800, 480), LANGUAGES), "-1080p": ((1920, 1080), ("en",))}
# Throws that leave each game mid-way, with something to see.
AZAR_THROWS = [(2, 3, 4), (1, 3, 6), (6, 6, 4), (2, 2, 1)]
MEDIO_THROWS = [(5, 4, 3), (2, 2, 3), (6, 5, 6), (3, 3, 3), (2, 4, 5), (1, 6, 5)]
FINISHED = [(2, 3, 4), (1, 3, 6), (5, 4, 1)]  # Azar: chance 9 for the opponent, 10, then 10
# Medio azar: Player 1 casts, wins four azars, then Player 2's chance takes the prize of 3:
# Player 1 still comes out ahead by one.
MEDIO_FINISHED = [
    (5, 4, 3), (2, 2, 3), (6, 6, 6), (1, 1, 1), (6, 6, 5), (6, 6, 4), (3, 3, 3), (4, 4, 2),
    (3, 3, 3),
]  # fmt: skip


# Hazard (two dice): the main called (7), then 4 as the caster's chance, 9 and 6 do nothing.
HAZARD_MAIN = 7
HAZARD_THROWS = [(2, 2), (5, 4), (3, 3)]
HAZARD_FINISHED = [(2, 2), (5, 4), (1, 3)]  # 4 again: the chance comes before the main


class StillWorker:
    """A worker stand-in that shows one settled frame of the simulated tray, read for real."""

    def __init__(self, frame, roll) -> None:
        self.camera_ok = True
        self.moving_for: float | None = None  # seconds the tray has looked as if moving
        self.show(frame, roll)

    def show(self, frame, roll) -> None:
        from kiosk.worker import Preview

        if self.moving_for is None:
            self._preview = Preview(frame, 1.0, "settled", tuple(roll.dice), 1.0)
        else:
            self._preview = Preview(frame, 1.0, "moving", (), 1.0, self.moving_for)

    def preview(self):
        return self._preview

    def request(self, name: str) -> None:
        pass


class TrayPictures:
    """Settled pictures of the simulated tray showing given dice, each read by the real reader.

    None of it is drawn by hand: the tray renders the dice, the reader reads them.
    """

    def __init__(self, seed: int = 7) -> None:
        from hardware.sim import SimulatedTray

        config = SimpleNamespace(
            die_colour="#efe8d8",
            pip_colour="#1c1814",
            die_size=54,
            surface="felt",
            felt_colour="#1f5a3a",
            seed=seed,
        )
        self.t = 0.0
        self.tray = SimulatedTray.from_config(config, resolution=(1280, 720), clock=lambda: self.t)
        self.tray.open()
        self._pictures: dict[tuple, tuple] = {}

    def empty(self):
        """The settled tray with no dice: the simulated tray throws three dice, never two, so
        the Hazard screens show the tray as it is before a throw, not dice that lie."""
        from vision.reading import Roll

        if () not in self._pictures:
            self._pictures[()] = (self.tray.empty_frame(), Roll(()))
        return self._pictures[()]

    def picture(self, values: tuple[int, int, int]):
        from vision.reader import read_roll

        if values not in self._pictures:
            self.tray.throw(values=values)
            for _ in range(600):  # at most a minute of tray time
                self.t += 0.1
                if self.tray.settled:
                    break
            frame = self.tray.read().image
            self._pictures[values] = (frame, read_roll(frame))
        return self._pictures[values]


def tray_frame(seed: int = 7, values: tuple[int, int, int] = (4, 2, 6)):
    """One settled frame of the simulated tray and the reader's roll."""
    return TrayPictures(seed).picture(values)


def make_kiosk(size, language: str, worker):
    from kiosk.config import load_config
    from kiosk.table import Kiosk

    screen = pygame.Surface(size)
    config = load_config(None)
    kiosk = Kiosk(
        config,
        screen,
        GameLog(":memory:"),
        worker=worker,
        events=queue.Queue(),
        language=language,
        clock=lambda: 0.0,
    )
    kiosk.camera_ok = worker is not None
    return kiosk


def shots(kiosk, lang: str):
    """(name, setup) pairs: each setup puts the kiosk in the state to photograph."""

    def play(game, throws):
        def setup():
            kiosk.new_match(find_variant(game))
            for dice in throws:
                kiosk.match.throw(dice)
            kiosk.goto("play")

        return setup

    def hazard(throws, main=HAZARD_MAIN):
        def setup():
            kiosk.new_match(find_variant("hazard"))
            if main is not None:
                kiosk.match.choose(main)
                for dice in throws:
                    kiosk.match.throw(dice)
            kiosk.goto("play")

        return setup

    def then(setup, action):
        def both():
            setup()
            action()

        return both

    def scene(name, **attrs):
        def setup():
            kiosk.goto(name)
            for key, value in attrs.items():
                setattr(kiosk.scene, key, value)

        return setup

    entry = then(play("azar", AZAR_THROWS), lambda: kiosk.scene.start_entry("correct", [2, 2, 1]))

    def reroll():
        kiosk.scene.reroll = "cocked"

    def restless():
        """The tray has looked as if moving for longer than dice roll (a shaking table)."""
        if kiosk.worker is not None:
            kiosk.worker.moving_for = 12.0

    def idle():
        """Nobody has pressed for a while: the kiosk's own update puts the question up."""
        kiosk.last_activity = -(kiosk.config.kiosk.still_playing_seconds + 5)
        kiosk.update(1 / 30)

    def random_games():
        """Fill the log with games of random fair dice, so the statistics have data."""
        import random

        from kiosk.match import Match

        rng = random.Random(7)
        for _ in range(120):
            match = Match.start(find_variant("azar"), kiosk.log)
            while not match.is_over:
                match.throw(tuple(rng.randint(1, 6) for _ in range(3)))

    def result(game, throws):
        def setup():
            play(game, throws)()
            kiosk.goto("result")

        return setup

    def recent_throws():
        for seat, total in ((0, 9), (1, 12), (0, 4), (1, 10), (0, 10), (1, 7), (0, 11)):
            kiosk.scenes["attract"].remember(seat, total)

    def reveal():
        kiosk.scene.reveal = 2.0

    return [
        ("attract", scene("attract", _first=LANGUAGES.index(lang))),
        (
            "attract-read",
            then(recent_throws, scene("attract", _first=LANGUAGES.index(lang), age=2.6)),
        ),
        (  # the next language turn shows a fact; _first is set so that turn is in `lang`
            "attract-fact",
            scene("attract", _first=LANGUAGES.index(lang) - 1, age=LANGUAGE_SECONDS + 4.0),
        ),
        ("language", scene("language")),
        ("choose", scene("choose")),
        ("throw-azar", then(play("azar", AZAR_THROWS), reveal)),
        ("throw-medio-azar", then(play("medio-azar", MEDIO_THROWS[:5]), reveal)),
        ("play-azar", play("azar", AZAR_THROWS)),
        ("play-medio-azar", play("medio-azar", MEDIO_THROWS)),
        ("play-reroll", then(play("azar", AZAR_THROWS[:1]), reroll)),
        ("play-restless", then(play("azar", AZAR_THROWS[:1]), restless)),
        ("play-hazard-call", hazard([], main=None)),
        ("play-hazard-come-out", hazard([])),
        ("throw-hazard", then(hazard(HAZARD_THROWS[:1]), reveal)),
        ("play-hazard", hazard(HAZARD_THROWS)),
        ("play-correct", entry),
        ("still-playing", then(play("medio-azar", MEDIO_THROWS[:3]), idle)),
        ("result", result("azar", FINISHED)),
        ("result-medio-azar", result("medio-azar", MEDIO_FINISHED)),
        ("result-hazard", then(hazard(HAZARD_FINISHED), lambda: kiosk.goto("result"))),
        ("rules", scene("rules")),
        ("glossary", scene("rules", page=PAGES.index("glossary"))),
        ("history", scene("rules", page=PAGES.index("history"))),
        ("history-large", scene("rules", page=PAGES.index("history"), large=True)),
        ("odds", scene("rules", page=PAGES.index("odds"))),
        ("maintenance", then(random_games, scene("maintenance", selected=3))),
    ]


def generate(out: Path, only: str | None = None, every_language: bool = False) -> list[Path]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    out.mkdir(parents=True, exist_ok=True)
    pictures = TrayPictures()
    from kiosk.ui.scenes import facts

    facts.wait(120)  # the kiosk computes the odds at start; the pictures show them ready
    written = []
    for suffix, (size, languages) in SIZES.items():
        languages = LANGUAGES if every_language else languages
        for lang in languages:
            for name, _ in shots(make_kiosk(size, lang, None), lang):
                if only is not None and only not in name:
                    continue
                worker = StillWorker(*pictures.picture((4, 2, 6)))
                kiosk = make_kiosk(size, lang, worker)
                dict(shots(kiosk, lang))[name]()
                last = kiosk.match.last if kiosk.match is not None else None
                if kiosk.match is not None and kiosk.match.variant.dice != 3:
                    worker.show(*pictures.empty())
                elif last is not None:
                    worker.show(*pictures.picture(last.dice))  # the dice just read
                kiosk.set_language(lang)
                kiosk.render()
                path = out / f"{name}-{lang}{suffix}.png"
                save_png(kiosk.screen, path)
                written.append(path)
    return written


def save_png(surface: pygame.Surface, path: Path) -> None:
    """The screen as a PNG at zlib's best compression (pygame's default is larger)."""
    import cv2

    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_PNG_COMPRESSION, 9])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--only", help="only the screens whose name contains this")
    parser.add_argument(
        "--every-language", action="store_true", help="1920x1080 in every language too"
    )
    args = parser.parse_args(argv)
    paths = generate(args.out, args.only, args.every_language)
    print(f"{len(paths)} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
