"""Maintenance, for the staff (hold ok then the staff code, the key switch, or F12 in the
demo): camera view with the reader's overlay, tray calibration from an empty tray, a live test
read, the dice statistics, the curator's figures, the technician's health facts, a button and
light test, export of the log, exit.

Left/right choose a tool, ok runs it; calibrate and exit ask for a second ok within a few
seconds. Holding ok ends the staff mode, as do `staff.idle_seconds` without a press.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime
from pathlib import Path

import pygame

from kiosk import curator, health
from kiosk.i18n import N_
from kiosk.records import event_rows, game_record
from kiosk.stats import statistics, sum_distribution
from kiosk.ui import draw, theme
from kiosk.ui.layout import Layout
from kiosk.ui.scene import Scene, heading
from kiosk.ui.scenes import reader_status, staff_panels
from kiosk.ui.scenes.play_view import REROLL_REASONS
from kiosk.worker import ToolResult

log = logging.getLogger(__name__)

# What the tray watcher sees (vision.settle states), in plain words rather than state names.
TRAY_STATES = {
    "empty": N_("The tray is empty."),
    "moving": N_("The dice are moving."),
    "settled": N_("The dice have come to rest."),
}
TRAY_UNKNOWN = N_("Watching the tray.")
TRAY_RESTLESS = N_("Moving for {n} s: is the table or the camera shaking?")
# What the calibration says of the picture (vision.calibrate.Verdict values).
VERDICTS = {
    "ok": N_("The picture is good."),
    "too_dark": N_("The picture is too dark: add light or raise the exposure."),
    "too_bright": N_("The picture is too bright: lower the exposure."),
    "glare": N_("There is glare: move the light or dull the tray."),
    "out_of_focus": N_("The picture is out of focus: adjust the lens."),
}
TOOLS = (
    ("camera", N_("Camera view")),
    ("calibrate", N_("Calibrate the empty tray")),
    ("test_read", N_("Test read")),
    ("stats", N_("Statistics")),
    ("visits", N_("Visitors")),
    ("health", N_("Technician")),
    ("lights", N_("Button and light test")),
    ("export", N_("Export the log")),
    ("back", N_("Back to the game")),
    ("exit", N_("Exit the kiosk")),
)


CONFIRM_SECONDS = 4.0  # a second ok within this long confirms calibrate or exit
CONFIRMED = ("calibrate", "exit")  # tools that replace the calibration or stop the kiosk
EXPORT_EVERY_SECONDS = 60.0  # at most one export a minute: each one copies the whole log
LIGHT_TEST_SECONDS = 5.0  # the button and light test ends this long after the last press


class Maintenance(Scene):
    name = "maintenance"

    def __init__(self, kiosk) -> None:
        super().__init__(kiosk)
        self.last_export = float("-inf")  # kiosk clock time of the last export, across visits
        self.started = time.monotonic()  # the scenes are built as the kiosk starts: its uptime
        self.board = None  # CPU temperature and throttling: None, the Pi's own (tests: a fake)

    def enter(self, **options) -> None:
        super().enter(**options)
        self.selected = 0
        self.status = ""
        self.stats = None
        self.test_roll = None
        self.armed: str | None = None  # the tool waiting for its confirming second ok
        self.armed_until = 0.0
        self.facts: health.Health | None = None
        self.visits: curator.Visits | None = None
        self.lit: str | None = None  # the button and light test: the button pressed last
        self.testing_until = 0.0  # kiosk clock time the light test ends; 0 when not testing

    @property
    def tool(self) -> str:
        return TOOLS[self.selected][0]

    @property
    def testing(self) -> bool:
        return self.kiosk.clock() < self.testing_until

    def on_button(self, button: str, kind: str) -> None:
        if self.testing:  # every button only lights itself until the test ends
            self.light(button)
            return
        if button in ("left", "right"):
            self.selected = (self.selected + (1 if button == "right" else -1)) % len(TOOLS)
            self.status = ""
            self.refresh()
            return
        self.run_tool()

    def refresh(self) -> None:
        """Read the facts the chosen tool shows (once on arriving at it, and on Run)."""
        kiosk = self.kiosk
        if self.tool == "stats":
            self.stats = statistics(kiosk.log.all_dice())
        elif self.tool == "visits":
            self.visits = curator.visits(list(kiosk.log.games()), kiosk.log.rerolls())
        elif self.tool == "health":
            from kiosk.cli import version

            uptime = time.monotonic() - self.started
            self.facts = health.gather(kiosk.data_dir, uptime, self.board, version())

    def light(self, button: str) -> None:
        """The light test: `button` lights on screen and its LED; the test runs on."""
        self.lit = button
        self.testing_until = self.kiosk.clock() + LIGHT_TEST_SECONDS
        if self.kiosk.lights is not None:
            health.light_for(self.kiosk.lights, button)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.testing_until and not self.testing:  # the test is over: the LEDs as they were
            self.testing_until, self.lit = 0.0, None
            self.kiosk.show_turn()

    def run_tool(self) -> None:
        tr, kiosk = self.tr, self.kiosk
        tool = self.tool
        if tool in CONFIRMED and not (self.armed == tool and kiosk.clock() < self.armed_until):
            self.armed, self.armed_until = tool, kiosk.clock() + CONFIRM_SECONDS
            self.status = {
                "calibrate": tr("The tray must be empty. Press Run again to calibrate."),
                "exit": tr("Press Run again to stop the kiosk."),
            }[tool]
            return
        self.armed = None
        if tool in ("calibrate", "test_read"):
            if kiosk.worker is None or not kiosk.camera_ok:
                self.status = tr("No camera.")
                return
            kiosk.worker.request(tool)
            self.status = tr("Working...")
        elif tool in ("stats", "visits", "health"):
            self.refresh()
        elif tool == "lights":
            self.testing_until = kiosk.clock() + LIGHT_TEST_SECONDS
            log.info("the staff started the button and light test")
        elif tool == "export":
            self.status = self.export()
        elif tool == "back":
            kiosk.goto(kiosk.previous)
        elif tool == "exit":
            log.info("the staff stopped the kiosk from the maintenance screen")
            kiosk.running = False

    def export(self) -> str:
        """Write the whole log as JSON and CSV next to the database: at most once a minute,
        keeping the newest `staff.exports_kept` of each, so a card never fills with exports."""
        import csv

        from kiosk.records import CSV_FIELDS

        now = self.kiosk.clock()
        wait = EXPORT_EVERY_SECONDS - (now - self.last_export)
        if wait > 0:
            return self.tr("Exported a moment ago: try again in {n} s.").format(n=round(wait))
        self.last_export = now
        folder = Path(self.kiosk.data_dir) / "exports"
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")  # sorts by time, never repeats
        try:
            folder.mkdir(parents=True, exist_ok=True)
            games = list(self.kiosk.log.games())
            (folder / f"games-{stamp}.json").write_text(
                json.dumps([game_record(g) for g in games], indent=1), encoding="utf-8"
            )
            with (folder / f"throws-{stamp}.csv").open("w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, CSV_FIELDS)
                writer.writeheader()
                writer.writerows(event_rows(games))
            keep = self.kiosk.config.staff.exports_kept
            for pattern in ("games-*.json", "throws-*.csv"):
                for old in sorted(folder.glob(pattern))[:-keep]:
                    old.unlink()
        except OSError as error:
            log.error("export failed: %s", error)
            return self.tr("Export failed: {error}").format(error=error.strerror or error)
        log.info("the staff exported the log to %s", folder)
        return self.tr("Saved in {folder}").format(folder=folder)

    def on_event(self, event) -> None:
        if not isinstance(event, ToolResult):
            return
        tr = self.tr
        if not event.ok:
            self.status = tr("Failed: {error}").format(error=event.detail)
        elif event.name == "test_read":
            roll = event.value
            self.test_roll = roll
            if roll.ok:
                self.status = tr("Read {dice}, total {total}").format(
                    dice=" ".join(map(str, roll.values)), total=roll.total
                )
            else:
                reason = REROLL_REASONS.get(str(roll.reason), REROLL_REASONS["unreadable"])
                self.status = tr("Throw again: {reason}").format(reason=tr(reason))
        elif event.name == "calibrate":
            calibration, quality = event.value
            verdict = tr(VERDICTS.get(str(quality.verdict), VERDICTS["ok"]))
            self.status = f"{self.kiosk.apply_calibration(calibration)} {verdict}"

    def hints(self):
        return (self.tr("Previous"), self.tr("Run"), self.tr("Next"))

    def view(self) -> tuple:
        return (self.name, self.selected, self.status, self.lit, self.testing)

    def draw(self, surface: pygame.Surface, layout: Layout) -> None:
        tr = self.tr
        heading(surface, layout, tr("Maintenance"))
        for i, (_, label) in enumerate(TOOLS):
            y = 74 + i * 35
            chosen = i == self.selected
            box = layout.rect(16, y, 250, 31)
            colour = draw.option(surface, layout, box, chosen, radius=8, width=2.5)
            draw.styled(
                surface,
                layout,
                tr(label),
                (30, y + 6),
                theme.STAFF_MENU,
                max_width=225,
                color=colour,
            )
        area = layout.rect(280, 76, 506, 292)
        draw.panel(surface, area, layout, color=(12, 10, 8), radius=10)
        if self.tool == "stats":
            self.draw_stats(surface, layout)
        elif self.tool in ("visits", "health"):
            if (self.visits if self.tool == "visits" else self.facts) is None:
                self.refresh()  # arrived here without left/right (a screenshot, a test)
            if self.tool == "visits" and self.visits is not None:
                staff_panels.draw_visits(surface, layout, tr, self.visits)
            elif self.facts is not None:
                staff_panels.draw_health(surface, layout, tr, self.facts)
        elif self.tool == "lights":
            staff_panels.draw_light_test(surface, layout, tr, self.lit, self.testing)
        elif self.tool in ("camera", "calibrate", "test_read"):
            self.draw_camera(surface, layout, area)
        else:
            self.draw_summary(surface, layout)
        if self.status:
            draw.paragraph(
                surface, layout, self.status, (284, 376, 500, 50), 15, "sans-bold", theme.WARN
            )

    def draw_summary(self, surface, layout) -> None:
        tr, kiosk = self.tr, self.kiosk
        counts = kiosk.log.counts()
        lines = [
            tr("Games finished: {n}").format(n=counts.get("over", 0)),
            tr("Games abandoned: {n}").format(n=counts.get("abandoned", 0)),
            tr("Camera: {state}").format(state=tr("working") if kiosk.camera_ok else tr("lost")),
            tr("Game log: {state}").format(
                state=kiosk.log.problem or (kiosk.log.incidents or [tr("working")])[-1]
            ),
            tr("Data folder: {path}").format(path=kiosk.data_dir),
        ]
        draw.paragraph(
            surface,
            layout,
            "\n".join(lines),
            (300, 92, 470, 260),
            16,
            "sans",
            theme.TEXT,
            spacing=1.5,
        )

    def draw_camera(self, surface, layout, area: pygame.Rect) -> None:
        preview = self.kiosk.worker.preview() if self.kiosk.worker is not None else None
        if preview is None:
            draw.styled(surface, layout, self.tr("No camera."), (533, 200), theme.STAFF_WARNING)
            return
        h, w = preview.image.shape[:2]
        image = pygame.image.frombuffer(preview.image.tobytes(), (w, h), "BGR")
        inner = area.inflate(-layout.px(8), -layout.px(8))
        scale = min(inner.width / w, inner.height / h)
        image = pygame.transform.smoothscale(image, (round(w * scale), round(h * scale)))
        target = image.get_rect(center=inner.center)
        surface.blit(image, target)
        roll = self.test_roll if self.tool == "test_read" else None
        dice = preview.dice
        if roll is not None:
            dice = tuple(roll.dice)
            scale *= preview.scale
        for die in dice:
            side = die.size * scale * 1.25
            rect = pygame.Rect(0, 0, round(side), round(side))
            rect.center = (
                round(target.left + die.center[0] * scale),
                round(target.top + die.center[1] * scale),
            )
            pygame.draw.rect(surface, theme.GOLD, rect, layout.px(2))
            label = f"{die.value} {die.confidence:.2f}"
            image = draw.rendered("sans-bold", layout.px(12), label, theme.GOLD)
            surface.blit(image, image.get_rect(midbottom=rect.midtop))
        draw.styled(surface, layout, self.tray_words(preview), (292, 82), theme.STAFF_STATUS)
        camera = self.camera_state()
        if camera:
            style = theme.STAFF_STATUS
            box = (292, 104, 486, 36)
            draw.paragraph(surface, layout, camera, box, style.size, style.face, style.color)
        faces = self.faces_state()
        if faces:  # wrapped on two lines rather than shrunk to one: the longest is French
            style = theme.STAFF_STATUS
            box = (292, 326, 486, 36)
            draw.paragraph(surface, layout, faces, box, style.size, style.face, style.color)

    def _reader(self):
        """The kiosk's reader on its calibrated tray, or None (no tray calibrated, or a worker
        without one)."""
        watcher = getattr(self.kiosk.worker, "watcher", None)
        reader = getattr(watcher, "reader", None)
        return None if self.kiosk.calibration is None else reader

    def faces_state(self) -> str:
        """What the reader has learnt of the dice's top faces, for the staff ("" on no
        calibrated tray)."""
        return reader_status.faces_state(self._reader(), self.tr)

    def tray_words(self, preview) -> str:
        """What the tray watcher sees, in words; past RESTLESS_SECONDS of motion, the question
        a technician should ask (dice stop within seconds)."""
        if preview.restless:
            return self.tr(TRAY_RESTLESS).format(n=round(preview.moving_for))
        return self.tr(TRAY_STATES.get(preview.motion, TRAY_UNKNOWN))

    def camera_state(self) -> str:
        """Has the camera moved since calibration, for the staff ("" where it has not)."""
        return reader_status.camera_state(self._reader(), self.tr)

    def draw_stats(self, surface, layout) -> None:
        tr = self.tr
        stats = self.stats or statistics(self.kiosk.log.all_dice())
        self.stats = stats
        expected = sum_distribution()
        draw.styled(
            surface,
            layout,
            tr("Sums of {n} throws (bars) against the exact odds (lines)").format(n=stats.throws),
            (292, 82),
            theme.STAFF_STATUS,
            max_width=480,
        )
        top = max(
            [p for p in expected.values()] + [c / stats.throws for c in stats.sums.values()]
            if stats.throws
            else [0.13]
        )
        base, height = 300, 180
        for i, total in enumerate(range(3, 19)):
            x = 296 + i * 30
            share = stats.sums[total] / stats.throws if stats.throws else 0.0
            bar = share / top * height
            pygame.draw.rect(surface, theme.SEATS[1], layout.rect(x + 4, base - bar, 20, bar))
            exact = expected[total] / top * height
            pygame.draw.line(
                surface,
                theme.GOLD,
                layout.point(x, base - exact),
                layout.point(x + 28, base - exact),
                layout.px(2),
            )
            draw.styled(surface, layout, str(total), (x + 14, base + 4), theme.STAFF_AXIS)
        lines = []
        for i, test in enumerate(stats.per_die):
            verdict = {
                None: tr("too few throws"),
                True: tr("looks fair"),
                False: tr("looks unfair"),
            }[test.fair]
            lines.append(
                tr("Die {n}: chi² {chi2}, {verdict}").format(
                    n=i + 1, chi2=tr.decimal(test.chi2), verdict=verdict
                )
            )
        draw.paragraph(
            surface, layout, "\n".join(lines), (292, 322, 490, 46), 12, "sans", theme.TEXT
        )
