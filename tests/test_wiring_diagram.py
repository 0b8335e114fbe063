"""scripts/wiring_diagram.py draws the header pins the configuration uses."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

from PIL import Image

SCRIPT = Path(__file__).parent.parent / "scripts" / "wiring_diagram.py"


def _pin_colour(script: dict[str, Any], image: Image.Image, pin: int) -> Any:
    x = script["LEFT_PIN_X"] if pin % 2 else script["RIGHT_PIN_X"]
    return image.getpixel((x, script["row_y"](pin)))


def test_the_wiring_follows_the_configuration(tmp_path: Path) -> None:
    script = runpy.run_path(str(SCRIPT))
    colours = script["COLOURS"]
    default = tmp_path / "wiring.png"
    assert script["main"]([str(default)]) == 0
    with Image.open(default) as image:
        assert _pin_colour(script, image, 29) == colours["button"]  # up: GPIO5
        assert _pin_colour(script, image, 3) == colours["sda"]
        assert _pin_colour(script, image, 32) == colours["buzzer"]  # the example: GPIO12
        assert _pin_colour(script, image, 36) != colours["buzzer"]
    config = tmp_path / "config.toml"
    config.write_text("[buzzer]\npin = 16\n[buttons]\nup = 26\n")
    moved = tmp_path / "moved.png"
    assert script["main"]([str(moved), "--config", str(config)]) == 0
    with Image.open(moved) as image:
        assert _pin_colour(script, image, 36) == colours["buzzer"]  # GPIO16 is pin 36
        assert _pin_colour(script, image, 37) == colours["button"]  # GPIO26 is pin 37
        assert _pin_colour(script, image, 29) != colours["button"]


def test_a_bad_configuration_is_a_message(tmp_path: Path, capsys: Any) -> None:
    script = runpy.run_path(str(SCRIPT))
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nup = 99\n")
    assert script["main"]([str(tmp_path / "w.png"), "--config", str(config)]) == 2
    assert "buttons.up = 99" in capsys.readouterr().err
    assert not (tmp_path / "w.png").exists()
