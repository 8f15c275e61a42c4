"""Every visitor string and every ruling has a translation in every language."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, Translator
from kiosk.rules.messages import MESSAGES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "kiosk/table.py", ROOT / "kiosk/i18n.py", *(ROOT / "kiosk/ui").rglob("*.py")]


def marked_strings() -> set[str]:
    """Literal strings passed to tr(...), N_(...) in the UI code."""
    found = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            first = node.args[0]
            if (
                name in ("tr", "N_")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                found.add(first.value)
    return found


def catalog(lang: str) -> gettext.GNUTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_ruling_key_is_translated(lang: str) -> None:
    cat = catalog(lang)
    missing = [
        key for key, english in MESSAGES.items() if (key + "\x04" + english) not in cat._catalog
    ]
    assert not missing, f"{lang}: no translation for {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_ui_string_is_translated(lang: str) -> None:
    cat = catalog(lang)
    strings = marked_strings()
    assert len(strings) > 50
    missing = sorted(s for s in strings if s not in cat._catalog and (s, 0) not in cat._catalog)
    assert not missing, f"{lang}: no translation for {missing}"


@pytest.mark.parametrize("lang", ("fr", "es"))
def test_translations_keep_their_placeholders(lang: str) -> None:
    cat = catalog(lang)
    for msgid, msgstr in cat._catalog.items():
        english = msgid[0] if isinstance(msgid, tuple) else msgid.split("\x04")[-1]
        if not english:
            continue
        assert set(re.findall(r"{\w+", msgstr)) <= set(re.findall(r"{\w+", english)), msgid


@pytest.mark.parametrize("lang", ("fr", "es"))
def test_rulings_read_in_the_language(lang: str) -> None:
    tr = Translator(lang)
    sentence = tr.ruling("azar.reazar_loses", {"total": 16, "seat": 1})
    assert "16" in sentence and tr.player(1) in sentence
    assert sentence != Translator("en").ruling("azar.reazar_loses", {"total": 16, "seat": 1})


def test_rulings_are_short() -> None:
    """One short sentence per ruling: at most 15 words in each language."""
    for lang in LANGUAGES:
        tr = Translator(lang)
        for key in MESSAGES:
            text = tr.ruling(
                key, {"total": 10, "other_total": 9, "seat": 0, "stakes": 3, "prize": 4}
            )
            for sentence in re.split(r"[.!?]\s", text):
                assert len(sentence.split()) <= 15, (lang, key, sentence)


def test_unknown_language_falls_back_to_english() -> None:
    assert Translator("xx")("Play") == "Play"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs GNU gettext")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogs_match_their_sources(lang: str, tmp_path: Path) -> None:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    fresh = tmp_path / "fresh.mo"
    subprocess.run(["msgfmt", "-o", str(fresh), str(folder / f"{DOMAIN}.po")], check=True)
    with fresh.open("rb") as a, (folder / f"{DOMAIN}.mo").open("rb") as b:
        assert gettext.GNUTranslations(a)._catalog == gettext.GNUTranslations(b)._catalog


def test_a_ruling_missing_a_parameter_is_never_shown_with_holes() -> None:
    text = Translator("fr").ruling("azar.reazar_loses", {"total": 16})  # no seat given
    assert "{" not in text


def test_the_language_list_is_spelt_out_once() -> None:
    """Config checks, catalogs, menus, the command line and screenshots share kiosk.languages:
    a second literal list of language codes would let one of them miss a new language."""
    from kiosk.languages import LANGUAGES as ONE_LIST

    codes = set(ONE_LIST)
    spelt = []
    for path in sorted((ROOT / "kiosk").rglob("*.py")):
        if path.name == "languages.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                found = {n.value for n in items if isinstance(n, ast.Constant)} & codes
                if len(found) >= 2:
                    spelt.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not spelt, spelt


def test_the_config_and_the_command_line_offer_every_language(tmp_path: Path) -> None:
    from kiosk.commands import run
    from kiosk.config import ConfigError, parse_config

    for lang in LANGUAGES:
        assert parse_config({"kiosk": {"language": lang}}).kiosk.language == lang
    with pytest.raises(ConfigError, match="'fr', 'es', 'en'"):
        parse_config({"kiosk": {"language": "de"}})
    import argparse

    parser = argparse.ArgumentParser()
    run.add_parser(parser.add_subparsers())
    for lang in LANGUAGES:
        assert parser.parse_args(["run", "--lang", lang]).lang == lang


def test_french_punctuation_never_starts_a_line() -> None:
    """French puts a space before : ; ! ?; it must be a no-break one, or a narrow screen wraps
    "9 est une chance / : Joueur 2 la prend"."""
    from kiosk.ui import draw

    tr = Translator("fr")
    texts = [tr(s) for s in marked_strings()]
    texts += [tr.ruling(key, {"total": 9, "seat": 1, "stakes": 3, "prize": 4}) for key in MESSAGES]
    spaced = [t for t in texts if re.search(r" [:;!?]", t)]
    assert not spaced, spaced[:5]
    import pygame

    pygame.font.init()
    lines = draw.wrap(
        "sans-bold", 36, tr.ruling("azar.chance_for_opponent", {"total": 9, "seat": 1}), 340
    )
    assert not any(line.startswith(":") for line in lines), lines


# A player's name ("Joueur 2", "Jugador 2") takes no article, so it must not follow a word
# that needs one ("la chance de Joueur 2", "gana Jugador 1"): each sentence puts the name first
# or in a place where a bare name reads well.
PLAYERS = r"\{(?:player|seat|caster|opponent|thrower|other|one|two)\}"
NEEDS_ARTICLE = {
    "fr": r"\b(?:de|à|pour|contre|par|gagne|perd)\s+" + PLAYERS,
    "es": r"\b(?:de|a|para|contra|gana|pierde|empieza|tira)\s+" + PLAYERS,
}


@pytest.mark.parametrize("lang", sorted(NEEDS_ARTICLE))
def test_no_players_name_where_it_would_need_an_article(lang: str) -> None:
    cat = catalog(lang)
    bad = [
        text
        for text in (v if isinstance(v, str) else "" for v in cat._catalog.values())
        if re.search(NEEDS_ARTICLE[lang], text, re.IGNORECASE)
    ]
    assert not bad, "\n".join(bad)


def test_english_says_azars_and_reazars() -> None:
    """English plurals on every screen: 'azars', never the Spanish 'azares'."""
    spanish = sorted(s for s in marked_strings() if re.search(r"\b(?:re)?azares\b", s))
    assert not spanish, spanish
