"""Four push buttons on GPIO pins, through gpiozero.

Each button reports a short press when it is released before the hold time, and a long
press as soon as it has been held that long. The callbacks run in gpiozero's threads
and only call ``report`` (which puts the press on the device's queue): they never touch
the screens' state. Tests pass gpiozero's ``MockFactory`` as ``pin_factory`` and press a
button with ``pin.drive_low()``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import CompanionError

Report = Callable[[str, bool], None]  # (button name, long press)


class ButtonError(CompanionError, OSError):
    """The buttons could not be set up (a pin in use, no GPIO on this machine)."""


class ButtonBoard:
    """The device's buttons, by name (``up``, ``down``, ``select``, ``back``)."""

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        report: Report,
        hold_time: float = 0.8,
        bounce_time: float | None = 0.02,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button  # only here: the engine and tests without GPIO need none

        self._report = report
        self._held: dict[str, bool] = {}
        self._lock = threading.Lock()
        self.buttons: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce_time,
                    hold_time=hold_time,
                    pin_factory=pin_factory,
                )
                button.when_pressed = self._pressed(name)
                button.when_held = self._held_down(name)
                button.when_released = self._released(name)
                self.buttons[name] = button
        except Exception as error:  # gpiozero raises its own errors for busy or absent pins
            self.close()
            raise ButtonError(f"buttons could not be set up: {error}") from None

    def _pressed(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            with self._lock:
                self._held[name] = False

        return pressed

    def _held_down(self, name: str) -> Callable[[], None]:
        def held() -> None:
            with self._lock:
                self._held[name] = True
            self._report(name, True)

        return held

    def _released(self, name: str) -> Callable[[], None]:
        def released() -> None:
            with self._lock:
                was_held = self._held.pop(name, False)
            if not was_held:
                self._report(name, False)

        return released

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()


class Beeper:
    """A buzzer or an LED on a GPIO pin that signals a throw was read."""

    def __init__(self, pin: int, *, pin_factory: Any = None, length: float = 0.08) -> None:
        from gpiozero import DigitalOutputDevice

        try:
            self._device = DigitalOutputDevice(pin, pin_factory=pin_factory)
        except Exception as error:
            raise ButtonError(f"the buzzer on GPIO{pin} could not be set up: {error}") from None
        self._length = length

    def beep(self) -> None:
        self._device.blink(on_time=self._length, off_time=0, n=1, background=True)

    def close(self) -> None:
        self._device.close()
