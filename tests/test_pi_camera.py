"""The Pi camera adapter, run against a fake picamera2 camera that keeps picamera2's
documented conventions (pixel formats named after libcamera's, metadata per frame)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from companion.errors import CameraError, CompanionError
from hardware.camera import PiCameraSource, steady_controls
from vision.errors import CameraUnavailableError
from vision.sources import open_source

RED_BGR = (20, 30, 200)  # what OpenCV calls red: blue, green, red


def frame_metadata(exposure: int, gain: float, colour: tuple[float, float]) -> dict[str, Any]:
    return {"ExposureTime": exposure, "AnalogueGain": gain, "ColourGains": colour}


# The automatic control ramps the exposure up and the colour gains over, then holds.
RAMP = [frame_metadata(1000 * 2**step, 1.0, (1.2 + 0.1 * step, 1.5)) for step in range(4)]
HELD = [frame_metadata(10000 + 20 * (i % 2), 2.0, (1.9, 1.6)) for i in range(10)]


class FakePicamera2:
    """A red scene, seen as picamera2 gives it: "RGB888" arrays are blue, green, red and
    "BGR888" arrays red, green, blue (libcamera's format names)."""

    def __init__(self, metadata: list[dict[str, Any]]) -> None:
        self._metadata = iter(metadata)
        self.format = ""
        self.size = (0, 0)
        self.controls: dict[str, Any] = {}
        self.started = self.closed = False

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.format, self.size = config["main"]["format"], config["main"]["size"]

    def start(self) -> None:
        self.started = True

    def capture_metadata(self) -> dict[str, Any]:
        return next(self._metadata)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.update(controls)

    def capture_array(self, stream: str) -> np.ndarray:
        assert stream == "main" and self.started and not self.closed
        order = {"RGB888": RED_BGR, "BGR888": RED_BGR[::-1]}[self.format]
        width, height = self.size
        return np.full((height, width, 3), order, np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def opened(metadata: list[dict[str, Any]]) -> tuple[PiCameraSource, FakePicamera2]:
    camera = FakePicamera2(metadata)
    return PiCameraSource((64, 48), camera_factory=lambda: camera), camera


def test_frames_come_in_opencvs_colour_order() -> None:
    source, camera = opened(RAMP + HELD)
    frame = next(source.frames())
    assert frame.shape == (48, 64, 3)
    assert tuple(frame[10, 10]) == RED_BGR
    source.close()
    assert camera.closed


def test_exposure_and_colour_are_locked_once_the_automatic_control_holds() -> None:
    source, camera = opened(RAMP + HELD)
    assert camera.controls["AeEnable"] is False and camera.controls["AwbEnable"] is False
    assert camera.controls["ExposureTime"] in (10000, 10020)
    assert camera.controls["AnalogueGain"] == 2.0
    assert camera.controls["ColourGains"] == (1.9, 1.6)
    assert source.locked == camera.controls


def test_a_camera_that_says_it_has_not_converged_is_waited_for() -> None:
    searching = [dict(m, AeState=1) for m in HELD]
    converged = [dict(frame_metadata(12000, 2.0, (1.9, 1.6)), AeState=2)] * 6
    assert steady_controls(searching + converged)["ExposureTime"] == 12000
    older = [dict(m, AeLocked=False) for m in HELD] + [
        dict(frame_metadata(9000, 1.0, (1.8, 1.5)), AeLocked=True)
    ] * 6
    assert steady_controls(older)["ExposureTime"] == 9000


def test_a_light_that_never_holds_is_locked_after_the_limit() -> None:
    flicker = [frame_metadata(8000 if i % 2 else 12000, 1.0, (1.9, 1.6)) for i in range(50)]
    locked = steady_controls(flicker, limit=20)
    assert locked["ExposureTime"] == 8000  # the 20th frame's


def test_steady_runs_must_be_long_enough() -> None:
    short = HELD[:4] + [frame_metadata(20000, 2.0, (1.9, 1.6))] * 6
    assert steady_controls(short)["ExposureTime"] == 20000


def test_a_camera_that_gives_no_metadata_fails_clearly() -> None:
    with pytest.raises(CameraError, match="no frame"):
        steady_controls([])


def test_a_camera_that_cannot_start_is_closed_and_explained() -> None:
    camera = FakePicamera2([{"AnalogueGain": 1.0}])  # no exposure time: a broken driver
    with pytest.raises(CameraError, match="cannot be started") as raised:
        PiCameraSource((64, 48), camera_factory=lambda: camera)
    assert isinstance(raised.value, CompanionError) and isinstance(raised.value, OSError)
    assert camera.closed


def test_no_camera_on_the_bus_is_explained() -> None:
    def no_camera() -> Any:
        raise IndexError("list index out of range")  # what Picamera2() raises then

    with pytest.raises(CameraError, match="cannot be opened"):
        PiCameraSource(camera_factory=no_camera)


def test_without_picamera2_the_player_is_told_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a PC
    with pytest.raises(CameraUnavailableError, match="apt install python3-picamera2"):
        open_source("pi")
