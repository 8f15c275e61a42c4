"""Medio azar: the throw-off, azars paying stakes, the recovery throw, the card's example."""

from __future__ import annotations

import pytest

from kiosk.rules import Game, GameOver, Outcome, Seat, Throw, find_variant

from .helpers import play_totals

MEDIO = find_variant("medio-azar")


def test_the_throw_off_is_part_of_the_game_and_the_higher_total_casts() -> None:
    game, rulings = play_totals(MEDIO, [9], first=Seat.ONE)
    assert game.state.phase == "medio_azar.phase.throw_off"
    assert game.state.caster is None
    assert game.state.to_throw is Seat.TWO
    game.play(Throw.with_total(14))
    assert str(game.rulings[-1]) == "medio_azar.throw_off_won{total=14, other_total=9, seat=1}"
    assert game.state.caster is Seat.TWO
    assert game.state.to_throw is Seat.TWO
    assert game.state.phase == "medio_azar.phase.open"
    assert rulings[0].key == "medio_azar.throw_off_first"


def test_when_the_first_to_throw_off_wins_it_the_dice_come_back_to_him() -> None:
    game, rulings = play_totals(MEDIO, [15, 10], first=Seat.ONE)
    assert str(rulings[-1]) == "medio_azar.throw_off_won{total=10, other_total=15, seat=0}"
    assert (game.state.caster, game.state.to_throw) == (Seat.ONE, Seat.ONE)
    game.play(Throw.with_total(4))  # an azar: it pays the caster, who throws on
    assert dict(game.state.ledger) == {Seat.ONE: 1, Seat.TWO: -1}
    assert game.state.to_throw is Seat.ONE


def test_a_tied_throw_off_is_thrown_again_from_the_first_seat() -> None:
    game, rulings = play_totals(MEDIO, [11, 11], first=Seat.TWO)
    assert rulings[-1].key == "medio_azar.throw_off_tie"
    assert game.state == MEDIO.new_game(Seat.TWO)
    game.play(Throw.with_total(6))
    game.play(Throw.with_total(5))
    assert game.state.caster is Seat.TWO


def test_the_cards_worked_example_gives_five_stakes_to_the_opponent() -> None:
    # Throw-off: ONE 15, TWO 10, so ONE is the caster ("me").
    # 12 sets the opponent's chance, 9 mine; then 13 nothing, 4 and 7 raise the prize, 12 wins.
    game, rulings = play_totals(MEDIO, [15, 10, 12, 9, 13, 4, 7, 12])
    assert [str(r) for r in rulings[2:]] == [
        "medio_azar.chance_for_opponent{total=12, seat=1}",
        "medio_azar.chance_for_caster{total=9, seat=0}",
        "medio_azar.no_effect{total=13}",
        "medio_azar.prize_raised{total=4, prize=4}",
        "medio_azar.prize_raised{total=7, prize=5}",
        "medio_azar.chance_wins{total=12, seat=1, stakes=5}",
    ]
    assert game.state.outcome == Outcome(Seat.TWO, "medio_azar.won_by_chance", 5)
    assert dict(game.state.ledger) == {Seat.ONE: -5, Seat.TWO: 5}


def test_the_prize_is_three_stakes_when_no_azar_raised_it() -> None:
    game, _ = play_totals(MEDIO, [15, 10, 12, 9])
    assert game.state.prize == 3
    game.play(Throw.with_total(9))
    assert game.state.outcome == Outcome(Seat.ONE, "medio_azar.won_by_chance", 3)


def test_every_azar_before_both_chances_pays_one_stake_to_the_caster() -> None:
    game, rulings = play_totals(MEDIO, [15, 10, 3, 18, 10, 14])
    assert [r.key for r in rulings[2:]] == [
        "medio_azar.azar_pays",
        "medio_azar.azar_pays",
        "medio_azar.chance_for_opponent",
        "medio_azar.azar_pays",
    ]
    assert dict(game.state.ledger) == {Seat.ONE: 3, Seat.TWO: -3}
    assert game.state.prize == 3
    assert not game.state.is_over


def test_repeating_the_opponents_chance_earns_a_recovery_throw_that_an_azar_wins() -> None:
    game, rulings = play_totals(MEDIO, [15, 10, 10, 10])
    assert rulings[-1].key == "medio_azar.recovery_due"
    assert game.state.phase == "medio_azar.phase.recovery"
    game.play(Throw.with_total(16))
    assert str(game.rulings[-1]) == "medio_azar.recovery_wins{total=16, seat=0, stakes=3}"
    assert game.state.outcome == Outcome(Seat.ONE, "medio_azar.won_by_recovery", 3)


def test_a_failed_recovery_sets_the_opponents_new_chance_and_play_resumes() -> None:
    game, rulings = play_totals(MEDIO, [15, 10, 10, 10, 8])
    assert str(rulings[-1]) == "medio_azar.new_opponent_chance{total=8, seat=1}"
    assert game.state.chances[Seat.TWO] == 8
    assert game.state.chances[Seat.ONE] is None
    assert game.state.phase == "medio_azar.phase.seek_chance"
    game.play(Throw.with_total(10))  # the old chance is now the caster's own
    assert game.state.chances[Seat.ONE] == 10
    assert game.state.phase == "medio_azar.phase.chase"


def test_no_throw_is_accepted_after_the_end() -> None:
    game, _ = play_totals(MEDIO, [15, 10, 12, 9, 9])
    assert game.state.phase == "medio_azar.phase.over"
    with pytest.raises(GameOver, match="^this game of Medio azar is over; start a new game"):
        game.play(Throw((2, 2, 2)))


def test_the_caster_throws_every_throw_after_the_throw_off() -> None:
    totals = [9, 14, 3, 10, 16, 10, 8, 11, 13, 4, 12, 7, 9, 17, 11]
    game = Game(MEDIO, Seat.ONE)
    seen = []
    for total in totals:
        seen.append(game.state.to_throw)
        game.play(Throw.with_total(total))
    assert seen == [Seat.ONE] + [Seat.TWO] * (len(totals) - 1)
    assert game.state.outcome == Outcome(Seat.TWO, "medio_azar.won_by_chance", 6)


def test_the_ledger_after_a_recovery_win_is_the_early_azars_and_three_stakes() -> None:
    # Two azars pay one each; 12 the opponent's chance; 12 again; 5 on the recovery throw.
    game, rulings = play_totals(MEDIO, [15, 10, 4, 16, 12, 12, 5])
    assert rulings[-1].key == "medio_azar.recovery_wins"
    assert game.state.outcome == Outcome(Seat.ONE, "medio_azar.won_by_recovery", 3)
    assert dict(game.state.ledger) == {Seat.ONE: 5, Seat.TWO: -5}


def test_azars_after_both_chances_raise_the_prize_and_pay_nothing_at_once() -> None:
    game, _ = play_totals(MEDIO, [15, 10, 12, 9, 3, 18, 7])
    assert game.state.prize == 6
    assert dict(game.state.ledger) == {Seat.ONE: 0, Seat.TWO: 0}
    game.play(Throw.with_total(9))
    assert game.state.outcome == Outcome(Seat.ONE, "medio_azar.won_by_chance", 6)
    assert dict(game.state.ledger) == {Seat.ONE: 6, Seat.TWO: -6}


def test_a_failed_recovery_sets_the_new_chance_of_seat_one_when_seat_two_casts() -> None:
    game, _ = play_totals(MEDIO, [10, 15, 9, 9, 12])  # TWO casts; 9 twice; 12 on the recovery
    assert game.state.caster is Seat.TWO
    assert dict(game.state.chances) == {Seat.ONE: 12, Seat.TWO: None}
