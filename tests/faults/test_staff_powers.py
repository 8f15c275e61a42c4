"""Staff powers for staff only: visitors pressing the three buttons (at random, for minutes)
cannot open maintenance, stop the kiosk, undo, correct or reopen a finished game; the staff get
in with the code from the config, and maintenance hands the table back to visitors by itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hardware.buttons import ButtonEvent
from kiosk.rules import find_variant
from kiosk.worker import Preview, RollRead
from vision.reading import Die, Roll

from .conftest import headless_kiosk
from .fakes import Clock


class StillCamera:
    """A worker stand-in with a working camera: one fixed preview, requests remembered."""

    camera_ok = True

    def __init__(self) -> None:
        image = np.full((90, 160, 3), 60, np.uint8)
        self._preview = Preview(image, 0.125, "settled", (), 0.0)
        self.requests: list[str] = []

    def preview(self):
        return self._preview

    def request(self, name: str) -> None:
        self.requests.append(name)


@pytest.fixture
def kiosk(tmp_path):
    k = headless_kiosk(tmp_path, StillCamera(), Clock())
    yield k
    k.log.close()


def press(kiosk, *buttons: str, kind: str = "press") -> None:
    for button in buttons:
        kiosk.events.put(ButtonEvent(button, kind, kiosk.clock()))
        kiosk.frame(1 / 30)


def read(kiosk, *values: int) -> None:
    dice = tuple(Die(v, (40.0 * i, 40.0), 20.0, 0.95) for i, v in enumerate(values))
    kiosk.events.put(RollRead(Roll(dice), kiosk.clock()))
    kiosk.frame(1 / 30)


def staff_code(kiosk) -> None:
    press(kiosk, "ok", kind="hold")
    press(kiosk, *kiosk.config.staff.presses)


def logged_kinds(kiosk) -> list[tuple[str, str]]:
    return [(e.kind, e.source) for g in kiosk.log.games() for e in g.events]


def test_visitors_cannot_undo_correct_or_reopen_a_finished_game(kiosk) -> None:
    kiosk.new_match(find_variant("azar"))
    read(kiosk, 2, 3, 4)  # 9: the opponent's chance
    press(kiosk, "left", "left", "right", "ok")  # undo twice, correct, enter by hand
    assert kiosk.match.throws == [(2, 3, 4)] and kiosk.scene.entry is None
    assert kiosk.scene.hints()[0] is None and kiosk.scene.hints()[2] is None
    read(kiosk, 6, 6, 6)  # a reazar: the caster loses, the game is over
    for _ in range(120):  # the last ruling stays up a few seconds, then the result
        kiosk.clock.t += 1 / 30
        kiosk.frame(1 / 30)
    assert kiosk.scene.name == "result"
    press(kiosk, "left")  # the result screen's undo is the staff's
    assert kiosk.scene.name == "result" and kiosk.match.is_over
    assert kiosk.scene.hints()[0] is None
    assert logged_kinds(kiosk) == [("throw", "camera"), ("throw", "camera")]


def test_a_hold_alone_a_wrong_code_or_a_late_code_opens_nothing(kiosk) -> None:
    kiosk.new_match(find_variant("azar"))
    code = kiosk.config.staff.presses
    press(kiosk, "ok", kind="hold")  # what visitors used to stumble on
    assert kiosk.scene.name == "play"
    press(kiosk, *code[:-1], "right" if code[-1] != "right" else "left")  # last press wrong
    assert kiosk.scene.name == "play" and not kiosk.staff
    staff_code(kiosk)  # at once again: a wrong code locks the next try for code_seconds
    assert not kiosk.staff
    kiosk.clock.t += kiosk.config.staff.code_seconds + 1
    press(kiosk, "ok", kind="hold")
    kiosk.clock.t += kiosk.config.staff.code_seconds + 1  # too slow
    press(kiosk, *code)
    assert not kiosk.staff
    kiosk.clock.t += kiosk.config.staff.code_seconds + 1
    staff_code(kiosk)
    assert kiosk.staff and kiosk.scene.name == "maintenance"


def test_maintenance_hands_the_table_back_to_visitors_when_left_alone(kiosk) -> None:
    kiosk.new_match(find_variant("azar"))
    staff_code(kiosk)
    assert kiosk.scene.name == "maintenance"
    kiosk.clock.t += kiosk.config.staff.idle_seconds + 1
    kiosk.frame(1 / 30)
    assert kiosk.scene.name == "play" and not kiosk.staff


def test_exit_and_calibrate_ask_for_a_second_press(kiosk) -> None:
    staff_code(kiosk)
    press(kiosk, "left", "ok")  # "Exit the kiosk"
    assert kiosk.running
    kiosk.clock.t += 5  # too late: asks again
    press(kiosk, "ok")
    assert kiosk.running
    press(kiosk, "ok")
    assert not kiosk.running


def test_exports_are_rate_limited_and_rotated(kiosk, tmp_path) -> None:
    staff_code(kiosk)
    while kiosk.scene.tool != "export":  # "Export the log"
        press(kiosk, "right")
    press(kiosk, "ok", "ok")
    assert len(list((tmp_path / "exports").glob("*.json"))) == 1  # the second came too soon
    assert "try again" in kiosk.scene.status
    kept = kiosk.config.staff.exports_kept
    for _ in range(kept + 3):
        kiosk.clock.t += 31
        press(kiosk, "right", "left")  # staff mode stays on while the staff press buttons
        kiosk.clock.t += 31
        (tmp_path / "exports" / "games-00000000-000000.json").write_text("[]")  # an old one
        press(kiosk, "ok")
    assert len(list((tmp_path / "exports").glob("games-*.json"))) == kept
    assert not (tmp_path / "exports" / "games-00000000-000000.json").exists()


def test_three_minutes_of_random_presses_leave_the_game_and_the_kiosk_alone(kiosk) -> None:
    """Ten presses a second on the three buttons, one in twenty a hold, with camera reads in
    between: the kiosk keeps running, nobody reaches staff mode, no undo or correction."""
    rng = random.Random(19)
    kiosk.new_match(find_variant("medio-azar"))
    reached_staff = False
    for i in range(180 * 10):
        kiosk.clock.t += 0.1
        kind = "hold" if rng.random() < 0.05 else "press"
        kiosk.events.put(ButtonEvent(rng.choice(("left", "ok", "right")), kind, kiosk.clock()))
        if i % 25 == 0:
            values = tuple(rng.randint(1, 6) for _ in range(3))
            dice = tuple(Die(v, (40.0 * j, 40.0), 20.0, 0.95) for j, v in enumerate(values))
            kiosk.events.put(RollRead(Roll(dice), kiosk.clock()))
        kiosk.frame(0.1)
        reached_staff |= kiosk.staff or kiosk.scene.name == "maintenance"
        assert kiosk.running
    assert not reached_staff
    kinds = {kind for kind, _ in logged_kinds(kiosk)}
    assert kinds <= {"throw", "choice"}, kinds  # calling Hazard's main is the players'
    sources = {source for _, source in logged_kinds(kiosk)}
    assert sources <= {"camera", "choice"}, sources  # no hand entry: the camera is working
