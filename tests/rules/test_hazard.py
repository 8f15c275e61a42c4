"""English Hazard (Seymour 1739): the main called or thrown, nicks, outs, the chance."""

from __future__ import annotations

import pytest

from kiosk.rules import (
    AwaitChoice,
    AwaitThrow,
    Choice,
    Game,
    GameOver,
    HazardReason,
    InvalidChoice,
    Outcome,
    Seat,
    Throw,
    find_variant,
)

from .helpers import play_totals

CALLED = find_variant("hazard")
THROWN = find_variant("hazard", "thrown-main")

# Seymour's table: nicks and outs for each main; every other total from 4 to 10 is a chance.
SEYMOUR = {
    5: ({5}, {2, 3, 11, 12}),
    6: ({6, 12}, {2, 3, 11}),
    7: ({7, 11}, {2, 3, 12}),
    8: ({8, 12}, {2, 3, 11}),
    9: ({9}, {2, 3, 11, 12}),
}


def called(main: int, first: Seat = Seat.ONE) -> Game:
    game = Game(CALLED, first)
    game.choose(main)
    return game


def test_the_caster_first_calls_a_main_from_5_to_9() -> None:
    state = CALLED.new_game(Seat.TWO)
    assert state.awaiting == AwaitChoice("main", Seat.TWO, (5, 6, 7, 8, 9))
    assert state.to_throw is Seat.TWO and state.caster is Seat.TWO
    game = called(8, Seat.TWO)
    assert str(game.rulings[0]) == "hazard.main_called{main=8, seat=1}"
    assert game.state.awaiting == AwaitThrow(2, by_total=True)
    assert game.state.phase == "hazard.phase.come_out"
    assert dict(game.state.chances) == {Seat.ONE: 8, Seat.TWO: None}  # the main is the setter's


@pytest.mark.parametrize("main", [4, 10, 2, 12])
def test_no_main_outside_5_to_9_can_be_called(main: int) -> None:
    game = Game(CALLED)
    with pytest.raises(InvalidChoice, match="one of 5, 6, 7, 8, 9"):
        game.choose(main)
    assert not game.moves


@pytest.mark.parametrize("main", sorted(SEYMOUR))
@pytest.mark.parametrize("total", range(2, 13))
def test_the_first_throw_nicks_throws_out_or_sets_the_chance_as_seymour_gives(
    main: int, total: int
) -> None:
    nicks, outs = SEYMOUR[main]
    game = called(main)
    ruling = game.play(Throw.with_total(total, 2))
    state = game.state
    if total in nicks:
        assert str(ruling) == f"hazard.nick{{total={total}, main={main}, seat=0}}"
        assert state.outcome == Outcome(Seat.ONE, HazardReason.NICKED, 1)
        assert dict(state.ledger) == {Seat.ONE: 1, Seat.TWO: -1}
    elif total in outs:
        assert str(ruling) == f"hazard.out{{total={total}, main={main}, seat=0}}"
        assert state.outcome == Outcome(Seat.TWO, HazardReason.THREW_OUT, 1)
        assert dict(state.ledger) == {Seat.ONE: -1, Seat.TWO: 1}
    else:
        assert 4 <= total <= 10 and total != main
        assert str(ruling) == f"hazard.chance_set{{total={total}, main={main}, seat=0}}"
        assert state.phase == "hazard.phase.chance" and not state.is_over
        assert dict(state.chances) == {Seat.ONE: total, Seat.TWO: main}


def test_then_the_chance_wins_and_the_main_loses_and_nothing_else_counts() -> None:
    game = called(7)
    game.play(Throw.with_total(4, 2))  # 4 is the chance against 7
    for total in (2, 3, 11, 12, 5, 6, 8, 9, 10):  # nicks and outs no longer count
        ruling = game.play(Throw.with_total(total, 2))
        assert str(ruling) == f"hazard.no_effect{{total={total}}}"
        assert game.state.to_throw is Seat.ONE  # the caster throws on
    game.play(Throw((3, 1)))
    assert str(game.rulings[-1]) == "hazard.chance_wins{total=4, seat=0}"
    assert game.state.outcome == Outcome(Seat.ONE, HazardReason.THREW_CHANCE, 1)
    assert game.state.phase == "hazard.phase.over"
    with pytest.raises(GameOver, match="^this game of Hazard is over; start a new game"):
        game.play(Throw((3, 1)))


def test_the_main_coming_before_the_chance_loses_for_the_caster() -> None:
    game = called(6, Seat.TWO)
    game.play(Throw((4, 5)))
    game.play(Throw((1, 5)))
    assert str(game.rulings[-1]) == "hazard.main_loses{total=6, seat=1}"
    assert game.state.outcome == Outcome(Seat.ONE, HazardReason.THREW_MAIN, 1)
    assert dict(game.state.ledger) == {Seat.ONE: 1, Seat.TWO: -1}


def test_the_thrown_main_reading_throws_until_5_to_9_comes_up() -> None:
    game, rulings = play_totals(THROWN, [2, 4, 10, 12, 11, 3])
    assert [r.key for r in rulings] == ["hazard.no_main"] * 5 + ["hazard.no_main"]
    assert game.state.main is None
    game.play(Throw.with_total(9, 2))
    assert str(game.rulings[-1]) == "hazard.main_thrown{main=9, seat=0}"
    game.play(Throw.with_total(9, 2))  # the same again at once is a nick
    assert game.state.outcome == Outcome(Seat.ONE, HazardReason.NICKED, 1)


def test_the_thrown_main_reading_asks_for_no_choice() -> None:
    game = Game(THROWN)
    assert game.state.awaiting == AwaitThrow(2, by_total=True)
    with pytest.raises(InvalidChoice):
        game.play(Choice(7))


def test_a_game_of_hazard_replays_from_its_moves() -> None:
    game = called(5)
    for dice in [(2, 2), (6, 6), (3, 2), (1, 3)]:
        if not game.is_over:
            game.play(dice)
    again = Game.from_moves(CALLED, game.moves)
    assert again.state == game.state and again.rulings == game.rulings
    assert game.state.outcome == Outcome(Seat.TWO, HazardReason.THREW_MAIN, 1)
