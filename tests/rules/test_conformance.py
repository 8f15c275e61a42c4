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
    Game,
    GameOver,
    InvalidThrow,
    Seat,
    Throw,
    Variant,
    replay,
)

die = st.integers(min_value=1, max_value=6)
throws = st.lists(st.tuples(die, die, die).map(Throw), max_size=80)
seats = st.sampled_from(list(Seat))
variant_ids = [v.label for v in VARIANTS]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def play_until_over_or_done(variant: Variant, dice: list[Throw], first: Seat) -> Game:
    game = Game(variant, first)
    for throw in dice:
        if game.is_over:
            with pytest.raises(GameOver):
                game.play(throw)
            break
        game.play(throw)
    return game


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
@settings(deadline=None, max_examples=150)
@given(dice=throws, first=seats)
def test_random_play_keeps_every_invariant(
    variant: Variant, dice: list[Throw], first: Seat
) -> None:
    game = play_until_over_or_done(variant, dice, first)
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
        assert state.outcome.reason in MESSAGES
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
    # The throws alone rebuild the same state, and so does rebuilding the whole game.
    assert replay(variant, game.throws, first) == state
    assert Game.from_throws(variant, game.throws, first).rulings == game.rulings


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
@settings(deadline=None, max_examples=60)
@given(dice=throws, first=seats)
def test_undo_returns_to_the_previous_state(
    variant: Variant, dice: list[Throw], first: Seat
) -> None:
    game = play_until_over_or_done(variant, dice, first)
    if not game.throws:
        assert game.undo().state == variant.new_game(first)
        return
    before = replay(variant, game.throws[:-1], first)
    assert game.undo().state == before
    assert len(game.rulings) == len(game.throws)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_ids)
@pytest.mark.parametrize("dice", [(0, 1, 2), (1, 7, 2), (6, 6), (1, 2, 3, 4)])
def test_a_refused_throw_leaves_the_game_as_it_was(variant: Variant, dice: tuple) -> None:
    game = Game(variant)
    game.play((2, 3, 5))
    before = (game.state, game.throws, game.rulings)
    with pytest.raises(InvalidThrow):
        game.play(dice)
    assert (game.state, game.throws, game.rulings) == before


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
    assert all(name == "card" for name in firsts.values())
