"""Under mutation testing (mutmut names the mutant in MUTANT_UNDER_TEST), each test recomputes
what the engine caches: figures cached before the mutant was switched on would hide it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import Phase, settings

from kiosk.rules import core, odds

# mutmut sets MUTANT_UNDER_TEST (empty at first) before it imports the tests. A failing
# example already kills the mutant; shrinking it only costs time, so none under mutation.
if "MUTANT_UNDER_TEST" in os.environ:
    settings.register_profile(
        "mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate], deadline=None
    )
    settings.load_profile("mutation")


@pytest.fixture(autouse=True)
def fresh_caches_under_mutation() -> Iterator[None]:
    if os.environ.get("MUTANT_UNDER_TEST"):
        for cached in (odds._exact_odds, core.all_throws, core.total_probabilities):
            cached.cache_clear()
    yield
