"""The scene pattern: each screen handles buttons, updates with time, and draws itself.

Scenes never touch hardware: they read and change the kiosk through the `Kiosk` object handed
to them (its match, its log, its translator, `goto()`), and the kiosk calls them from the main
loop only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.touch import Target

if TYPE_CHECKING:
    from kiosk.table import Kiosk


class Scene:
    """A screen. Subclasses override what they need."""

    name = "scene"

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.age = 0.0  # seconds since the scene was entered

    @property
    def tr(self):
        return self.kiosk.tr

    def enter(self, **options) -> None:
        """Called each time the kiosk switches to this scene."""
        self.age = 0.0

    def on_button(self, button: str, kind: str) -> None:
        """A button ("left", "ok", "right") was pressed or held ("press", "hold")."""

    def on_event(self, event) -> None:
        """A worker event (a throw read, a camera status...) while this scene is shown."""

    def update(self, dt: float) -> None:
        self.age += dt

    def hints(self) -> tuple[str | None, str | None, str | None]:
        """Labels for the left, ok and right buttons."""
        return (None, None, None)

    def on_touch(self, key: str) -> None:
        """A tap on one of the scene's own targets (not a button's)."""

    def targets(self) -> list[Target]:
        """What a finger can tap: the button hints shown, then the scene's own targets on top."""
        shown = [
            Target(key, draw.HINT_BOXES[key])
            for key, label in zip(draw.HINT_BOXES, self.hints(), strict=True)
            if label
        ]
        return shown + self.touch_targets()

    def touch_targets(self) -> list[Target]:
        """The scene's own tappable things (menu rows, cards), in design units."""
        return []

    def cue(self, name: str) -> None:
        """A sound of the table ("landing", "ruling", "win", "again"), if the kiosk has sound."""
        sounds = getattr(self.kiosk, "sounds", None)
        if sounds is not None:
            sounds.play(name)

    def speak(self, sentence: str) -> None:
        """The ruling spoken in the visitor's language, when staff turned speech on."""
        sounds = getattr(self.kiosk, "sounds", None)
        if sounds is not None:
            sounds.speak(sentence, self.tr.language)

    def stakes(self, n: int) -> str:
        """`n` stakes, named as the config's [game] stakes_label says ("denier/deniers")."""
        label = self.kiosk.config.game.stakes_label.strip()
        if not label:
            return self.tr.plural("{n} stake", "{n} stakes", n).format(n=n)
        one, _, many = label.partition("/")
        return f"{n}\u00a0{one.strip() if n == 1 else (many or one).strip()}"

    @property
    def pressed(self) -> str | None:
        """The target under a finger now, to be drawn pressed."""
        touch = getattr(self.kiosk, "touch", None)
        return touch.pressed if touch is not None else None

    def view(self) -> tuple:
        """What the scene shows, coarsely: a new value means a new screenshot is worth taking."""
        return (self.name,)

    def render(self, surface: pygame.Surface, layout: Layout) -> None:
        surface.fill(theme.BACKGROUND)
        self.draw(surface, layout)
        draw.hints(surface, layout, self.hints(), self.pressed)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        """The scene's own content (above the button hints)."""


def heading(surface: pygame.Surface, layout: Layout, title: str, subtitle: str = "") -> None:
    """The title line most scenes share."""
    draw.styled(surface, layout, title, (400, 14), theme.PAGE_TITLE, max_width=760)
    if subtitle:
        draw.styled(surface, layout, subtitle, (400, 66), theme.PAGE_SUBTITLE, max_width=760)
