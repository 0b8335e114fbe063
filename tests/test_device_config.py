"""The TOML configuration: defaults, and errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.device import config
from companion.device.config import ConfigError, DeviceConfig


def test_example_file_reads_back_as_the_defaults() -> None:
    assert config.parse(config.example()) == DeviceConfig()


def test_values_are_read() -> None:
    text = '[display]\ndriver = "sh1106"\ni2c_address = 0x3d\n[game]\nlanguage = "fr"\n'
    read = config.parse(text)
    assert (read.display_driver, read.i2c_address, read.language) == ("sh1106", 0x3D, "fr")


def test_the_trays_size_is_read_long_side_first() -> None:
    assert config.parse("[camera]\nfloor_mm = [300, 450.5]\n").camera_floor_mm == (450.5, 300)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[display]\ndriver = "ssd1307"', 'display.driver = "ssd1307": expected one of'),
        ("[display]\nrotate = 4", "display.rotate = 4: expected 0 (upright) or 2 (upside down)"),
        ("[display]\nrotate = 1", "display.rotate = 1: expected 0 (upright) or 2"),
        ("[buttons]\nup = 40", "buttons.up = 40: expected a GPIO number (BCM) from 4 to 27"),
        ("[buttons]\nup = 3", "buttons.up = 3: expected a GPIO number (BCM) from 4 to 27: 2 and 3"),
        ("[buzzer]\npin = 2", "buzzer.pin = 2: expected a GPIO number"),
        ("[buttons]\ndown = 5", "buttons.down = 5: GPIO5 is already used by buttons.up"),
        ('[buttons]\nhold_time = "1"', 'buttons.hold_time = "1": expected a number of seconds'),
        ("[camera]\nenabled = 1", "camera.enabled = 1: expected true or false"),
        ("[camera]\nfloor_mm = [400]", "camera.floor_mm = [400]: expected two sizes in mm"),
        ('[camera]\nfloor_mm = "400x300"', 'floor_mm = "400x300": expected two sizes in mm'),
        ("[camera]\nfloor_mm = [400, 30]", "from 100 to 2000, e.g. [400, 300]"),
        ('[game]\nrules = "chess"', 'game.rules = "chess": expected one of senet-'),
        ('[game]\nrule = "senet-migo"', "unknown key 'game.rule'"),
        ("display = 3", "display = 3: expected a [display] section"),
        ("[display", "not valid TOML"),
    ],
)
def test_wrong_values_name_their_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config.parse(text)
    assert message in str(caught.value)


def test_the_file_is_named_in_the_message(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[display]\nrotate = -1\n")
    with pytest.raises(ConfigError, match=r"config.toml: display.rotate = -1"):
        config.load(path)


def test_a_missing_file_given_explicitly_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        config.load(tmp_path / "absent.toml")


def test_config_errors_are_value_errors() -> None:
    assert issubclass(ConfigError, ValueError)
