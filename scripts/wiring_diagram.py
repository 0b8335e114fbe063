"""Draw the device's wiring: the Raspberry Pi's 40-pin header and what is connected to it.

    .venv/bin/python scripts/wiring_diagram.py docs/images/wiring.png [--config FILE]

The pins are the configuration's (its defaults without ``--config``; the buzzer on GPIO12
when none is configured, as an example): the OLED on I2C (3V3, SDA, SCL, a ground), the
four buttons between their GPIO and a ground, the buzzer or LED between its GPIO and a
ground. Each part is drawn on the side of the header where its pins are, level with
them, so every wire is straight. Text uses the device's own bitmap fonts, so the picture
is the same with any Pillow.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from companion.device import config as device_config
from companion.device.font import BOLD, SMALL, BitmapFont
from companion.errors import CompanionError

# The 40-pin header of every Raspberry Pi since the B+ (physical pin -> what it carries).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2 SDA", 4: "5V", 5: "GPIO3 SCL", 6: "GND",
    7: "GPIO4", 8: "GPIO14", 9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18",
    13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8",
    25: "GND", 26: "GPIO7", 27: "ID_SD", 28: "ID_SC", 29: "GPIO5", 30: "GND",
    31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}  # fmt: skip
GROUNDS = tuple(pin for pin, name in HEADER.items() if name == "GND")
EXAMPLE_BUZZER = 12

SIZE = (1000, 640)
TOP = 70  # y of the header's first row
PITCH = 26
LEFT_PIN_X, RIGHT_PIN_X = 500, 526
LABEL_WIDTH = 104
LEFT_LABEL_X = LEFT_PIN_X - 14 - LABEL_WIDTH
RIGHT_LABEL_X = RIGHT_PIN_X + 14
INK, PAPER, FAINT = (30, 30, 30), (255, 255, 255), (170, 170, 170)
COLOURS = {
    "power": (200, 30, 30),
    "ground": (30, 30, 30),
    "sda": (40, 90, 200),
    "scl": (220, 160, 0),
    "button": (30, 150, 60),
    "buzzer": (230, 100, 20),
}


@dataclass(frozen=True)
class Wire:
    pin: int  # physical pin
    kind: str  # a key of COLOURS
    end: str  # the part's terminal it goes to


def physical_pin(bcm: int) -> int:
    for pin, name in HEADER.items():
        if name.split()[0] == f"GPIO{bcm}":
            return pin
    raise ValueError(f"GPIO{bcm} is not on the 40-pin header")


def row_y(pin: int) -> int:
    return TOP + (pin - 1) // 2 * PITCH


def is_left(pin: int) -> bool:
    return pin % 2 == 1


def nearest_ground(pin: int, *, same_side: bool = True) -> int:
    grounds = [g for g in GROUNDS if not same_side or is_left(g) == is_left(pin)]
    return min(grounds, key=lambda ground: (abs(row_y(ground) - row_y(pin)), -ground))


class Drawing:
    def __init__(self) -> None:
        self.image = Image.new("RGB", SIZE, PAPER)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        *,
        font: BitmapFont = SMALL,
        scale: int = 2,
        fill: tuple[int, int, int] = INK,
        right: bool = False,
        centre: bool = False,
    ) -> None:
        x, y = xy
        width = font.width(text, scale=scale)
        x -= width if right else width // 2 if centre else 0
        for px, py in font.points((x, y - font.height * scale // 2), text, scale=scale):
            self.draw.point((px, py), fill=fill)

    def wire(self, x0: int, x1: int, y: int, kind: str) -> None:
        self.draw.line((min(x0, x1), y, max(x0, x1), y), fill=COLOURS[kind], width=4)

    def header(self, used: dict[int, str]) -> None:
        rows = len(HEADER) // 2
        self.draw.rounded_rectangle(
            (LEFT_PIN_X - 14, TOP - 16, RIGHT_PIN_X + 14, TOP + (rows - 1) * PITCH + 16),
            radius=6,
            fill=(20, 90, 40),
        )
        for pin, name in HEADER.items():
            x = LEFT_PIN_X if is_left(pin) else RIGHT_PIN_X
            y = row_y(pin)
            colour = COLOURS[used[pin]] if pin in used else (230, 200, 90)
            self.draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=colour, outline=PAPER)
            self.label(pin, name, used.get(pin))
        self.text((LEFT_PIN_X + 13, TOP - 34), "Raspberry Pi header (pin 1 top left)", centre=True)

    def label(self, pin: int, name: str, kind: str | None) -> None:
        y = row_y(pin)
        x0 = LEFT_LABEL_X if is_left(pin) else RIGHT_LABEL_X
        box = (x0, y - 10, x0 + LABEL_WIDTH, y + 10)
        if kind is not None:
            self.draw.rectangle(box, fill=COLOURS[kind])
        text = f"{name} {pin}" if is_left(pin) else f"{pin} {name}"
        colour = PAPER if kind is not None else FAINT
        if is_left(pin):
            self.text((x0 + LABEL_WIDTH - 4, y), text, fill=colour, right=True)
        else:
            self.text((x0 + 4, y), text, fill=colour)

    def part(self, box: tuple[int, int, int, int], title: str, lines: Sequence[str]) -> None:
        self.draw.rounded_rectangle(box, radius=8, outline=INK, width=3, fill=(245, 245, 240))
        x0, y0, x1, _ = box
        self.text(((x0 + x1) // 2, y0 + 16), title, font=BOLD, centre=True)
        for index, line in enumerate(lines):
            self.text(((x0 + x1) // 2, y0 + 40 + 18 * index), line, centre=True)

    def terminal(self, x: int, y: int, name: str, *, left: bool) -> None:
        self.draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=INK)
        self.text((x - 10, y) if left else (x + 10, y), name, right=left)

    def switch(self, x: int, y: int) -> None:
        """A push button: two contacts and the bar that joins them when pressed."""
        self.draw.rectangle((x + 4, y - 3, x + 36, y + 3), fill=PAPER)  # the open contact
        self.draw.ellipse((x - 4, y - 4, x + 4, y + 4), outline=INK, width=2)
        self.draw.ellipse((x + 36, y - 4, x + 44, y + 4), outline=INK, width=2)
        self.draw.line((x - 2, y - 9, x + 42, y - 9), fill=INK, width=2)
        self.draw.line((x + 20, y - 9, x + 20, y - 14), fill=INK, width=2)


def wiring(config: device_config.DeviceConfig) -> Image.Image:
    drawing = Drawing()
    used: dict[int, str] = {}
    _display(drawing, used)
    _buttons(drawing, used, config.button_pins)
    buzzer = config.buzzer_pin if config.buzzer_pin is not None else EXAMPLE_BUZZER
    _buzzer(drawing, used, buzzer, example=config.buzzer_pin is None)
    drawing.header(used)
    drawing.text(
        (20, SIZE[1] - 20),
        "GPIO numbers as in the configuration ([buttons], [buzzer]); any free GPIO works",
        fill=FAINT,
    )
    return drawing.image


def _display(drawing: Drawing, used: dict[int, str]) -> None:
    wires = [Wire(1, "power", "VCC"), Wire(3, "sda", "SDA"), Wire(5, "scl", "SCL")]
    wires.append(Wire(nearest_ground(5), "ground", "GND"))
    right = 300
    drawing.part(
        (20, TOP - 30, right, row_y(wires[-1].pin) + 24),
        "OLED 128x64",
        ["SSD1306 or SH1106, I2C", "address 0x3C (or 0x3D)"],
    )
    for wire in wires:
        y = row_y(wire.pin)
        drawing.wire(right, LEFT_LABEL_X, y, wire.kind)
        drawing.terminal(right, y, wire.end, left=True)
        used[wire.pin] = wire.kind


def _buttons(drawing: Drawing, used: dict[int, str], pins: dict[str, int]) -> None:
    for side_left in (True, False):
        mine = {name: physical_pin(bcm) for name, bcm in pins.items()}
        mine = {name: pin for name, pin in mine.items() if is_left(pin) == side_left}
        if not mine:
            continue
        ground = nearest_ground(max(mine.values(), key=row_y))
        bus_x = 70 if side_left else SIZE[0] - 70
        label_edge = LEFT_LABEL_X if side_left else RIGHT_LABEL_X + LABEL_WIDTH
        contact = 200 if side_left else SIZE[0] - 240
        for name, pin in mine.items():
            y = row_y(pin)
            drawing.wire(bus_x, contact + 40, y, "ground")
            drawing.wire(contact + 40, label_edge, y, "button")
            drawing.switch(contact, y)
            name_x = bus_x - 10 if side_left else bus_x + 10
            drawing.text((name_x, y), name, right=side_left)
            used[pin] = "button"
        top = min(row_y(pin) for pin in mine.values())
        drawing.text((contact + 20, top - 30), "buttons", font=BOLD, centre=True)
        drawing.draw.line((bus_x, top, bus_x, row_y(ground)), fill=COLOURS["ground"], width=4)
        drawing.wire(bus_x, label_edge, row_y(ground), "ground")
        used[ground] = "ground"


def _buzzer(drawing: Drawing, used: dict[int, str], bcm: int, *, example: bool) -> None:
    pin = physical_pin(bcm)
    ground = nearest_ground(pin)
    left = is_left(pin)
    edge = LEFT_LABEL_X if left else RIGHT_LABEL_X + LABEL_WIDTH
    x0, x1 = (250, 380) if left else (SIZE[0] - 240, SIZE[0] - 60)
    top, bottom = sorted((row_y(pin), row_y(ground)))
    notes = ["optional" if example else "", "LED: 330 ohm", "in series"]
    drawing.part((x0, top - 60, x1, bottom + 70), "buzzer/LED", [n for n in notes if n])
    near = x1 if left else x0
    for wire_pin, kind, name in ((pin, "buzzer", "+"), (ground, "ground", "-")):
        y = row_y(wire_pin)
        drawing.wire(near, edge, y, kind)
        drawing.terminal(near, y, name, left=not left)
        used[wire_pin] = kind


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the device's wiring as a PNG file.")
    parser.add_argument("out", type=Path)
    parser.add_argument("--config", type=Path, help="configuration (TOML); default: defaults")
    args = parser.parse_args(argv)
    try:
        config = device_config.load(args.config) if args.config else device_config.DeviceConfig()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        wiring(config).save(args.out)
    except (CompanionError, OSError) as error:
        print(f"wiring_diagram: {error}", file=sys.stderr)
        return 2
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
