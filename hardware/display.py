"""Displays: anything with ``display(image)``.

On the Pi, luma.oled's SSD1306 or SH1106 on I2C; on a development machine, the terminal
(two rows of pixels per character) or a recorder that keeps every frame for an animated
GIF; in tests, luma.core's ``dummy`` device.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Protocol, TextIO

from PIL import Image

from companion.errors import CompanionError

DRIVERS = ("ssd1306", "sh1106")


class DisplayError(CompanionError, OSError):
    """The display could not be opened."""


class Display(Protocol):
    def display(self, image: Image.Image) -> None: ...


def open_oled(
    driver: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0
) -> Any:  # a luma device: display(), contrast(), hide(), cleanup()
    """The OLED on the I2C bus (luma.oled imported here only: not needed elsewhere)."""
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled

    if driver not in DRIVERS:
        raise DisplayError(f"display driver {driver!r}: expected one of {', '.join(DRIVERS)}")
    try:
        serial = i2c(port=port, address=address)
        device = getattr(oled, driver)(serial, rotate=rotate)
    except Exception as error:  # luma raises its own errors for a missing bus or address
        raise DisplayError(
            f"no {driver} display at I2C port {port}, address {address:#x}: {error}"
        ) from None
    # luma blanks and clears the screen when the process exits unless told to persist: the
    # last screen ("safe to unplug" after a shutdown) must stay.
    device.persist = True
    return device


def dummy_display() -> Any:
    """luma.core's pseudo-device that keeps the last image (tests)."""
    from luma.core.device import dummy

    return dummy(width=128, height=64, mode="1")


class TerminalDisplay:
    """Draws each image in the terminal: one character for two rows of pixels."""

    def __init__(self, stream: TextIO | None = None, *, clear: bool = True) -> None:
        self.stream = stream or sys.stdout
        self.clear = clear

    def display(self, image: Image.Image) -> None:
        self.stream.write(("\x1b[H\x1b[2J" if self.clear else "") + terminal_text(image) + "\n")
        self.stream.flush()


_HALF_BLOCKS = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}


def terminal_text(image: Image.Image) -> str:
    """The image as text, framed, with half-block characters."""
    mono = image.convert("1")
    width, height = mono.size
    pixels = mono.load()
    assert pixels is not None
    rows = []
    for y in range(0, height, 2):
        cells = []
        for x in range(width):
            top = 1 if pixels[x, y] else 0
            bottom = 1 if y + 1 < height and pixels[x, y + 1] else 0
            cells.append(_HALF_BLOCKS[(top, bottom)])
        rows.append("│" + "".join(cells) + "│")
    rule = "─" * width
    return "\n".join([f"┌{rule}┐", *rows, f"└{rule}┘"])


class FrameRecorder:
    """Keeps every image shown, to write them as an animated GIF."""

    def __init__(self, *, scale: int = 2) -> None:
        self.frames: list[Image.Image] = []
        self.scale = scale

    def display(self, image: Image.Image) -> None:
        self.frames.append(image.copy())

    def write_gif(self, path: Path, *, frame_ms: int = 700) -> None:
        if not self.frames:
            raise DisplayError("no screen was shown: nothing to write")
        path.parent.mkdir(parents=True, exist_ok=True)
        frames = [self._framed(image) for image in self.frames]
        frames[0].save(path, save_all=True, append_images=frames[1:], duration=frame_ms, loop=0)

    def _framed(self, image: Image.Image) -> Image.Image:
        width, height = image.size
        big = image.convert("L").resize(
            (width * self.scale, height * self.scale), Image.Resampling.NEAREST
        )
        framed = Image.new("L", (big.width + 8, big.height + 8), 60)
        framed.paste(big, (4, 4))
        return framed.convert("P")


class ImageFiles:
    """Writes each new image as a numbered PNG in a folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        folder.mkdir(parents=True, exist_ok=True)

    def display(self, image: Image.Image) -> None:
        self.count += 1
        image.save(self.folder / f"screen-{self.count:04d}.png")
