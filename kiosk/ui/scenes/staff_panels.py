"""The maintenance screen's panels for the technician and the curator: they draw facts that
`kiosk.health` and `kiosk.curator` gathered, and compute nothing themselves."""

from __future__ import annotations

import pygame

from kiosk.curator import Visits, minutes
from kiosk.health import Health, duration, size
from kiosk.i18n import N_, Translator
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout

PANEL = (300, 88, 470, 272)  # inside the maintenance screen's right-hand panel
# The LED each button lights in the button and light test (kiosk.health.light_for).
BUTTON_LIGHTS = {"left": N_("seat 1"), "ok": N_("throw"), "right": N_("seat 2")}


def health_lines(tr: Translator, health: Health) -> list[str]:
    """What the technician reads, one fact a line (tests read these)."""
    missing = tr("not available")
    if health.throttling is None:
        throttling = missing
    elif health.throttling.ok:
        throttling = tr("none")
    else:
        throttling = ", ".join(health.throttling.flags) or hex(health.throttling.raw)
    temperature = missing if health.temperature is None else f"{health.temperature:.1f} °C"
    lines = [
        tr("Version: {version}").format(version=health.version),
        tr("Running for: {time}").format(time=duration(health.uptime_seconds)),
        tr("Restarts today: {n}").format(n=health.restarts_today),
        tr("Free disk: {size}").format(
            size=missing if health.free_bytes is None else size(health.free_bytes)
        ),
        tr("CPU temperature: {t}").format(t=temperature),
        tr("Throttling: {state}").format(state=throttling),
        tr("Last errors:") if health.last_errors else tr("Last errors: none"),
    ]
    return lines + [f"  {line}" for line in health.last_errors]


def draw_health(surface: pygame.Surface, layout: Layout, tr: Translator, health: Health) -> None:
    lines = health_lines(tr, health)
    facts, errors = lines[:7], lines[7:]
    draw.paragraph(surface, layout, "\n".join(facts), (300, 88, 470, 180), 15, "sans", theme.TEXT)
    if errors:
        draw.paragraph(
            surface, layout, "\n".join(errors), (300, 270, 470, 96), 11, "sans", theme.MUTED
        )


def visits_lines(tr: Translator, visits: Visits) -> list[str]:
    """What the curator reads (tests read these)."""
    busiest = max(visits.per_hour.items(), key=lambda item: item[1], default=None)
    languages = ", ".join(f"{lang} {n}" for lang, n in visits.languages.items()) or "-"
    rerolls = ", ".join(f"{reason} {n}" for reason, n in visits.rerolls.items()) or "0"
    days = list(visits.per_day.items())[-3:]
    return [
        tr("Games: {n} ({finished} finished, {abandoned} abandoned)").format(
            n=visits.games, finished=visits.finished, abandoned=visits.abandoned
        ),
        tr("Last days: {days}").format(days=", ".join(f"{d} {n}" for d, n in days) or "-"),
        tr("Busiest hour: {hour}").format(
            hour="-" if busiest is None else f"{busiest[0]:02d}h ({busiest[1]})"
        ),
        tr("Languages: {list}").format(list=languages),
        tr("Average game: {time}").format(time=minutes(visits.average_seconds)),
        tr("Throw again: {list}").format(list=rerolls),
        tr("Entered by hand: {n}").format(n=visits.hand_entries),
        tr("Staff corrections: {n}, undos: {u}").format(n=visits.corrections, u=visits.undos),
        tr("Export: azar-kiosk stats --csv FILE"),
    ]


def draw_visits(surface: pygame.Surface, layout: Layout, tr: Translator, visits: Visits) -> None:
    draw.paragraph(
        surface, layout, "\n".join(visits_lines(tr, visits)), PANEL, 15, "sans", theme.TEXT
    )


def draw_light_test(
    surface: pygame.Surface, layout: Layout, tr: Translator, lit: str | None, testing: bool
) -> None:
    """The three buttons as three discs; the one pressed last is lit, as its LED is."""
    if not testing:
        draw.paragraph(
            surface,
            layout,
            tr("Press Run to start, then press each button: it lights here and its LED lights."),
            PANEL,
            16,
            "sans",
            theme.TEXT,
        )
        return
    draw.styled(
        surface,
        layout,
        tr("Press each button. The test ends 5 s after the last press."),
        (533, 100),
        theme.STAFF_INSTRUCTION,
        max_width=480,
    )
    for i, button in enumerate(("left", "ok", "right")):
        centre = layout.point(383 + i * 150, 220)
        on = button == lit
        pygame.draw.circle(
            surface, theme.GOLD if on else (60, 52, 40), centre, layout.px(46), 0 if on else 3
        )
        label = {"left": tr("Left"), "ok": tr("OK"), "right": tr("Right")}[button]
        draw.styled(surface, layout, label, (383 + i * 150, 280), theme.STAFF_BUTTON)
        draw.styled(
            surface,
            layout,
            tr("LED: {name}").format(name=tr(BUTTON_LIGHTS[button])),
            (383 + i * 150, 304),
            theme.STAFF_LED,
        )
