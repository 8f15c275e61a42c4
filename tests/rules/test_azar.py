"""Azar scenarios from the rule card (and its variants), throw by throw."""

from __future__ import annotations

import pytest

from kiosk.rules import Game, GameOver, Outcome, Seat, Throw, find_variant

from .helpers import play_totals

CARD = find_variant("azar")
LANA = find_variant("azar", "lana")
RETHROW = find_variant("azar", "rethrow")
OPPONENT_SECOND = find_variant("azar", "opponent-second")


def test_the_default_azar_is_the_cards_reading() -> None:
    assert CARD.name == "card"


@pytest.mark.parametrize("total", [3, 4, 5, 6, 15, 16, 17, 18])
def test_an_azar_on_the_first_throw_wins_the_stake_at_once(total: int) -> None:
    game, rulings = play_totals(CARD, [total])
    assert str(rulings[0]) == f"azar.azar_wins{{total={total}, seat=0}}"
    assert game.state.outcome == Outcome(Seat.ONE, "azar.won_by_azar", 1)
    assert dict(game.state.ledger) == {Seat.ONE: 1, Seat.TWO: -1}
    assert game.state.is_over


def test_a_first_chance_goes_to_the_opponent_and_the_caster_throws_again() -> None:
    game, rulings = play_totals(CARD, [9], first=Seat.TWO)
    state = game.state
    assert state.caster is Seat.TWO
    assert str(rulings[0]) == "azar.chance_for_opponent{total=9, seat=0}"
    assert state.chances[Seat.ONE] == 9 and state.chances[Seat.TWO] is None
    assert state.to_throw is Seat.TWO
    assert state.phase == "azar.phase.second_throw"


@pytest.mark.parametrize("total", [3, 6, 15, 18])
def test_an_azar_on_the_second_throw_is_a_reazar_and_loses(total: int) -> None:
    game, rulings = play_totals(CARD, [10, total])
    assert rulings[-1].key == "azar.reazar_loses"
    assert game.state.outcome == Outcome(Seat.TWO, "azar.lost_by_reazar", 1)


def test_the_same_chance_twice_starts_everything_over() -> None:
    game, rulings = play_totals(CARD, [10, 10])
    assert rulings[-1].key == "azar.encuentro_restart"
    assert game.state == CARD.new_game(Seat.ONE)


def test_then_players_alternate_and_the_first_chance_thrown_wins_for_its_owner() -> None:
    # Opponent's chance 8, caster's 12; 5 (azar) and 11 (unassigned) are ignored.
    game, rulings = play_totals(CARD, [8, 12, 5, 11, 8])
    keys = [r.key for r in rulings]
    assert keys[2:] == ["azar.azar_ignored", "azar.chance_ignored", "azar.chance_wins"]
    # Throws 3, 4, 5 are made by TWO, ONE, TWO: the 8 thrown by TWO wins for TWO, its owner.
    assert game.state.outcome == Outcome(Seat.TWO, "azar.won_by_chance", 1)


def test_throwing_the_other_players_chance_loses() -> None:
    # Caster (ONE) owns 12; the opponent throws next and throws 12: the caster wins.
    game, _ = play_totals(CARD, [8, 12])
    assert game.state.to_throw is Seat.TWO
    game.play(Throw.with_total(12))
    assert game.state.outcome is not None and game.state.outcome.winner is Seat.ONE


def test_no_throw_is_accepted_after_the_end() -> None:
    game, _ = play_totals(CARD, [17])
    assert game.state.phase == "azar.phase.over"
    with pytest.raises(GameOver, match="^this game of Azar is over; start a new game"):
        game.play(Throw((1, 1, 1)))
    assert len(game.throws) == 1


@pytest.mark.parametrize("total", [5, 6, 15, 16])
def test_lana_treats_5_6_15_16_as_chances(total: int) -> None:
    game, rulings = play_totals(LANA, [total])
    assert rulings[0].key == "azar.chance_for_opponent"
    assert not game.state.is_over


@pytest.mark.parametrize("total", [3, 4, 17, 18])
def test_lana_keeps_3_4_17_18_as_azari(total: int) -> None:
    game, _ = play_totals(LANA, [total])
    assert game.state.outcome == Outcome(Seat.ONE, "azar.won_by_azar", 1)


def test_rethrow_variant_ignores_an_encuentro_instead_of_restarting() -> None:
    game, rulings = play_totals(RETHROW, [10, 10])
    assert rulings[-1].key == "azar.encuentro_rethrow"
    assert game.state.phase == "azar.phase.second_throw"
    assert game.state.chances[Seat.TWO] == 10
    game.play(Throw.with_total(16))
    assert game.state.outcome == Outcome(Seat.TWO, "azar.lost_by_reazar", 1)


def test_opponent_second_variant_gives_the_second_throw_to_the_opponent() -> None:
    game, _ = play_totals(OPPONENT_SECOND, [9])
    assert game.state.to_throw is Seat.TWO
    game.play(Throw.with_total(11))
    assert game.state.chances[Seat.ONE] == 11  # the second throw sets the caster's chance
    assert game.state.to_throw is Seat.ONE  # then turns alternate


def test_opponent_second_variant_reazar_still_loses_for_the_caster() -> None:
    # "The first player loses": the reazar is the caster's loss whoever throws it.
    game, rulings = play_totals(OPPONENT_SECOND, [9, 4])
    assert str(rulings[-1]) == "azar.reazar_loses{total=4, seat=0}"
    assert game.state.outcome == Outcome(Seat.TWO, "azar.lost_by_reazar", 1)


def test_turns_alternate_through_a_whole_chase_starting_with_the_opponent() -> None:
    # Chances 8 (opponent) and 12 (caster); ten throws that count for nobody, then 12.
    game = Game(CARD, Seat.TWO)
    seen = []
    for total in [8, 12, 5, 11, 3, 9, 18, 10, 7, 13, 4, 14, 12]:
        seen.append(game.state.to_throw)
        game.play(Throw.with_total(total))
    two, one = Seat.TWO, Seat.ONE
    assert seen == [two, two] + [one, two] * 5 + [one]
    assert game.state.outcome == Outcome(Seat.TWO, "azar.won_by_chance", 1)
    assert dict(game.state.ledger) == {Seat.ONE: -1, Seat.TWO: 1}


def test_a_restart_gives_the_dice_back_to_the_caster_with_nothing_set() -> None:
    game, _ = play_totals(CARD, [9, 9, 10], first=Seat.TWO)
    assert game.state.chances[Seat.ONE] == 10 and game.state.chances[Seat.TWO] is None
    assert game.state.to_throw is Seat.TWO
    assert dict(game.state.ledger) == {Seat.ONE: 0, Seat.TWO: 0}


def test_opponent_second_alternates_after_the_opponents_second_throw() -> None:
    game = Game(OPPONENT_SECOND)
    seen = []
    for total in [9, 11, 5, 7, 10, 11]:
        seen.append(game.state.to_throw)
        game.play(Throw.with_total(total))
    assert seen == [Seat.ONE, Seat.TWO, Seat.ONE, Seat.TWO, Seat.ONE, Seat.TWO]
    assert game.state.outcome == Outcome(Seat.ONE, "azar.won_by_chance", 1)
