"""Headless scenes: button presses through the kiosk's queue, drawn on an off-screen surface."""

from __future__ import annotations

import queue

import numpy as np
import pygame
import pytest

from hardware.buttons import ButtonEvent
from kiosk.config import load_config
from kiosk.gamelog import GameLog
from kiosk.rules.variants import VARIANTS
from kiosk.table import Kiosk
from kiosk.worker import CameraStatus, Preview, RollRead
from tests.kiosk.tables import Clock, headless_table
from vision.reading import Die, RerollReason, Roll


class StillCamera:
    """A worker stand-in: one fixed preview, and the requests it was asked for."""

    def __init__(self) -> None:
        image = np.full((90, 160, 3), 60, np.uint8)
        self._preview = Preview(image, 0.125, "settled", (Die(4, (40.0, 40.0), 8.0, 0.9),), 0.0)
        self.requests: list[str] = []

    def preview(self):
        return self._preview

    def request(self, name: str) -> None:
        self.requests.append(name)


@pytest.fixture
def kiosk(tmp_path):
    return headless_table(tmp_path, worker=StillCamera())


def press(kiosk: Kiosk, *buttons: str, kind: str = "press") -> None:
    for button in buttons:
        kiosk.events.put(ButtonEvent(button, kind, kiosk.clock()))
        kiosk.frame(0.0)


def staff(kiosk: Kiosk) -> None:
    """The staff's way in: hold ok, then the code from the config (maintenance opens)."""
    press(kiosk, "ok", kind="hold")
    press(kiosk, *kiosk.config.staff.presses)
    assert kiosk.staff and kiosk.scene.name == "maintenance"


def staff_at_the_game(kiosk: Kiosk) -> None:
    """Staff mode on, back on the game's screen (maintenance's "Back to the game")."""
    staff(kiosk)
    press(kiosk, "left", "left", "ok")
    assert kiosk.staff and kiosk.scene.name != "maintenance"


def roll(*values: int) -> RollRead:
    dice = tuple(Die(v, (10.0 * i, 10.0), 8.0, 0.95) for i, v in enumerate(values))
    return RollRead(Roll(dice), 0.0)


def test_attract_to_a_game_with_the_three_buttons(kiosk) -> None:
    kiosk.frame(0.0)
    assert kiosk.scene.name == "attract"
    press(kiosk, "ok")
    assert kiosk.scene.name == "language"
    press(kiosk, "right", "right", "ok")  # from English, wrapping: French, then Spanish
    assert kiosk.tr.language == "es"
    assert kiosk.scene.name == "choose"
    rows = kiosk.scene.rows
    medio = next(i for i, v in enumerate(rows) if getattr(v, "game", "") == "medio-azar")
    press(kiosk, *["right"] * medio, "ok")
    assert kiosk.scene.name == "play"
    assert kiosk.match.variant.game == "medio-azar"


def start(kiosk, game: str = "azar") -> None:
    kiosk.new_match(next(v for v in VARIANTS if v.game == game))
    kiosk.frame(0.0)


def test_a_camera_read_is_ruled_logged_and_explained(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.match.throws == [(2, 3, 4)]
    logged = kiosk.log.game(kiosk.match.game_id).events
    assert [(e.kind, e.dice, e.source) for e in logged] == [("throw", (2, 3, 4), "camera")]
    assert logged[0].ruling == kiosk.match.last.ruling.key


def test_reroll_is_explained_and_nothing_is_logged(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(RollRead(Roll((), RerollReason.COCKED), 0.0))
    kiosk.frame(0.0)
    assert kiosk.scene.reroll == "cocked"
    assert kiosk.match.throws == []
    assert kiosk.log.game(kiosk.match.game_id).events == ()


def test_reads_after_the_end_are_refused(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(roll(6, 6, 6))  # an azar on the first throw: the game is over
    kiosk.events.put(roll(1, 2, 3))
    kiosk.frame(0.0)
    assert kiosk.match.throws == [(6, 6, 6)]
    assert kiosk.match.is_over
    for _ in range(120):  # the last ruling stays a moment, then the result
        kiosk.frame(1 / 30)
    assert kiosk.scene.name == "result"


def test_referee_corrects_the_last_read_with_the_buttons(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    staff_at_the_game(kiosk)
    press(kiosk, "right")  # correct: the entry starts from the dice as read
    assert kiosk.scene.entry == [2, 3, 4]
    press(kiosk, "right", "ok", "ok", "left", "ok")  # 3, 3, 3
    assert kiosk.scene.entry is None
    assert kiosk.match.throws == [(3, 3, 3)]
    kinds = [e.kind for e in kiosk.log.game(kiosk.match.game_id).events]
    assert kinds == ["throw", "correction"]
    assert kiosk.log.game(kiosk.match.game_id).events[1].source == "staff"


def test_undo_needs_two_presses(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    staff_at_the_game(kiosk)
    press(kiosk, "left")
    assert kiosk.match.throws == [(2, 3, 4)]
    press(kiosk, "left")
    assert kiosk.match.throws == []


def test_lost_camera_switches_to_manual_entry(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(CameraStatus(False, "unplugged"))
    kiosk.frame(1 / 30)
    assert kiosk.scene.entry is not None and kiosk.scene.entry_purpose == "manual"
    press(kiosk, "right", "ok", "right", "ok", "right", "ok")  # 2, 2, 2
    assert kiosk.match.throws == [(2, 2, 2)]
    assert kiosk.log.game(kiosk.match.game_id).events[0].source == "manual"


def test_idle_asks_then_returns_to_attract_and_abandons(kiosk) -> None:
    start(kiosk)
    game_id = kiosk.match.game_id
    cfg = kiosk.config.kiosk
    kiosk.test_clock.t = cfg.still_playing_seconds + 1
    kiosk.frame(1 / 30)
    assert kiosk.still_playing.asking
    press(kiosk, "left")  # any button answers, and does nothing else
    assert not kiosk.still_playing.asking and kiosk.scene.name == "play"
    kiosk.test_clock.t += cfg.idle_seconds + 1
    kiosk.frame(1 / 30)
    assert kiosk.scene.name == "attract"
    assert kiosk.log.game(game_id).status == "abandoned"


def test_a_throw_read_while_idle_asks_puts_the_game_back_on_screen(kiosk) -> None:
    start(kiosk)
    kiosk.test_clock.t = kiosk.config.kiosk.still_playing_seconds + 1
    kiosk.frame(1 / 30)
    assert kiosk.still_playing.asking
    kiosk.events.put(roll(2, 3, 4))  # the players threw instead of pressing a button
    kiosk.frame(1 / 30)
    assert kiosk.match.throws == [(2, 3, 4)]
    assert not kiosk.still_playing.asking


def test_the_staff_code_opens_maintenance_and_a_hold_closes_it(kiosk) -> None:
    start(kiosk)
    staff(kiosk)
    press(kiosk, "right", "ok")  # calibrate asks for a second ok...
    assert kiosk.worker.requests == []
    press(kiosk, "ok")  # ...then asks the worker, which answers later
    assert kiosk.worker.requests == ["calibrate"]
    press(kiosk, "ok", kind="hold")
    assert kiosk.scene.name == "play" and not kiosk.staff


def test_export_writes_json_and_csv(kiosk, tmp_path) -> None:
    start(kiosk)
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    staff(kiosk)
    while kiosk.scene.tool != "export":
        press(kiosk, "right")
    press(kiosk, "ok")
    exports = sorted(p.suffix for p in (tmp_path / "exports").iterdir())
    assert exports == [".csv", ".json"]


def test_a_failing_scene_shows_a_calm_message_not_a_traceback(kiosk, monkeypatch) -> None:
    start(kiosk)

    def broken(*args):
        raise RuntimeError("bug")

    monkeypatch.setattr(kiosk.scenes["play"], "draw", broken)
    kiosk.frame(0.0)  # must not raise
    assert kiosk.notice
    assert kiosk.scene.name == "play"


def test_button_storm_never_crashes(kiosk) -> None:
    import random

    rng = random.Random(5)
    for _ in range(600):
        kind = "hold" if rng.random() < 0.05 else "press"
        kiosk.events.put(ButtonEvent(rng.choice(("left", "ok", "right")), kind, 0.0))
        if rng.random() < 0.2:
            kiosk.events.put(roll(*(rng.randint(1, 6) for _ in range(3))))
        kiosk.frame(1 / 30)
    assert kiosk.notice is None  # no scene ever failed


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize(
    "name", ["attract", "language", "choose", "play", "result", "rules", "maintenance"]
)
def test_every_scene_draws_at_both_sizes(kiosk, name, size) -> None:
    kiosk.screen = pygame.Surface(size)
    from kiosk.ui.layout import Layout

    kiosk.layout = Layout(*size)
    start(kiosk)
    kiosk.match.throw((6, 6, 6))
    kiosk.goto(name)
    kiosk.frame(0.0)
    assert kiosk.notice is None
    # something was drawn beyond the background
    assert pygame.transform.average_color(kiosk.screen) != (24, 20, 16, 255)


def test_real_gpio_buttons_drive_the_kiosk(kiosk) -> None:
    """gpiozero's mock pins, wired as on the Pi: a press on the ok pin leaves the attract loop."""
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import GpioButtons

    factory = MockFactory()
    clock = Clock()
    config = kiosk.config.buttons
    buttons = GpioButtons(
        config, kiosk.events, pin_factory=factory, clock=clock, poll_interval=None
    )
    try:
        pin = factory.pin(config.ok_pin)
        pin.drive_low()  # pressed (pulled to ground)
        clock.t = 0.2
        pin.drive_high()  # released: a short press
        kiosk.frame(0.0)
        assert kiosk.scene.name == "language"
    finally:
        buttons.close()


def test_a_restarted_kiosk_resumes_the_game_in_its_language(kiosk, tmp_path) -> None:
    kiosk.set_language("es")
    start(kiosk, "medio-azar")
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    kiosk.log.close()  # the power goes; the kiosk starts again on the same folder
    again = Kiosk(
        load_config(None),
        pygame.Surface((800, 480)),
        GameLog.in_dir(tmp_path),
        worker=StillCamera(),
        events=queue.Queue(),
        clock=Clock(),
    )
    assert again.scene.name == "play"
    assert again.tr.language == "es"
    assert again.match.throws == [(2, 3, 4)]


def test_camera_back_resumes_reading_unless_a_referee_is_entering(kiosk) -> None:
    start(kiosk)
    kiosk.events.put(CameraStatus(False, "unplugged"))
    kiosk.frame(1 / 30)
    assert kiosk.scene.entry is not None
    kiosk.events.put(CameraStatus(True))
    kiosk.frame(1 / 30)
    assert kiosk.scene.entry is None  # nobody had started: the camera reads again
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.match.throws == [(2, 3, 4)]

    kiosk.events.put(CameraStatus(False, "unplugged"))
    kiosk.frame(1 / 30)
    press(kiosk, "right")  # a referee starts entering
    kiosk.events.put(CameraStatus(True))
    kiosk.frame(1 / 30)
    assert kiosk.scene.entry == [2, 1, 1]  # their entry is kept


class Lights:
    def __init__(self) -> None:
        self.turns: list = []

    def show_turn(self, seat) -> None:
        self.turns.append(None if seat is None else int(seat))

    def waiting(self, on: bool) -> None:
        pass


def test_the_lights_follow_whose_throw_it_is(kiosk) -> None:
    kiosk.lights = Lights()
    start(kiosk, "medio-azar")  # throw-off: player 1, then player 2
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.lights.turns[-2:] == [0, 1]
    press(kiosk, "left", kind="hold")  # leave the game
    assert kiosk.lights.turns[-1] is None


def test_keyboard_plays_like_the_buttons(kiosk) -> None:
    """The demo's keyboard: Enter leaves the attract loop, arrows and Enter pick and start."""
    from hardware.keys import KeyButtons

    kiosk.keys = KeyButtons(kiosk.config.buttons.hold_seconds, 800)
    pygame.event.clear()

    def key(code) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code))
        kiosk.frame(0.0)

    key(pygame.K_RETURN)
    assert kiosk.scene.name == "language"
    key(pygame.K_RIGHT)
    key(pygame.K_RETURN)
    assert kiosk.scene.name == "choose" and kiosk.tr.language == "fr"
    key(pygame.K_SPACE)
    assert kiosk.scene.name == "play"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
    kiosk.frame(0.0)
    assert kiosk.scene.name == "play"  # a kiosk's keyboard has no staff shortcut...
    kiosk.keys = KeyButtons(kiosk.config.buttons.hold_seconds, 800, shortcuts=True)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
    kiosk.frame(0.0)
    assert kiosk.scene.name == "maintenance" and kiosk.staff  # ...the demo's has


def test_referee_enters_a_throw_by_hand_with_ok(kiosk) -> None:
    start(kiosk)
    press(kiosk, "ok")  # a visitor with the camera working cannot enter dice by hand
    assert kiosk.scene.entry is None
    staff_at_the_game(kiosk)
    press(kiosk, "right")  # nothing to correct yet: nothing happens
    assert kiosk.scene.entry is None
    press(kiosk, "ok", "ok", "ok", "right", "ok")  # 1, 1, 2
    assert kiosk.match.throws == [(1, 1, 2)]
    assert kiosk.match.last.source == "manual"


def test_calibration_from_the_maintenance_screen_is_saved_and_used(kiosk, tmp_path) -> None:
    from kiosk.reading import calibrate_and_judge
    from kiosk.ui.screenshots import TrayPictures
    from kiosk.worker import ToolResult
    from vision.calibration import Calibration

    pictures = TrayPictures()
    pictures.tray.clear()  # an empty tray
    empty = pictures.tray.read().image
    staff(kiosk)
    press(kiosk, "right", "ok", "ok")  # calibrate, confirmed
    assert kiosk.worker.requests == ["calibrate"]
    kiosk.events.put(ToolResult("calibrate", True, calibrate_and_judge(empty)))  # the answer
    kiosk.frame(0.0)
    assert kiosk.scene.status.startswith("Calibrated.")
    saved = Calibration.load(tmp_path)
    assert saved is not None and saved.tray is not None
    assert kiosk.worker.watcher is not None


def test_an_uncalibrated_tray_is_shown_to_staff_until_calibrated(kiosk, monkeypatch) -> None:
    from vision.calibration import Calibration

    shown: list[str] = []
    from kiosk.ui import draw

    real_paragraph = draw.paragraph

    def record(surface, layout, text, *args, **kwargs):
        shown.append(text)
        return real_paragraph(surface, layout, text, *args, **kwargs)

    monkeypatch.setattr(draw, "paragraph", record)
    warning = "The tray is not calibrated. Staff: hold OK, then calibrate."
    kiosk.uncalibrated = True
    kiosk.draw_notices()
    assert warning in shown
    tray = np.array([[10, 10], [150, 10], [150, 80], [10, 80]], np.int32)
    empty = np.full((90, 160, 3), 60, np.uint8)
    assert kiosk.apply_calibration(Calibration(tray, None, empty)) == "Calibrated."
    shown.clear()
    kiosk.draw_notices()
    assert not kiosk.uncalibrated and warning not in shown


def test_an_uncalibrated_tray_rules_nothing_its_throws_are_entered_by_hand(kiosk, drawn) -> None:
    """Without the tray's outline the reader cannot tell a die leaning on the wall: a camera
    read then rules nothing, the dice are entered with the buttons (the screen says why), and
    once staff calibrate, an entry nobody has started gives way to the camera again."""
    from vision.calibration import Calibration

    kiosk.uncalibrated = True
    start(kiosk)
    kiosk.events.put(roll(2, 3, 4))
    kiosk.frame(1 / 30)
    assert kiosk.match.throws == []  # the read was not taken
    assert kiosk.scene.entry is not None and kiosk.scene.entry_purpose == "manual"
    kiosk.render()
    assert "Tray not calibrated: enter the dice with the buttons." in drawn
    press(kiosk, "right", "ok", *["right"] * 3, "ok", *["right"] * 3, "ok")  # 2, 4, 4
    assert kiosk.match.throws == [(2, 4, 4)] and not kiosk.match.is_over
    assert kiosk.log.game(kiosk.match.game_id).events[0].source == "manual"

    kiosk.frame(1 / 30)
    assert kiosk.scene.entry is not None  # the next throw is entered by hand too
    tray = np.array([[10, 10], [150, 10], [150, 80], [10, 80]], np.int32)
    empty = np.full((90, 160, 3), 60, np.uint8)
    assert kiosk.apply_calibration(Calibration(tray, None, empty)) == "Calibrated."
    kiosk.frame(1 / 30)
    assert kiosk.scene.entry is None  # nobody had started entering: the camera rules again
    kiosk.events.put(roll(5, 5, 6))
    kiosk.frame(0.0)
    assert kiosk.match.throws == [(2, 4, 4), (5, 5, 6)]


def test_autoplay_counts_a_finished_game_once_however_many_presses_it_takes(kiosk) -> None:
    from kiosk.ui.autoplay import Autoplay

    autoplay = Autoplay(kiosk)
    start(kiosk)
    kiosk.events.put(roll(6, 6, 6))  # an azar on the first throw: the game is over
    kiosk.frame(0.0)
    for _ in range(120):  # the last ruling stays a moment, then the result
        kiosk.test_clock.t += 1 / 30
        kiosk.frame(1 / 30)
    assert kiosk.scene.name == "result"
    # Nobody pressed for a while (a stalled machine, at the demo's fast clock): the first press
    # on the result screen only answers "still playing?", the second one leaves it.
    kiosk.test_clock.t += kiosk.config.kiosk.still_playing_seconds + 1
    kiosk.frame(1 / 30)
    assert kiosk.still_playing.asking
    for _ in range(200):
        autoplay.step()
        kiosk.test_clock.t += 0.1
        kiosk.frame(0.1)
        if kiosk.scene.name != "result":
            break
    assert kiosk.scene.name == "choose"
    assert kiosk.log.counts() == {"over": 1}
    assert autoplay.games == 1


def camera_view(kiosk, monkeypatch, lang: str) -> list[str]:
    """Staff on the maintenance camera view in `lang`; the list is filled, from now on, with
    every string drawn as a line of text."""
    from kiosk.ui import draw

    drawn: list[str] = []
    real = draw.text
    monkeypatch.setattr(
        draw,
        "text",
        lambda s, lay, string, *a, **k: drawn.append(string) or real(s, lay, string, *a, **k),
    )
    staff(kiosk)
    kiosk.set_language(lang)
    kiosk.scene.selected = 0  # the camera view
    return drawn


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "come to rest"), ("fr", "arrêtés"), ("es", "parado")]
)
def test_the_camera_view_says_what_the_tray_does_in_plain_words(kiosk, monkeypatch, lang, words):
    """A visitor may glimpse the maintenance screen: no state names such as "settled"."""
    drawn = camera_view(kiosk, monkeypatch, lang)
    kiosk.render()
    assert any(words in string for string in drawn), drawn
    assert not any("settled" in string for string in drawn)


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "shaking"), ("fr", "tremble"), ("es", "tiembla")]
)
def test_the_camera_view_asks_whether_a_restless_tray_shakes(kiosk, monkeypatch, lang, words):
    """Past RESTLESS_SECONDS of motion the camera view asks the technician's question."""
    from dataclasses import replace

    from kiosk.worker import RESTLESS_SECONDS

    drawn = camera_view(kiosk, monkeypatch, lang)
    worker = kiosk.worker
    worker._preview = replace(worker._preview, motion="moving", moving_for=RESTLESS_SECONDS - 1)
    kiosk.render()
    assert not any(words in string for string in drawn)
    worker._preview = replace(worker._preview, moving_for=RESTLESS_SECONDS + 2.4)
    kiosk.render()
    assert any(words in string and "12" in string for string in drawn), drawn
