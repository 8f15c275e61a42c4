"""Arcade buttons through gpiozero's MockFactory: presses, holds and debounce become events."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.buttons import ButtonEvent, GpioButtons, PressTracker
from kiosk.config import ButtonsConfig


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def rig() -> Iterator[tuple[GpioButtons, MockFactory, FakeClock, queue.Queue[ButtonEvent]]]:
    factory = MockFactory()
    clock = FakeClock()
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = GpioButtons(
        ButtonsConfig(), events, pin_factory=factory, clock=clock, poll_interval=None
    )
    yield buttons, factory, clock, events
    buttons.close()
    factory.reset()


def drain(events: queue.Queue[ButtonEvent]) -> list[ButtonEvent]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_a_short_press_is_reported_on_release(rig) -> None:
    buttons, factory, clock, events = rig
    pin = factory.pin(13)  # right
    pin.drive_low()
    assert drain(events) == []
    clock.now += 0.2
    pin.drive_high()
    assert drain(events) == [ButtonEvent("right", "press", clock.now)]


def test_each_button_has_its_own_pin(rig) -> None:
    buttons, factory, clock, events = rig
    for pin in (5, 6, 13):
        factory.pin(pin).drive_low()
        clock.now += 0.1
        factory.pin(pin).drive_high()
        clock.now += 0.1
    assert [e.button for e in drain(events)] == ["left", "ok", "right"]


def test_a_long_hold_is_reported_once_when_reached_and_no_press_follows(rig) -> None:
    buttons, factory, clock, events = rig
    pin = factory.pin(6)
    pin.drive_low()
    clock.now += 2.9
    buttons.poll()
    assert drain(events) == []
    clock.now += 0.1
    buttons.poll()
    assert drain(events) == [ButtonEvent("ok", "hold", clock.now)]
    clock.now += 2
    buttons.poll()
    pin.drive_high()
    buttons.poll()
    assert drain(events) == []


def test_a_hold_not_yet_polled_is_reported_at_release(rig) -> None:
    buttons, factory, clock, events = rig
    factory.pin(6).drive_low()
    clock.now += 3.5
    factory.pin(6).drive_high()
    assert [e.kind for e in drain(events)] == ["hold"]


def test_contact_bounce_gives_one_press(rig) -> None:
    buttons, factory, clock, events = rig
    pin = factory.pin(5)
    for _ in range(4):  # bounce on the way down, 2 ms apart
        pin.drive_low()
        clock.now += 0.002
        pin.drive_high()
        clock.now += 0.002
    pin.drive_low()
    clock.now += 0.15
    for _ in range(3):  # and on the way up
        pin.drive_high()
        clock.now += 0.002
        pin.drive_low()
        clock.now += 0.002
    pin.drive_high()
    clock.now += 0.05
    buttons.poll()
    (event,) = drain(events)
    assert (event.button, event.kind) == ("left", "press")
    assert event.t == pytest.approx(100.016 + 0.15)  # the first release edge


def test_a_bounce_ending_released_is_settled_by_poll(rig) -> None:
    """The last edge fell inside the debounce window: poll() catches up with the pin."""
    buttons, factory, clock, events = rig
    pin = factory.pin(5)
    pin.drive_low()
    clock.now += 0.01  # released 10 ms later, inside the 30 ms window
    pin.drive_high()
    assert buttons.is_down("left")
    clock.now += 0.05
    buttons.poll()
    assert not buttons.is_down("left")
    assert [e.kind for e in drain(events)] == ["press"]


def test_pull_down_wiring_presses_on_high() -> None:
    factory = MockFactory()
    clock = FakeClock()
    events: queue.Queue[ButtonEvent] = queue.Queue()
    config = ButtonsConfig(pull_up=False)
    with GpioButtons(config, events, pin_factory=factory, clock=clock, poll_interval=None):
        factory.pin(6).drive_high()
        clock.now += 0.1
        factory.pin(6).drive_low()
    assert drain(events) == [ButtonEvent("ok", "press", clock.now)]
    factory.reset()


def test_close_is_idempotent_and_frees_the_pins(rig) -> None:
    buttons, factory, clock, events = rig
    buttons.close()
    buttons.close()
    again = GpioButtons(ButtonsConfig(), events, pin_factory=factory, poll_interval=None)
    again.close()


def test_the_poll_thread_reports_a_hold_by_itself() -> None:
    factory = MockFactory()
    clock = FakeClock()
    events: queue.Queue[ButtonEvent] = queue.Queue()
    with GpioButtons(ButtonsConfig(), events, pin_factory=factory, clock=clock, poll_interval=0.01):
        factory.pin(6).drive_low()
        clock.now += 5
        event = events.get(timeout=10)  # waits for the thread, whatever the machine's speed
    assert event == ButtonEvent("ok", "hold", clock.now)
    factory.reset()


@settings(deadline=None, max_examples=200)
@given(
    st.lists(st.tuples(st.booleans(), st.floats(0.0005, 5.0)), min_size=1, max_size=30),
)
def test_tracker_never_reports_more_than_one_event_per_accepted_press(edges) -> None:
    """Whatever the edges, events alternate sanely: each one ends a distinct press."""
    tracker = PressTracker("ok", hold_seconds=3.0, debounce=0.03)
    t = 0.0
    events = []
    downs = 0
    for down, gap in edges:
        t += gap
        was = tracker.is_down
        events += tracker.edge(down, t)
        events += tracker.poll(t)
        downs += (not was) and tracker.is_down
    t += 10
    events += tracker.edge(False, t) + tracker.poll(t)
    assert len(events) <= downs
    assert all(e.kind in ("press", "hold") for e in events)
    assert [e.t for e in events] == sorted(e.t for e in events)
