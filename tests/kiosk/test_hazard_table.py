"""Hazard at the kiosk: the main called with the buttons, two dice read and entered, the log."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from hardware.buttons import ButtonEvent
from kiosk.config import load_config, parse_config
from kiosk.rules import find_variant
from kiosk.table import Kiosk
from kiosk.ui import explain
from kiosk.ui.scenes.choose import menu
from kiosk.worker import Preview, RollRead
from tests.kiosk.tables import headless_table
from vision.reading import Die, RerollReason, Roll


class Worker:
    """A worker stand-in with a watcher the kiosk may replace, and one fixed preview."""

    def __init__(self) -> None:
        image = np.full((90, 160, 3), 60, np.uint8)
        self._preview = Preview(image, 0.125, "settled", (), 0.0)
        self.watcher = None

    def preview(self):
        return self._preview

    def request(self, name: str) -> None:
        pass


def make_kiosk(folder, tray=None) -> Kiosk:
    return headless_table(folder, worker=Worker(), tray=tray)


@pytest.fixture
def kiosk(tmp_path) -> Kiosk:
    return make_kiosk(tmp_path)


def press(kiosk: Kiosk, *buttons: str, kind: str = "press") -> None:
    for button in buttons:
        kiosk.events.put(ButtonEvent(button, kind, kiosk.clock()))
        kiosk.frame(0.0)


def roll(*values: int) -> RollRead:
    dice = tuple(Die(v, (30.0 * i, 10.0), 8.0, 0.95) for i, v in enumerate(values))
    return RollRead(Roll(dice), 0.0)


def staff_at_the_game(kiosk: Kiosk) -> None:
    """Staff mode on (hold ok, then the code), back on the game's screen: undo is the staff's."""
    press(kiosk, "ok", kind="hold")
    press(kiosk, *kiosk.config.staff.presses)
    press(kiosk, "left", "left", "ok")  # maintenance: "Back to the game"
    assert kiosk.staff and kiosk.scene.name == "play"


def start_hazard(kiosk: Kiosk) -> None:
    kiosk.frame(0.0)
    press(kiosk, "ok", "ok")  # attract, then English
    rows = kiosk.scene.rows
    hazard = next(i for i, v in enumerate(rows) if getattr(v, "game", "") == "hazard")
    press(kiosk, *["right"] * hazard, "ok")
    assert kiosk.scene.name == "play" and kiosk.match.variant.game == "hazard"


def test_hazard_is_on_the_menu_and_readings_without_a_source_are_not() -> None:
    labels = [v.label for v in menu(load_config(None))]
    assert labels == ["azar/card", "medio-azar/card", "hazard/called-main"]
    extras = "hazard/thrown-main, azar/rethrow"  # staff may add any reading
    labels = [v.label for v in menu(parse_config({"game": {"menu_variants": extras}}))]
    assert labels[-2:] == ["hazard/thrown-main", "azar/rethrow"]


def test_the_main_is_called_with_the_buttons_then_two_dice_are_read(kiosk) -> None:
    start_hazard(kiosk)
    assert kiosk.scene.hints()[1] == "Call 7"  # 7, the caster's best, is shown first
    kiosk.events.put(roll(3, 4))  # dice before the main is called are not read
    kiosk.frame(0.0)
    assert kiosk.match.entries == []
    press(kiosk, "left")  # 6
    assert kiosk.scene.hints()[1] == "Call 6"
    press(kiosk, "ok")
    assert str(kiosk.match.last.ruling) == "hazard.main_called{main=6, seat=0}"
    kiosk.events.put(roll(6, 6))  # 12 nicks a main of 6
    kiosk.frame(0.0)
    assert str(kiosk.match.last.ruling) == "hazard.nick{total=12, main=6, seat=0}"
    assert kiosk.match.is_over and kiosk.match.state.ledger[kiosk.match.state.caster] == 1
    logged = kiosk.log.game(kiosk.match.game_id)
    assert logged.status == "over" and logged.reason == "hazard.won_by_nick"


def test_the_reader_is_asked_for_two_dice_in_hazard_and_three_again_after(kiosk) -> None:
    start_hazard(kiosk)
    assert kiosk.dice == 2
    assert kiosk.worker.watcher._read.expect == 2  # the TrayReader the watcher reads with
    kiosk.new_match(find_variant("azar"))
    assert kiosk.dice == 3 and kiosk.worker.watcher._read.expect == 3


def test_a_wrong_count_in_hazard_asks_for_two_dice(kiosk) -> None:
    start_hazard(kiosk)
    press(kiosk, "ok")
    kiosk.events.put(RollRead(Roll((), RerollReason.WRONG_COUNT, "3 dice, expected 2"), 0.0))
    kiosk.frame(0.0)
    surface = pygame.Surface((800, 480))
    kiosk.scene.draw(surface, kiosk.layout)  # draws without error
    assert kiosk.scene.reroll == "wrong_count"
    assert kiosk.scene.dice_count == 2


def test_two_dice_entered_by_hand_when_the_camera_is_gone(kiosk) -> None:
    start_hazard(kiosk)
    press(kiosk, "ok")  # call 7
    kiosk.camera_ok = False
    kiosk.frame(1 / 30)
    assert kiosk.scene.entry == [1, 1]
    press(kiosk, "right", "right", "ok", "right", "ok")  # 3 and 2: five, the chance
    assert kiosk.match.throws[-1] == (3, 2)
    assert str(kiosk.match.last.ruling) == "hazard.chance_set{total=5, main=7, seat=0}"


def test_a_hazard_game_resumes_after_a_power_cut_with_its_main(kiosk, tmp_path) -> None:
    start_hazard(kiosk)
    press(kiosk, "right", "ok")  # 8
    kiosk.events.put(roll(2, 3))  # 5: the chance
    kiosk.frame(0.0)
    kiosk.log.close()
    again = make_kiosk(tmp_path)
    assert again.scene.name == "play"
    assert again.match.state.main == 8 and again.match.state.chance == 5
    assert again.dice == 2
    again.events.put(roll(4, 4))  # the main: the caster loses
    again.frame(0.0)
    assert (
        again.match.is_over and str(again.match.last.ruling) == "hazard.main_loses{total=8, seat=0}"
    )


def test_undo_of_the_first_throw_returns_to_the_called_main_and_not_further(kiosk) -> None:
    start_hazard(kiosk)
    press(kiosk, "ok")
    kiosk.events.put(roll(1, 3))
    kiosk.frame(0.0)
    staff_at_the_game(kiosk)
    press(kiosk, "left", "left")  # undo, confirmed
    assert [e.source for e in kiosk.match.entries] == ["choice"]
    with pytest.raises(ValueError, match="no throw to correct"):
        kiosk.match.correct((2, 2))


def test_every_screen_of_a_hazard_game_draws(kiosk) -> None:
    start_hazard(kiosk)
    surface = pygame.Surface((800, 480))
    kiosk.scene.draw(surface, kiosk.layout)
    press(kiosk, "ok")
    kiosk.events.put(roll(2, 2))
    kiosk.frame(0.0)
    kiosk.scene.draw(surface, kiosk.layout)
    kiosk.goto("rules")
    for _ in range(5):
        kiosk.scene.draw(surface, kiosk.layout)
        press(kiosk, "right")


def test_a_called_main_is_undone_not_corrected(kiosk) -> None:
    start_hazard(kiosk)
    press(kiosk, "ok")
    staff_at_the_game(kiosk)
    assert kiosk.scene.hints()[2] is None  # no "Correct" for a called main
    press(kiosk, "right")
    assert kiosk.scene.entry is None
    press(kiosk, "left", "left")
    assert kiosk.match.entries == [] and kiosk.match.choice is not None


def test_the_throw_is_shown_big_but_the_called_main_is_not(kiosk) -> None:
    start_hazard(kiosk)
    press(kiosk, "ok")  # call 7
    assert kiosk.scene.reveal == 0  # the table stays: the main is no throw
    told = explain.next_throw(kiosk.tr, kiosk.match.state)
    assert told.startswith("The main is 7. Winning at once: 7, 11. Losing at once: 2, 3, 12.")
    kiosk.events.put(roll(2, 2))  # 4: the chance
    kiosk.frame(0.0)
    assert kiosk.scene.reveal > 0
    surface = pygame.Surface((800, 480))
    kiosk.scene.draw(surface, kiosk.layout)  # the two dice and the total, big


def test_a_hazard_game_ends_on_the_result_screen_naming_the_winner(kiosk) -> None:
    from kiosk.ui.verdict import verdict

    start_hazard(kiosk)
    press(kiosk, "ok")  # call 7
    kiosk.events.put(roll(6, 6))  # 12 is out to a main of 7: the setter wins
    kiosk.frame(0.0)
    assert kiosk.match.is_over
    for _ in range(120):  # the last throw stays on screen a moment, then the result
        kiosk.frame(1 / 30)
    assert kiosk.scene.name == "result"
    result = verdict(kiosk.match.state)
    assert result.ahead == 1 and result.reason == "hazard.lost_by_out"
    kiosk.scene.draw(pygame.Surface((800, 480)), kiosk.layout)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_plain_words_of_every_hazard_phase_are_translated(lang: str) -> None:
    from kiosk.i18n import Translator
    from kiosk.rules import Choice

    english, tr = Translator("en"), Translator(lang)
    variant = find_variant("hazard")
    states = [variant.new_game(), find_variant("hazard", "thrown-main").new_game()]
    states.append(states[0].apply(Choice(6))[0])
    states.append(states[-1].apply(variant.throw((2, 2)))[0])
    for state in states:
        assert explain.next_throw(tr, state) != explain.next_throw(english, state)


def test_in_the_demo_hazard_dice_are_entered_by_hand_by_a_visitor(tmp_path) -> None:
    class ThreeDiceTray:  # the demo's simulated tray throws three dice: never asked here
        def throw(self) -> None:
            raise AssertionError("the three-dice tray was thrown for Hazard")

    kiosk = make_kiosk(tmp_path, tray=ThreeDiceTray())
    start_hazard(kiosk)
    press(kiosk, "ok")  # call 7
    assert not kiosk.staff and kiosk.scene.hints()[1] == "Enter dice"
    press(kiosk, "ok")
    assert kiosk.scene.entry == [1, 1]


def test_a_read_of_three_dice_in_hazard_is_a_rethrow_not_a_crash(kiosk) -> None:
    start_hazard(kiosk)
    press(kiosk, "ok")  # call 7
    kiosk.events.put(roll(6, 4, 3))  # a reader still counting three
    kiosk.frame(0.0)
    assert [e.source for e in kiosk.match.entries] == ["choice"]
    assert kiosk.scene.reroll == "wrong_count" and kiosk.running


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_setters_box_names_the_main_from_before_it_is_called(kiosk, drawn, lang) -> None:
    """Hazard's own term over the setter's number: "main", not the caster's "chance"."""
    from kiosk.i18n import Translator

    start_hazard(kiosk)
    kiosk.set_language(lang)
    tr = Translator(lang)
    for called in (False, True):
        if called:
            press(kiosk, "ok")  # call 7
        drawn.clear()
        kiosk.render()
        assert drawn.count(tr("main")) == 1, (called, drawn)
        assert drawn.count(tr("chance")) == 1, (called, drawn)
        labels = [s for s in drawn if s in (tr("main"), tr("chance"))]
        assert labels == [tr("chance"), tr("main")]  # Player 1 casts: Player 2 sets the main
