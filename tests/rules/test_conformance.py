"""One generic test run over every variant: random play keeps every invariant of the API."""

from __future__ import annotations

import string
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.rules import (
    MESSAGES,
    VARIANTS,
    AwaitChoice,
    Choice,
    Game,
    GameOver,
    InvalidChoice,
    InvalidThrow,
    Move,
    Reason,
    Seat,
    Throw,
    Variant,
    replay,
)

die = st.integers(min_value=1, max_value=6)
# Six faces and a pick per move: a throw uses as many faces as the game throws dice, a
# decision takes the option the pick points at.
moves = st.lists(st.tuples(st.tuples(*[die] * 6), st.integers(0, 9)), max_size=80)
seats = st.sampled_from(list(Seat))
variant_ids = [v.label for v in VARIANTS]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def next_move(game: Game, faces: tuple[int, ...], pick: int) -> Move:
    awaiting = game.state.awaiting
    if isinstance(awaiting, AwaitChoice):
        assert awaiting.seat is game.state.to_throw
        return Choice(awaiting.options[pick % len(awaiting.options)])
    return Throw(faces[: awaiting.dice])


def play_until_over_or_done(variant: Variant, draws: list, first: Seat) -> Game:
    game = Game(variant, first)
    for faces, pick in draws:
        if game.is_over:
            with pytest.raises(GameOver):
                game.play(Throw(faces[: variant.dice]))
            break
        game.play(next_move(game, faces, pick))
    return game


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
@settings(deadline=None, max_examples=150)
@given(draws=moves, first=seats)
def test_random_play_keeps_every_invariant(variant: Variant, draws: list, first: Seat) -> None:
    game = play_until_over_or_done(variant, draws, first)
    state = game.state
    # Each ruling and phase is a known message whose placeholders the ruling fills.
    for ruling in game.rulings:
        assert ruling.key in MESSAGES, ruling.key
        assert placeholders(MESSAGES[ruling.key]) <= set(ruling.params), ruling
    assert state.phase in MESSAGES
    # The game either goes on, waiting for a seat, or ends with a defined outcome.
    assert isinstance(state.to_throw, Seat)
    if state.is_over:
        assert state.outcome is not None
        assert isinstance(state.outcome.reason, Reason)
        assert state.outcome.reason.key in MESSAGES
        assert state.outcome.winner in (Seat.ONE, Seat.TWO, None)
        assert state.outcome.stakes >= 1
    else:
        assert state.outcome is None
    # Stakes move between the two players and nowhere else.
    assert isinstance(state.ledger, Mapping) and set(state.ledger) == set(Seat)
    assert sum(state.ledger.values()) == 0
    if state.outcome is not None and state.outcome.winner is not None:
        assert state.ledger[state.outcome.winner] > 0 or variant.reports_stakes
    assert set(state.chances) == set(Seat)
    assert state.prize >= 1
    # The odds' chain key drops the running totals and nothing else twice over.
    key = state.chain_key()
    assert set(key.ledger.values()) == {0}
    assert key.chain_key() == key and key.awaiting == state.awaiting
    # Every throw has the game's number of dice.
    assert all(len(throw.dice) == variant.dice for throw in game.throws)
    # The moves alone rebuild the same state, and so does rebuilding the whole game.
    assert replay(variant, game.moves, first) == state
    assert Game.from_moves(variant, game.moves, first).rulings == game.rulings


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
@settings(deadline=None, max_examples=60)
@given(draws=moves, first=seats)
def test_undo_returns_to_the_previous_state(variant: Variant, draws: list, first: Seat) -> None:
    game = play_until_over_or_done(variant, draws, first)
    if not game.moves:
        assert game.undo().state == variant.new_game(first)
        return
    before = replay(variant, game.moves[:-1], first)
    assert game.undo().state == before
    assert len(game.rulings) == len(game.moves)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
@pytest.mark.parametrize("dice", [(0, 1, 2), (1, 7, 2), (6,), (1, 2, 3, 4), ()])
def test_a_refused_throw_leaves_the_game_as_it_was(variant: Variant, dice: tuple) -> None:
    game = Game(variant)
    game.play(next_move(game, (2, 3, 5, 1, 1, 1), 0))
    before = (game.state, game.moves, game.rulings)
    with pytest.raises(InvalidThrow):
        game.play(dice)
    assert (game.state, game.moves, game.rulings) == before


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
def test_a_throw_of_the_wrong_number_of_dice_is_refused(variant: Variant) -> None:
    game = Game(variant)
    if isinstance(game.state.awaiting, AwaitChoice):
        game.play(next_move(game, (), 0))
    for count in range(1, 7):
        faces = (3,) * count
        if count == variant.dice:
            game.play(faces)
        else:
            with pytest.raises(InvalidThrow, match=f"throws {variant.dice} dice, got {count}"):
                game.play(faces)
            with pytest.raises(InvalidThrow):
                variant.throw(faces)
    assert variant.throw([2] * variant.dice) == Throw((2,) * variant.dice)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
def test_a_choice_is_refused_where_dice_are_awaited_and_dice_where_a_choice_is(
    variant: Variant,
) -> None:
    game = Game(variant)
    state = game.state
    if isinstance(state.awaiting, AwaitChoice):
        with pytest.raises(InvalidChoice, match="choice of main"):
            game.play((3,) * variant.dice)
        with pytest.raises(InvalidChoice, match="one of 5, 6, 7, 8, 9; got 4"):
            game.choose(4)
    else:
        with pytest.raises(InvalidChoice, match="dice are awaited"):
            game.choose(7)
    assert game.state == state and not game.moves


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
def test_each_variant_has_a_title_and_summary_for_visitors(variant: Variant) -> None:
    assert variant.title_key in MESSAGES
    assert variant.summary_key in MESSAGES
    assert variant.new_game().prize >= 1


def test_every_message_is_short_enough_for_a_visitor() -> None:
    long = {key: text for key, text in MESSAGES.items() if len(text.split()) > 15}
    assert not long


def test_variants_are_unique_and_each_game_lists_its_default_first() -> None:
    labels = [v.label for v in VARIANTS]
    assert len(labels) == len(set(labels))
    firsts = {}
    for variant in VARIANTS:
        firsts.setdefault(variant.game, variant.name)
    assert firsts == {"azar": "card", "medio-azar": "card", "hazard": "called-main"}


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
def test_a_games_repr_is_code_that_rebuilds_it(variant: Variant) -> None:
    """What a bug report quotes: pasted back, it gives the same game, seat and rulings."""
    from kiosk.rules import find_variant

    game = Game(variant, Seat.TWO)
    for faces, pick in [((2, 3, 4, 1, 1, 1), 2), ((5, 1, 2, 1, 1, 1), 0), ((6, 6, 1, 1, 1, 1), 1)]:
        if not game.is_over:
            game.play(next_move(game, faces, pick))
    namespace = {"Game": Game, "Seat": Seat, "Choice": Choice, "find_variant": find_variant}
    again = eval(repr(game), namespace)
    assert (again.variant, again.first, again.moves) == (variant, Seat.TWO, game.moves)
    assert again.rulings == game.rulings
