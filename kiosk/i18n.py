"""Visitor text in French, Spanish and English through gettext catalogs (kiosk/locale).

UI strings are marked with `tr("English text")`; the rules engine's rulings are translated with
their message key as the gettext context (`pgettext(key, english_template)`), so two rulings
that read the same in English can still differ in French or Spanish.
"""

from __future__ import annotations

import gettext
import logging
import re
from pathlib import Path

from kiosk.languages import LANGUAGE_NAMES, LANGUAGES

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "N_", "Translator"]

log = logging.getLogger(__name__)

DOMAIN = "kiosk"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def N_(text: str) -> str:  # noqa: N802 - the gettext convention for "translate later"
    """Mark a string for the catalogs without translating it yet."""
    return text


PLAYER = N_("Player {n}")
# French sets a space before : ; ! ? and inside « »; a no-break one, so that a line never starts
# with the punctuation mark.
_FRENCH_SPACES = re.compile(r" (?=[:;!?»])|(?<=«) ")


def typeset(text: str, language: str) -> str:
    """The language's spacing rules applied to `text` (French only, so far)."""
    return _FRENCH_SPACES.sub("\u00a0", text) if language == "fr" else text


class Translator:
    """All text in one language. Unknown strings fall back to English, never to an error."""

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            log.warning("unknown language %r, using English", language)
            language = "en"
        self.language = language
        self._catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)

    def __call__(self, text: str) -> str:
        return typeset(self._catalog.gettext(text), self.language)

    def plural(self, singular: str, plural: str, n: int) -> str:
        return typeset(self._catalog.ngettext(singular, plural, n), self.language)

    def decimal(self, value: float, digits: int = 1) -> str:
        """A number as written in this language: 51.9 in English, 51,9 in French and Spanish."""
        text = f"{value:.{digits}f}"
        return text if self.language == "en" else text.replace(".", ",")

    def percent(self, value: float, digits: int = 2) -> str:
        space = "" if self.language == "en" else "\u00a0"
        return f"{self.decimal(value * 100, digits)}{space}%"

    def player(self, seat: int) -> str:
        """ "Player 1" with a no-break space, so a line never breaks inside a player's name."""
        return self(PLAYER).format(n=int(seat) + 1).replace(" ", "\u00a0")

    def ruling(self, key: str, params: dict | None = None) -> str:
        """One ruling as a sentence in this language (`key` is a rules MESSAGES key)."""
        from kiosk.rules.messages import MESSAGES  # the engine owns the keys and English templates

        template = MESSAGES.get(key)
        if template is None:
            log.warning("no message for ruling %r", key)
            return ""
        words = self.format_params(params or {})
        for text in (self._catalog.pgettext(key, template), template):
            try:
                return typeset(text.format(**words), self.language)
            except (KeyError, IndexError, ValueError) as error:
                log.warning("ruling %r cannot be formatted with %r: %s", key, params, error)
        return ""  # never a sentence with holes in it

    def format_params(self, params: dict) -> dict:
        """Ruling parameters as words: seats (0, 1) become "Player 1", "Player 2"."""
        out = {}
        for name, value in params.items():
            if name == "seat" or name.endswith("_seat"):
                out[name] = self.player(int(value))
            elif isinstance(value, tuple | list):
                out[name] = ", ".join(str(v) for v in value)
            else:
                out[name] = value
        return out
