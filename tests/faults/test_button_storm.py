"""Fault: button storms (a child hammering every button, a loose contact bouncing) and two
buttons at once, through gpiozero's mock pins wired as on the Pi and through the keyboard and
touch fallback, during games read by the camera.

Whatever the presses do (throws entered by hand, corrections, undos, games left, maintenance
opened, new games), the kiosk must not fail, the debounce must hold, and what it shows must be
exactly what its log rebuilds: every game's events numbered without gap or double, every game
marked over really over with the outcome its throws give, the game in progress resumable to
the same throws.
"""

from __future__ import annotations

import random

import pygame
from gpiozero.pins.mock import MockFactory

from hardware.buttons import GpioButtons
from hardware.keys import KeyButtons
from kiosk.gamelog import GameLog
from kiosk.match import Match, replay
from kiosk.records import effective_sources
from kiosk.rules.variants import find_variant
from kiosk.worker import RollRead
from vision.reading import Die, Roll

from .conftest import headless_kiosk
from .fakes import Camera, Clock


def camera_read(rng: random.Random) -> RollRead:
    values = [rng.randint(1, 6) for _ in range(3)]
    return RollRead(
        Roll(tuple(Die(v, (40.0 * i, 40.0), 30.0, 0.95) for i, v in enumerate(values))), 0.0
    )


def assert_log_is_the_truth(kiosk, folder, reads_sent: int) -> None:
    """What the kiosk shows is what its log rebuilds, as a restart would read it."""
    log = GameLog.in_dir(folder)  # a second connection: what is on the disk
    assert log.integrity() == "ok"
    camera_throws = 0
    for game in log.games():
        assert [e.seq for e in game.events] == list(range(len(game.events)))
        camera_throws += sum(e.kind == "throw" and e.source == "camera" for e in game.events)
        state, _ = replay(find_variant(game.game, game.variant), game.first, game.throws)
        if game.status == "over":
            outcome = state.outcome
            assert outcome is not None
            assert (int(outcome.winner), outcome.reason, outcome.stakes) == (
                game.winner,
                game.reason,
                game.stakes,
            )
        elif game.status == "playing":
            assert kiosk.match is not None and game.id == kiosk.match.game_id
    assert camera_throws <= reads_sent  # no read was applied twice
    match = kiosk.match
    if match is not None:
        logged = log.game(match.game_id)
        sources = effective_sources(logged.events)
        assert [(e.dice, e.source) for e in match.entries] == sources
        if not match.is_over:
            resumed = Match.resume(log)
            assert resumed is not None and resumed.throws == match.throws
            assert resumed.state == match.state
    log.close()


def test_a_storm_on_the_gpio_pins_and_two_buttons_at_once(tmp_path) -> None:
    kiosk = headless_kiosk(tmp_path, Camera())
    clock = Clock()
    factory = MockFactory()
    config = kiosk.config.buttons
    buttons = GpioButtons(
        config, kiosk.events, pin_factory=factory, clock=clock, poll_interval=None
    )
    pins = {name: factory.pin(pin) for name, pin in config.pins.items()}
    rng = random.Random(6)
    presses: list = []
    put = kiosk.events.put

    def counted(event) -> None:
        if hasattr(event, "button"):
            presses.append(event)
        put(event)

    kiosk.events.put = counted
    reads = 0
    try:
        kiosk.new_match(find_variant("medio-azar"))
        for burst in range(40):
            # A storm: 300 edges on all three pins within 3 ms (10 microseconds apart).
            start = clock.t
            before = len(presses)
            for _ in range(150):
                name = rng.choice(list(pins))
                pins[name].drive_low()
                clock.t += 0.00001
                pins[name].drive_high()
                clock.t += 0.00001
            storm = clock.t - start
            clock.t += 0.05  # the contacts settle; the buttons' poll settles pending bounces
            buttons.poll()
            # Debounced: a button reports at most one press per 30 ms window of the storm.
            bound = 3 * (int(storm / (config.debounce_ms / 1000)) + 2)
            assert len(presses) - before <= bound
            kiosk.frame(1 / 30)
            kiosk.events.put(camera_read(rng))
            reads += 1
            kiosk.frame(1 / 30)
            # Two buttons at once: pressed together, released together.
            a, b = rng.sample(list(pins), 2)
            pins[a].drive_low()
            pins[b].drive_low()
            clock.t += 0.1
            pins[a].drive_high()
            pins[b].drive_high()
            clock.t += 0.1
            kiosk.frame(1 / 30)
            if kiosk.scene.name in ("attract", "language", "choose", "rules", "result"):
                kiosk.new_match(find_variant("azar" if burst % 3 else "medio-azar"))
            kiosk.frame(1 / 30)
            assert kiosk.notice is None, kiosk.notice  # no scene ever failed
        # Both held past the hold time: ok's hold opens maintenance, left's hold is a hold.
        pins["ok"].drive_low()
        pins["left"].drive_low()
        clock.t += config.hold_seconds + 0.1
        buttons.poll()
        pins["ok"].drive_high()
        pins["left"].drive_high()
        kiosk.frame(1 / 30)
        assert {(e.button, e.kind) for e in presses[-2:]} == {("ok", "hold"), ("left", "hold")}
        assert kiosk.notice is None
    finally:
        buttons.close()
    assert len(presses) > 80  # the storms did reach the kiosk
    assert_log_is_the_truth(kiosk, tmp_path, reads)
    assert sum(len(g.events) for g in kiosk.log.games()) >= 10  # throws, corrections, undos
    kiosk.log.close()


def test_a_storm_on_the_keyboard_and_the_touch_screen(tmp_path) -> None:
    kiosk = headless_kiosk(tmp_path, Camera())
    kiosk.keys = KeyButtons(kiosk.config.buttons.hold_seconds, 800)
    rng = random.Random(7)
    keys = [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER]
    pygame.event.clear()
    reads = 0
    kiosk.new_match(find_variant("azar"))
    for burst in range(30):
        for _ in range(100):  # hundreds of events between two frames
            roll = rng.random()
            if roll < 0.6:
                key = rng.choice(keys)
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
                pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key))
            elif roll < 0.7:  # two keys at once
                a, b = rng.sample(keys, 2)
                for kind in (pygame.KEYDOWN, pygame.KEYUP):
                    pygame.event.post(pygame.event.Event(kind, key=a))
                    pygame.event.post(pygame.event.Event(kind, key=b))
            elif roll < 0.85:  # a touch anywhere, sometimes two fingers
                x = rng.random()
                pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=x, y=0.5))
                if rng.random() < 0.3:
                    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=1 - x, y=0.5))
                pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=x, y=0.5))
            elif roll < 0.88:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
            else:
                kiosk.events.put(camera_read(rng))
                reads += 1
        kiosk.frame(1 / 30)
        over = kiosk.match is None or kiosk.match.is_over  # visitors cannot undo the end
        if over or kiosk.scene.name in ("attract", "language", "choose", "rules", "result"):
            kiosk.new_match(find_variant("medio-azar" if burst % 2 else "azar"))
        kiosk.frame(1 / 30)
        assert kiosk.notice is None, kiosk.notice
    assert_log_is_the_truth(kiosk, tmp_path, reads)
    assert sum(len(g.events) for g in kiosk.log.games()) > 20  # the storms played
    kiosk.log.close()
