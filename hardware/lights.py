"""LEDs by the dice track: a steady one per seat for whose throw it is, and a pulsing one while
the kiosk waits for the dice. `NullLights` stands in on machines without GPIO.
"""

from __future__ import annotations

from typing import Any, Protocol


class Lights(Protocol):
    def show_turn(self, seat: int | None) -> None:
        """Light seat 0's or seat 1's LED (the other off); None turns both off."""
        ...

    def waiting(self, on: bool) -> None:
        """Pulse the "throw the dice" LED, or turn it off."""
        ...

    def close(self) -> None: ...


class NullLights:
    """No LEDs: remembers what it was asked, so the UI and tests can still look."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.is_waiting = False

    def show_turn(self, seat: int | None) -> None:
        self.seat = seat

    def waiting(self, on: bool) -> None:
        self.is_waiting = on

    def close(self) -> None:
        pass


class GpioLights:
    """gpiozero LEDs; `config` needs `seat_pins` (two BCM numbers) and `waiting_pin`."""

    def __init__(self, config: Any, pin_factory: Any = None) -> None:
        from gpiozero import LED, PWMLED, PinPWMUnsupported

        self.seat: int | None = None
        self.is_waiting = False
        self._seats: list[Any] = []
        self._waiting: Any = None
        try:
            self._seats = [LED(pin, pin_factory=pin_factory) for pin in config.seat_pins]
            try:
                self._waiting = PWMLED(config.waiting_pin, pin_factory=pin_factory)
            except PinPWMUnsupported:  # e.g. gpiozero's plain mock pins: blink instead
                self._waiting = LED(config.waiting_pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def show_turn(self, seat: int | None) -> None:
        if seat is not None and not 0 <= seat < len(self._seats):
            raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
        self.seat = seat
        for index, led in enumerate(self._seats):
            led.value = index == seat

    def waiting(self, on: bool) -> None:
        if on == self.is_waiting or self._waiting is None:
            return
        self.is_waiting = on
        if on and hasattr(self._waiting, "pulse"):
            self._waiting.pulse(fade_in_time=0.8, fade_out_time=0.8)
        elif on:
            self._waiting.blink(on_time=0.8, off_time=0.8)
        else:
            self._waiting.off()

    def close(self) -> None:
        """Turn everything off and release the pins; calling it again does nothing."""
        devices = [*self._seats, self._waiting]
        self._seats, self._waiting = [], None
        for device in devices:
            if device is not None:
                device.close()


def open_lights(config: Any, pin_factory: Any = None) -> Lights:
    """GpioLights when `config.enabled`, else NullLights."""
    return GpioLights(config, pin_factory) if config.enabled else NullLights()
