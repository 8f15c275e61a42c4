"""LEDs: the seat LEDs follow the turn; the waiting LED pulses and stops."""

from __future__ import annotations

import time

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.lights import GpioLights, NullLights, open_lights
from kiosk.config import LightsConfig


def test_seat_leds_follow_the_turn() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    with_lights = GpioLights(LightsConfig(), pin_factory=factory)
    seat0, seat1 = factory.pin(17), factory.pin(27)
    assert (seat0.state, seat1.state) == (False, False)
    with_lights.show_turn(0)
    assert (seat0.state, seat1.state) == (True, False)
    with_lights.show_turn(1)
    assert (seat0.state, seat1.state) == (False, True)
    with_lights.show_turn(None)
    assert (seat0.state, seat1.state) == (False, False)
    with_lights.close()
    with_lights.close()
    factory.reset()


def test_the_waiting_led_pulses_then_goes_dark() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    lights = GpioLights(LightsConfig(waiting_pin=12), pin_factory=factory)
    pin = factory.pin(12)
    lights.waiting(True)
    assert lights.is_waiting
    deadline = time.monotonic() + 10  # a pulse takes time; wait for two brightness levels
    while len({round(s.state, 2) for s in pin.states}) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    levels = {round(s.state, 2) for s in pin.states}
    assert len(levels) >= 3 and max(levels) > 0
    lights.waiting(False)
    assert pin.state == 0
    lights.close()
    factory.reset()


def test_plain_mock_pins_blink_instead_of_pulsing() -> None:
    factory = MockFactory()  # no PWM, as GPIOZERO_PIN_FACTORY=mock gives on a laptop
    lights = GpioLights(LightsConfig(), pin_factory=factory)
    lights.waiting(True)
    lights.waiting(False)
    assert factory.pin(22).state is False
    lights.close()
    factory.reset()


def test_a_bad_seat_is_refused() -> None:
    factory = MockFactory()
    lights = GpioLights(LightsConfig(), pin_factory=factory)
    try:
        lights.show_turn(2)
    except ValueError as error:
        assert "seat" in str(error)
    else:
        raise AssertionError("seat 2 was accepted")
    finally:
        lights.close()
        factory.reset()


def test_null_lights_when_disabled() -> None:
    lights = open_lights(LightsConfig(enabled=False))
    assert isinstance(lights, NullLights)
    lights.show_turn(1)
    lights.waiting(True)
    assert (lights.seat, lights.is_waiting) == (1, True)
    lights.close()
