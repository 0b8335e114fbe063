"""The device: screens and buttons beside a real board.

This package is the application layer and the only code that imports ``hardware/`` and
``vision/``. Events (buttons, camera readings, timers) go through one queue to the
screens' state machine (:mod:`companion.device.app`); rendering
(:mod:`companion.device.render`) is a pure function from a screen's view to a 1-bit
image that any display with ``display(image)`` shows.
"""
