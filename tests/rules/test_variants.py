"""Finding a variant by name, and the messages that say what exists when none matches."""

from __future__ import annotations

import pytest

from kiosk.rules import VARIANTS, UnknownVariant, find_variant
from kiosk.rules.variants import visitor_variants


def test_find_variant_gives_the_default_or_the_named_one() -> None:
    assert find_variant("azar") is VARIANTS[0]
    assert find_variant("Medio_Azar").game == "medio-azar"
    assert find_variant("azar", "lana").name == "lana"
    assert find_variant("azar", "dante").name == "lana"  # the name older game logs hold
    assert find_variant("azar", "opponent_second").name == "opponent-second"


def test_unknown_names_list_what_exists() -> None:
    with pytest.raises(UnknownVariant, match="azar, medio-azar"):
        find_variant("marlota")
    with pytest.raises(UnknownVariant, match="card, lana"):
        find_variant("azar", "petrarch")


def test_readings_without_a_printed_source_are_off_the_visitor_menu_unless_staff_add_them() -> None:
    offered = visitor_variants()
    assert [v.label for v in offered] == [
        "azar/card",
        "azar/lana",
        "medio-azar/card",
        "hazard/called-main",
        "hazard/thrown-main",
    ]
    assert visitor_variants(include_unprinted=True) == VARIANTS
