"""The languages the table speaks, defined once for config checks, catalogs, menus and screenshots.

A leaf module (it imports nothing) so the configuration can validate `kiosk.language` without
loading the translation machinery. Adding a language means a catalog in kiosk/locale and one
entry here.
"""

from __future__ import annotations

# The order the language screen and the attract loop show them in.
LANGUAGES: tuple[str, ...] = ("fr", "es", "en")
# Each language's name in itself: that is how a visitor recognises it.
LANGUAGE_NAMES: dict[str, str] = {"fr": "Français", "es": "Español", "en": "English"}
