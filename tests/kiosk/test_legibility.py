"""Legible from 2 m on the 7-inch panel (800x480 px over about 154 x 86 mm visible).

The total and the result headline have a cap height of at least 10 mm, every sentence on a
visitor screen a cap height of at least 5 mm, and no line of a paragraph holds more than 55
characters, in every language, for every phase the rules can reach. Sizes are measured on
rendered glyphs, after the shrinking the drawing helpers do to make a long string fit.
"""

from __future__ import annotations

import random

import pygame
import pytest

from kiosk.i18n import LANGUAGES, Translator
from kiosk.rules import AwaitChoice, Choice
from kiosk.rules.variants import VARIANTS
from kiosk.ui import draw, explain, theme
from kiosk.ui.scenes import play_view, result, rules

PANEL_MM_WIDE = 154.0
PX_PER_MM = 800 / PANEL_MM_WIDE
MAX_LINE = 55


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def cap_mm(face: str, px: int) -> float:
    """The height of a capital H as drawn, in millimetres on the panel."""
    glyph = draw.font(face, px).render("H", True, (255, 255, 255))
    return glyph.get_bounding_rect().height / PX_PER_MM


def states_and_rulings(games: int = 150):
    """Every variant played with random dice (and random choices, as Hazard's main): each state
    met and each ruling given."""
    rng = random.Random(18)
    states, rulings = [], []
    for variant in VARIANTS:
        for _ in range(games):
            state = variant.new_game(rng.choice((0, 1)))
            while not state.is_over:
                states.append(state)
                awaiting = state.awaiting
                if isinstance(awaiting, AwaitChoice):
                    move = Choice(rng.choice(awaiting.options))
                else:
                    move = variant.throw([rng.randint(1, 6) for _ in range(variant.dice)])
                state, ruling = state.apply(move)
                rulings.append(ruling)
    return states, rulings


STATES, RULINGS = states_and_rulings()


def test_the_total_has_a_cap_height_of_10_mm() -> None:
    assert cap_mm(theme.TOTAL.face, round(theme.TOTAL.size)) >= 10
    assert cap_mm(theme.CHANCE.face, round(theme.CHANCE.size)) >= 7  # the chances, next largest


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_result_headline_keeps_10_mm_after_fitting(lang: str) -> None:
    tr = Translator(lang)
    headlines = [tr(result.EVEN)] + [
        tr(result.WINS).format(player=tr.player(seat)) for seat in (0, 1)
    ]
    for headline in headlines:
        px = draw.fitting_size(theme.RESULT.face, round(theme.RESULT.size), headline, 780)
        assert cap_mm(theme.RESULT.face, px) >= 10, (headline, px)


def fitted(string: str, box: tuple, size: float, face: str = "sans") -> tuple[int, list[str]]:
    """The size and lines a play-screen paragraph gets in `box` (x, y, width, height)."""
    px, lines, _ = draw.paragraph_fit(
        face, round(size), string, box[2], box[3], play_view.LINE_SPACING
    )
    return px, lines


def test_body_text_has_a_cap_height_of_5_mm() -> None:
    assert cap_mm(theme.BODY.face, round(theme.BODY.size)) >= 5
    assert cap_mm(theme.BODY_BOLD.face, round(theme.BODY_BOLD.size)) >= 5
    assert cap_mm("sans", rules.SIZES[False]) >= 5 and rules.SIZES[True] > rules.SIZES[False]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_next_throw_and_the_ruling_stay_at_body_size_and_55_characters(lang: str) -> None:
    tr = Translator(lang)
    rulings = {tr.ruling(r.key, r.params) for r in RULINGS}
    sentences = [(explain.next_throw(tr, state), play_view.NEXT_BOX, "sans") for state in STATES]
    sentences += [(ruling, play_view.RULING_BOX, "sans") for ruling in rulings]
    sentences += [(ruling, play_view.REVEAL_RULING_BOX, "sans-bold") for ruling in rulings]
    glosses = [explain.gloss(tr, term) for term, _, _ in explain.GLOSSARY]
    sentences += [(gloss, play_view.REVEAL_GLOSS_BOX, "sans") for gloss in glosses]
    assert len(sentences) > 40
    for sentence, box, face in set(sentences):
        px, lines = fitted(sentence, box, theme.BODY.size, face)
        assert px >= theme.BODY.size, (sentence, px)
        assert max(len(line) for line in lines) <= MAX_LINE, lines


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("large", [False, True])
def test_rules_pages_wrap_at_55_characters_in_both_text_sizes(lang: str, large: bool) -> None:
    tr = Translator(lang)
    px = rules.SIZES[large]
    pages = [tr(text) for text in rules.TEXTS.values()]
    pages.append("\n".join(explain.gloss(tr, term) for term, _, _ in explain.GLOSSARY))
    for page in pages:
        for line in draw.wrap("sans", px, page, rules.BOX[2]):
            assert len(line) <= MAX_LINE, line


# -- every visitor screen, as drawn -----------------------------------------------------------
STAFF_SCREENS = ("maintenance",)  # staff read these at arm's length
SENTENCE_WORDS = 4  # a string of four words or more is read as text, not glanced at as a label


def words(string: str) -> int:
    """Words with a letter in them (no-break spaces hold "Player 1" together as one)."""
    return sum(any(c.isalpha() for c in word) for word in string.split(" "))


def drawn_texts(lang: str, monkeypatch) -> dict[str, list[tuple[str, str, int]]]:
    """Every string each visitor screen draws at 800x480: (face, text, pixel size), the size
    after any shrinking to fit. The button labels are left out: they are labels on keys."""
    from kiosk.ui import screenshots

    drawn: list[tuple[str, str, int]] = []
    real_text, real_fit = draw.text, draw.paragraph_fit

    def text(surface, layout, string, pos, size, name="sans", *args, **kwargs):
        rect = real_text(surface, layout, string, pos, size, name, *args, **kwargs)
        drawn.append((name, string, rect.height and _px(layout, size, string, name, kwargs)))
        return rect

    def _px(layout, size, string, name, kwargs):
        px = layout.px(size)
        width = kwargs.get("max_width")
        return px if width is None else draw.fitting_size(name, px, string, layout.px(width))

    def fit(name, px, string, *args, **kwargs):
        got = real_fit(name, px, string, *args, **kwargs)
        drawn.append((name, string, got[0]))
        return got

    monkeypatch.setattr(draw, "text", text)
    monkeypatch.setattr(draw, "paragraph_fit", fit)
    pictures = screenshots.TrayPictures()
    screens = {}
    kiosk = screenshots.make_kiosk((800, 480), lang, None)
    for name, _ in screenshots.shots(kiosk, lang):
        if name in STAFF_SCREENS:
            continue
        worker = screenshots.StillWorker(*pictures.picture((4, 2, 6)))
        kiosk = screenshots.make_kiosk((800, 480), lang, worker)
        dict(screenshots.shots(kiosk, lang))[name]()
        drawn.clear()
        kiosk.render()
        buttons = set(kiosk.scene.hints())
        screens[name] = [d for d in drawn if not any(b and b in d[1] for b in buttons)]
    return screens


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_on_a_visitor_screen_has_a_5_mm_cap_height(lang: str, monkeypatch) -> None:
    from kiosk.ui.scenes import facts

    facts.wait(120)
    screens = drawn_texts(lang, monkeypatch)
    assert len(screens) >= 15
    small = []
    for screen, texts in screens.items():
        assert texts, screen
        for face, string, px in texts:
            if words(string) >= SENTENCE_WORDS and cap_mm(face, px) < 5:
                small.append(f"{screen}: {cap_mm(face, px):.1f} mm {string!r}")
    assert not small, "\n".join(small)


def test_the_out_of_order_screen_speaks_every_language_at_5_mm(monkeypatch) -> None:
    from kiosk.ui import errorscreen
    from kiosk.ui.layout import Layout

    drawn: list[tuple[str, str, int]] = []
    real_fit = draw.paragraph_fit

    def fit(name, px, string, *args, **kwargs):
        got = real_fit(name, px, string, *args, **kwargs)
        drawn.append((name, string, got[0]))
        return got

    monkeypatch.setattr(draw, "paragraph_fit", fit)
    screen = pygame.Surface((800, 480))
    errorscreen.draw_error(screen, Layout(800, 480), "kiosk.language: 'de' is not one of ...")
    lines = {Translator(lang)(errorscreen.OUT_OF_ORDER) for lang in LANGUAGES}
    shown = {string: cap_mm(face, px) for face, string, px in drawn}
    assert lines <= shown.keys() and len(lines) == len(LANGUAGES)  # one line per language
    assert all(shown[line] >= 5 for line in lines), shown


def fitted_caps(monkeypatch) -> dict[str, float]:
    """Filled, from now on, with each paragraph drawn and its cap height (mm) once fitted."""
    shown: dict[str, float] = {}
    real_fit = draw.paragraph_fit

    def fit(name, px, string, *args, **kwargs):
        got = real_fit(name, px, string, *args, **kwargs)
        shown[string] = cap_mm(name, got[0])
        return got

    monkeypatch.setattr(draw, "paragraph_fit", fit)
    return shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_notices_a_visitor_may_read_have_a_5_mm_cap_height(lang: str, monkeypatch) -> None:
    """After an error the kiosk says it starts again; a log it cannot write asks for the staff.
    Both are drawn along the top edge over any screen, at body size."""
    from kiosk.ui import screenshots

    kiosk = screenshots.make_kiosk((800, 480), lang, None)
    shown = fitted_caps(monkeypatch)
    kiosk.fail("a test")  # as the frame loop does when a scene raises
    kiosk.log.problem = "disk full"
    kiosk.render()
    tr = Translator(lang)
    lines = [
        tr("Something went wrong. The table starts again."),
        tr("The game log cannot be written. Please tell the staff."),
    ]
    assert all(line in shown and shown[line] >= 5 for line in lines), {
        k: shown.get(k) for k in lines
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_call_for_staff_over_a_restless_tray_has_a_5_mm_cap_height(
    lang: str, monkeypatch
) -> None:
    """A tray that has looked as if moving for longer than dice roll (a shaking table) asks
    visitors to call staff, over the live picture, at body size."""
    from kiosk.ui import screenshots

    worker = screenshots.StillWorker(*screenshots.TrayPictures().empty())
    kiosk = screenshots.make_kiosk((800, 480), lang, worker)
    dict(screenshots.shots(kiosk, lang))["play-restless"]()
    worker.show(*screenshots.TrayPictures().empty())
    shown = fitted_caps(monkeypatch)
    kiosk.render()
    line = Translator(lang)(play_view.RESTLESS)
    assert line in shown and shown[line] >= 5, shown.get(line)
