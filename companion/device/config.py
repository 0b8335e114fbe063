"""The device's configuration: a TOML file of pins, display, camera and defaults.

``/etc/companion/config.toml`` on the Pi, ``~/.config/companion/config.toml`` on a
development machine; every key is optional. A wrong value or an unknown key stops the
start with a message that names the key and says what is expected.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion import games
from companion.device.texts import LANGUAGES
from companion.errors import CompanionError

SYSTEM_PATH = Path("/etc/companion/config.toml")
DISPLAY_DRIVERS = ("ssd1306", "sh1106", "terminal", "none")
BCM_PINS = range(2, 28)
I2C_PINS = (2, 3)  # SDA and SCL, the display's


class ConfigError(CompanionError, ValueError):
    """The configuration file is unreadable or holds a wrong value."""


@dataclass(frozen=True)
class DeviceConfig:
    display_driver: str = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    button_up: int = 5
    button_down: int = 6
    button_select: int = 13
    button_back: int = 19
    hold_time: float = 0.8
    bounce_time: float = 0.02
    buzzer_pin: int | None = None
    camera: bool = True
    camera_width: int = 1280
    camera_height: int = 960
    camera_source: str | None = None  # None: the Pi camera on the Pi, none elsewhere
    camera_tray: Path | None = None  # calibration folder; None: <state dir>/tray
    camera_profile: Path | None = None  # what was enrolled; None: <state dir>/sticks.json
    camera_still_frames: int = 5
    camera_averaged_frames: int | None = None  # None: vision's default (4)
    camera_above_tray_mm: int | None = None  # None: the calibration's, else 380 mm
    camera_floor_mm: tuple[float, float] | None = None  # None: the calibration's, else 400x300
    rules: str = "senet-kendall"
    language: str = "en"
    state_dir: Path = Path("/var/lib/companion")
    saver_after: float = 300.0

    @property
    def button_pins(self) -> dict[str, int]:
        return {
            "up": self.button_up,
            "down": self.button_down,
            "select": self.button_select,
            "back": self.button_back,
        }


Check = Callable[[str, object], object]


def _integer(low: int, high: int) -> Check:
    def check(key: str, value: object) -> object:
        if type(value) is not int or not low <= value <= high:
            raise _wrong(key, value, f"a whole number from {low} to {high}")
        return value

    return check


def _seconds(low: float, high: float) -> Check:
    def check(key: str, value: object) -> object:
        if type(value) not in (int, float) or not low <= float(value) <= high:  # type: ignore[arg-type]
            raise _wrong(key, value, f"a number of seconds from {low} to {high}")
        return float(value)  # type: ignore[arg-type]

    return check


def _one_of(choices: Callable[[], tuple[str, ...] | list[str]]) -> Check:
    def check(key: str, value: object) -> object:
        allowed = choices()
        if value not in allowed:
            raise _wrong(key, value, f"one of {', '.join(allowed)}")
        return value

    return check


def _boolean(key: str, value: object) -> object:
    if type(value) is not bool:
        raise _wrong(key, value, "true or false")
    return value


def _folder(key: str, value: object) -> object:
    if not isinstance(value, str) or not value:
        raise _wrong(key, value, "a folder path in quotes")
    return Path(value).expanduser()


def _file(key: str, value: object) -> object:
    if not isinstance(value, str) or not value:
        raise _wrong(key, value, "a file path in quotes")
    return Path(value).expanduser()


def _camera_source(key: str, value: object) -> object:
    if not isinstance(value, str) or not value:
        raise _wrong(key, value, '"pi", a camera number, a video file or a folder of images')
    return value


def _floor_size(key: str, value: object) -> object:
    """The tray's inside: two numbers of millimetres, long side first or not."""
    sides = value if isinstance(value, list) else []
    numbers = [float(v) for v in sides if type(v) in (int, float)]
    if len(sides) != 2 or len(numbers) != 2 or not all(100 <= v <= 2000 for v in numbers):
        raise _wrong(key, value, "two sizes in mm from 100 to 2000, e.g. [400, 300]")
    return max(numbers), min(numbers)


def _gpio(key: str, value: object) -> object:
    if type(value) is not int or value not in BCM_PINS or value in I2C_PINS:
        raise _wrong(
            key, value, "a GPIO number (BCM) from 4 to 27: 2 and 3 are the display's I2C bus"
        )
    return value


def _rotation(key: str, value: object) -> object:
    # luma turns a screen by 90 degrees into a 64 x 128 one, and the screens are drawn
    # 128 x 64: only upright or upside down.
    if type(value) is not int or value not in (0, 2):
        raise _wrong(key, value, "0 (upright) or 2 (upside down)")
    return value


def _wrong(key: str, value: object, expected: str) -> ConfigError:
    shown = f'"{value}"' if isinstance(value, str) else repr(value)
    if isinstance(value, bool):
        shown = str(value).lower()
    return ConfigError(f"{key} = {shown}: expected {expected}")


# TOML key -> (DeviceConfig field, check)
_KEYS: Mapping[str, tuple[str, Check]] = {
    "display.driver": ("display_driver", _one_of(lambda: DISPLAY_DRIVERS)),
    "display.i2c_port": ("i2c_port", _integer(0, 10)),
    "display.i2c_address": ("i2c_address", _integer(0x03, 0x77)),
    "display.rotate": ("rotate", _rotation),
    "buttons.up": ("button_up", _gpio),
    "buttons.down": ("button_down", _gpio),
    "buttons.select": ("button_select", _gpio),
    "buttons.back": ("button_back", _gpio),
    "buttons.hold_time": ("hold_time", _seconds(0.2, 5.0)),
    "buttons.bounce_time": ("bounce_time", _seconds(0.0, 0.5)),
    "buzzer.pin": ("buzzer_pin", _gpio),
    "camera.enabled": ("camera", _boolean),
    "camera.width": ("camera_width", _integer(320, 4608)),
    "camera.height": ("camera_height", _integer(240, 3456)),
    "camera.source": ("camera_source", _camera_source),
    "camera.tray": ("camera_tray", _folder),
    "camera.profile": ("camera_profile", _file),
    "camera.still_frames": ("camera_still_frames", _integer(1, 30)),
    "camera.averaged_frames": ("camera_averaged_frames", _integer(1, 16)),
    "camera.above_tray_mm": ("camera_above_tray_mm", _integer(150, 1500)),
    "camera.floor_mm": ("camera_floor_mm", _floor_size),
    "game.rules": ("rules", _one_of(games.names)),
    "game.language": ("language", _one_of(lambda: LANGUAGES)),
    "state.dir": ("state_dir", _folder),
    "screen.saver_after": ("saver_after", _seconds(10, 86400)),
}


def default_path() -> Path:
    """The system file when it exists, else the user's."""
    if SYSTEM_PATH.exists():
        return SYSTEM_PATH
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "companion" / "config.toml"


def load(path: Path | None = None, *, defaults: DeviceConfig | None = None) -> DeviceConfig:
    """The configuration in ``path`` (defaults for what it leaves out; all defaults when
    the default file does not exist)."""
    base = defaults or DeviceConfig()
    if path is None:
        path = default_path()
        if not path.exists():
            return base
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"configuration {path} cannot be read: {error}") from None
    try:
        return parse(text, defaults=base)
    except ConfigError as error:
        raise ConfigError(f"configuration {path}: {error}") from None


def parse(text: str, *, defaults: DeviceConfig | None = None) -> DeviceConfig:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"not valid TOML: {error}") from None
    values: dict[str, Any] = {}
    for key, value in _flatten(document):
        if key not in _KEYS:
            raise ConfigError(f"unknown key {key!r}; known keys: {', '.join(_KEYS)}")
        name, check = _KEYS[key]
        values[name] = check(key, value)
    config = replace(defaults or DeviceConfig(), **values)
    _check_distinct_pins(config)
    return config


def _flatten(document: Mapping[str, object]) -> list[tuple[str, object]]:
    pairs: list[tuple[str, object]] = []
    for section, table in document.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{section} = {table!r}: expected a [{section}] section")
        pairs.extend((f"{section}.{key}", value) for key, value in table.items())
    return pairs


def _check_distinct_pins(config: DeviceConfig) -> None:
    used: dict[int, str] = {}
    for name, pin in [*config.button_pins.items(), ("buzzer", config.buzzer_pin)]:
        if pin is None:
            continue
        key = "buzzer.pin" if name == "buzzer" else f"buttons.{name}"
        if pin in used:
            raise ConfigError(f"{key} = {pin}: GPIO{pin} is already used by {used[pin]}")
        used[pin] = key


def example() -> str:
    """A configuration file with every key at its default, for the installer."""
    defaults = DeviceConfig()
    lines: list[str] = []
    section = ""
    for key, (name, _) in _KEYS.items():
        head, _, leaf = key.partition(".")
        if head != section:
            lines.append(f"{chr(10) if lines else ''}[{head}]")
            section = head
        value = getattr(defaults, name)
        lines.append(_toml_line(leaf, value))
    return "\n".join(lines) + "\n"


_UNSET_EXAMPLES = {  # keys without a default value: a commented example
    "pin": "12",
    "source": '"pi"',
    "tray": '"/var/lib/companion/tray"',
    "profile": '"/var/lib/companion/my-sticks.json"',
    "above_tray_mm": "380",
    "floor_mm": "[400, 300]",
}


def _toml_line(leaf: str, value: object) -> str:
    if value is None:
        return f"# {leaf} = {_UNSET_EXAMPLES.get(leaf, '')}"
    if isinstance(value, bool):
        return f"{leaf} = {str(value).lower()}"
    if isinstance(value, str | Path):
        return f'{leaf} = "{value}"'
    if leaf == "i2c_address" and isinstance(value, int):
        return f"{leaf} = {value:#04x}"
    return f"{leaf} = {value}"
