"""The table for visitors: the throw shown, the result that never contradicts itself, the
alternating first caster, the next throw in plain words, the sounds."""

from __future__ import annotations

import random

import pytest

from hardware.buttons import ButtonEvent
from kiosk.config import parse_config
from kiosk.i18n import Translator
from kiosk.rules import Seat, Throw, find_variant
from kiosk.sound import RATE, cues, write_wavs
from kiosk.table import Kiosk
from kiosk.ui import explain
from kiosk.ui.scenes import facts
from kiosk.ui.verdict import verdict
from kiosk.worker import RollRead
from tests.kiosk.tables import headless_table
from vision.reading import Die, Roll


def make_kiosk(tmp_path, config=None) -> Kiosk:
    kiosk = headless_table(tmp_path, config)
    kiosk.camera_ok = True  # reads come from the test, as from the worker
    return kiosk


def read(*values: int) -> RollRead:
    return RollRead(
        Roll(tuple(Die(v, (10.0 * i, 10.0), 8.0, 0.95) for i, v in enumerate(values))), 0.0
    )


def press(kiosk: Kiosk, button: str) -> None:
    kiosk.events.put(ButtonEvent(button, "press", kiosk.clock()))
    kiosk.frame(0.0)


@pytest.fixture
def kiosk(tmp_path):
    return make_kiosk(tmp_path)


# -- the result: the headline names only a player ahead -------------------------------------
def test_medio_azar_headline_never_names_a_player_at_or_below_zero() -> None:
    """20,000 random games through the engine: the player named has a net above zero."""
    rng = random.Random(1283)
    variant = find_variant("medio-azar")
    behind_winners = 0
    for _ in range(20_000):
        state = variant.new_game(Seat(rng.randint(0, 1)))
        while not state.is_over:
            state, _ = state.apply(Throw(tuple(rng.randint(1, 6) for _ in range(3))))
        result = verdict(state)
        assert sum(result.net) == 0
        if result.ahead is None:
            assert result.net == (0, 0)
        else:
            assert result.net[result.ahead] > 0
        behind_winners += result.ahead != result.winner
    assert behind_winners > 100  # the case the rule is for does happen (about 3% of games)


def test_the_result_screen_says_the_player_ahead_when_the_chance_went_to_the_other(kiosk):
    kiosk.new_match(find_variant("medio-azar"))  # Player 1 throws off first
    throws = [(5, 4, 3), (2, 2, 3), (6, 6, 6), (1, 1, 1), (6, 6, 5), (6, 6, 4), (3, 3, 3),
              (4, 4, 2), (3, 3, 3)]  # fmt: skip
    for dice in throws:
        kiosk.events.put(read(*dice))
        kiosk.frame(0.0)
    assert kiosk.match.state.outcome.winner == Seat.TWO  # Player 2's chance took the prize...
    for _ in range(200):
        kiosk.frame(1 / 30)
    assert kiosk.scene.name == "result"
    result = verdict(kiosk.match.state)
    assert result.ahead == Seat.ONE and result.net == (1, -1)  # ...but Player 1 is ahead
    tr = kiosk.tr
    assert kiosk.scene.why(result) == tr("{player} won more with azars and ends ahead.").format(
        player=tr.player(0)
    )


# -- the throw, shown big -------------------------------------------------------------------
def test_a_read_fills_the_screen_then_the_table_comes_back(kiosk):
    kiosk.new_match(find_variant("azar"))
    kiosk.events.put(read(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.scene.reveal > 0
    for _ in range(100):  # a little over three seconds
        kiosk.frame(1 / 30)
    assert kiosk.scene.reveal == 0


def test_a_button_during_the_reveal_brings_the_table_back_and_acts(kiosk):
    kiosk.new_match(find_variant("azar"))
    kiosk.enter_staff("the staff code")  # entering dice by hand is the staff's
    kiosk.goto("play")
    kiosk.events.put(read(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.scene.reveal > 0
    press(kiosk, "ok")  # staff on: ok enters a throw by hand, at once
    assert kiosk.scene.reveal == 0 and kiosk.scene.entry == [1, 1, 1]


# -- turns: the first caster alternates -----------------------------------------------------
def test_the_first_caster_alternates_from_game_to_game(kiosk):
    firsts = []
    for _ in range(4):
        kiosk.new_match(find_variant("azar"))
        firsts.append(int(kiosk.match.first))
        assert int(kiosk.match.to_throw) == firsts[-1]
    assert firsts == [0, 1, 0, 1]
    logged = [game.first for game in kiosk.log.games()]
    assert logged == [0, 1, 0, 1]


def test_after_a_restart_the_next_game_goes_to_the_other_player(tmp_path):
    first = make_kiosk(tmp_path)
    first.new_match(find_variant("azar"))
    first.new_match(find_variant("azar"))  # Player 2 casts this one, left unfinished
    first.log.close()
    again = make_kiosk(tmp_path)  # the power came back: the game resumes...
    assert int(again.match.first) == 1
    again.new_match(find_variant("azar"))  # ...and the next one is Player 1's
    assert int(again.match.first) == 0


# -- plain words for the next throw ---------------------------------------------------------
def test_the_next_throw_is_said_for_every_phase() -> None:
    tr = Translator("en")
    azar = find_variant("azar").new_game(Seat.ONE)
    assert explain.next_throw(tr, azar).startswith(
        "Player\u00a01 throws first. An azar (3–6, 15–18)"
    )
    azar, _ = azar.apply(Throw((3, 3, 3)))
    assert explain.next_throw(tr, azar).startswith("Player\u00a02 wants 9. An azar now loses")
    azar, _ = azar.apply(Throw((4, 3, 3)))
    assert explain.next_throw(tr, azar) == (
        "Player\u00a01 wants 10. Player\u00a02 wants 9. "
        "Azars don't count now: the first of the two totals wins."
    )
    dante = find_variant("azar", "dante").new_game(Seat.TWO)
    assert "(3–4, 17–18)" in explain.next_throw(tr, dante)
    medio = find_variant("medio-azar").new_game(Seat.ONE)
    for dice, start in [
        ((5, 4, 3), "Player\u00a01 threw 12. Player\u00a02 must beat it"),
        ((2, 2, 3), "Each azar (3–7, 14–18) wins Player\u00a01 a stake."),
        ((4, 4, 1), "Player\u00a02 wants 9."),
        ((3, 3, 3), "Throw an azar to take the 3 stakes on the table."),
    ]:
        medio, _ = medio.apply(Throw(dice))
        assert explain.next_throw(tr, medio).startswith(start), explain.next_throw(tr, medio)


def test_a_term_is_glossed_the_first_time_a_game_meets_it(kiosk):
    kiosk.new_match(find_variant("azar"))
    kiosk.events.put(read(3, 3, 3))  # 9: a chance for Player 2
    kiosk.frame(0.0)
    assert explain.new_term(kiosk.match.entries) == "chance"
    kiosk.events.put(read(4, 3, 3))  # 10: a chance again, already glossed
    kiosk.frame(0.0)
    assert explain.new_term(kiosk.match.entries) is None


# -- sounds ---------------------------------------------------------------------------------
def test_the_cues_are_short_quiet_and_without_clicks() -> None:
    for name, samples in cues().items():
        seconds = samples.size / RATE
        assert 0.2 <= seconds <= 1.2, name
        assert 0.5 <= abs(samples).max() <= 0.8, name  # headroom under full scale
        assert abs(samples[-20:]).max() < 0.01, name  # faded out, no click at the end


def test_the_cues_are_written_as_wav_files(tmp_path) -> None:
    import wave

    paths = write_wavs(tmp_path)
    assert {p.stem for p in paths} == {"landing", "ruling", "win", "again"}
    with wave.open(str(tmp_path / "win.wav")) as wav:
        assert (wav.getnchannels(), wav.getframerate()) == (2, RATE)


def test_a_throw_plays_the_landing_then_the_ruling_and_a_win_its_flourish(kiosk):
    kiosk.new_match(find_variant("azar"))
    kiosk.events.put(read(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.sounds.played[-2:] == ["landing", "ruling"]
    kiosk.events.put(read(6, 6, 6))  # a reazar: the game ends
    kiosk.frame(0.0)
    assert kiosk.sounds.played[-2:] == ["landing", "win"]
    assert kiosk.sounds._sounds  # the mixer (SDL's dummy driver here) took the cues


def test_muted_in_the_config_no_cue_is_played(tmp_path):
    kiosk = make_kiosk(tmp_path, parse_config({"sound": {"enabled": False}}))
    kiosk.new_match(find_variant("azar"))
    kiosk.events.put(read(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.sounds.played == []


def test_speech_without_espeak_is_skipped_quietly(tmp_path, monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name: None)
    kiosk = make_kiosk(tmp_path, parse_config({"sound": {"speech": True}}))
    kiosk.new_match(find_variant("azar"))
    kiosk.events.put(read(2, 3, 4))
    kiosk.frame(0.0)
    assert kiosk.sounds._espeak is None and kiosk.match.throws == [(2, 3, 4)]


# -- no frozen screens ----------------------------------------------------------------------
def test_the_odds_are_computed_off_the_main_loop() -> None:
    facts.warm()
    assert facts.wait(60)
    assert len(facts.odds_table()) >= 5
