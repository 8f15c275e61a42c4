"""The glossary page explains every term the games use, Hazard's main and nick included, in
each language; a ruling that brings a term up for the first time glosses it on the throw."""

from __future__ import annotations

import queue

import pygame
import pytest

from kiosk.config import load_config
from kiosk.gamelog import GameLog
from kiosk.i18n import LANGUAGES, Translator
from kiosk.table import Kiosk
from kiosk.ui import explain
from kiosk.ui.scenes.rules import PAGES


@pytest.fixture
def kiosk(tmp_path):
    pygame.display.init()
    pygame.font.init()
    return Kiosk(
        load_config(None),
        pygame.Surface((800, 480)),
        GameLog.in_dir(tmp_path),
        events=queue.Queue(),
    )


def glossary_page(kiosk: Kiosk, lang: str) -> str:
    kiosk.set_language(lang)
    kiosk.goto("rules")
    kiosk.scene.page = PAGES.index("glossary")
    return "\n".join(kiosk.scene.parts())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("term", ["main", "nick"])
def test_hazard_terms_are_on_the_glossary_page(kiosk, lang: str, term: str) -> None:
    tr = Translator(lang)
    line = explain.gloss(tr, term)
    assert line in glossary_page(kiosk, lang)
    if lang != "en":  # translated, not English left in a French or Spanish page
        assert line != explain.gloss(Translator("en"), term)


def test_hazard_rulings_bring_up_main_and_nick() -> None:
    assert explain.term_of("hazard.main_called") == "main"
    assert explain.term_of("hazard.main_thrown") == "main"
    assert explain.term_of("hazard.nick") == "nick"
    assert explain.term_of("hazard.chance_set") == "chance"  # not mistaken for the main


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_gloss_goes_on_in_lower_case_after_its_colon(lang: str) -> None:
    """ "Suerte: el total que espera..." as Spanish and French write it, not "Suerte: El"."""
    tr = Translator(lang)
    for term, _, _ in explain.GLOSSARY:
        meaning = explain.gloss(tr, term).split(":", 1)[1].strip()
        assert meaning[0].islower(), explain.gloss(tr, term)
