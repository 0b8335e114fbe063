"""The OLED as the device opens it on a Pi, with luma.oled's driver and the I2C bus faked
(neither can be used off the Pi): what luma would do with the screen at exit and at start."""

from __future__ import annotations

import sys
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from device_helpers import make_app
from PIL import Image

from companion.device.run import _loop
from hardware.display import open_oled


class FakeOled:
    """What matters of luma.oled's ssd1306: ``persist`` (False: luma blanks the screen when
    the process exits), its own contrast at start, and a size turned with ``rotate``."""

    def __init__(self, serial: Any, rotate: int = 0) -> None:
        self.serial, self.rotate = serial, rotate
        self.persist = False
        self.size = (128, 64) if rotate % 2 == 0 else (64, 128)
        self.contrasts = [0xCF]

    def display(self, image: Image.Image) -> None:
        assert image.size == self.size  # as luma.oled's display() does

    def contrast(self, level: int) -> None:
        self.contrasts.append(level)


@pytest.fixture
def fake_luma(monkeypatch: pytest.MonkeyPatch) -> None:
    drivers = types.ModuleType("luma.oled.device")
    drivers.ssd1306 = drivers.sh1106 = FakeOled  # type: ignore[attr-defined]
    package = types.ModuleType("luma.oled")
    package.device = drivers  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "luma.oled", package)
    monkeypatch.setitem(sys.modules, "luma.oled.device", drivers)
    import luma.core.interface.serial as serial

    monkeypatch.setattr(serial, "i2c", lambda port, address: ("i2c", port, address))


@pytest.mark.usefixtures("fake_luma")
def test_the_last_screen_stays_when_the_program_exits() -> None:
    device = open_oled("sh1106", port=1, address=0x3D, rotate=2)
    assert device.serial == ("i2c", 1, 0x3D) and device.rotate == 2
    assert device.persist is True  # "safe to unplug" stays after a shutdown


@pytest.mark.usefixtures("fake_luma")
def test_the_saved_contrast_is_set_when_the_device_starts(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.settings = replace(app.settings, contrast=32)
    device = open_oled("ssd1306")
    loop = _loop(app, device, on_pi=False)
    assert device.contrasts[-1] == 32
    loop.show()  # the screen is drawn at the size the device has
