"""The Pi camera adapter, run against a fake picamera2 camera that keeps picamera2's
documented conventions (pixel formats named after libcamera's, metadata per frame)."""

from __future__ import annotations

import sys
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import CameraError, CompanionError
from hardware.camera import AF_MANUAL, SMALL_SIZE, PiCameraSource, focus_controls, steady_controls
from vision.errors import CameraUnavailableError
from vision.settle import SMALL_SIZE as SETTLE_SIZE
from vision.sources import open_source
from vision.synthetic import small_stream

RED_BGR = (20, 30, 200)  # what OpenCV calls red: blue, green, red


def frame_metadata(exposure: int, gain: float, colour: tuple[float, float]) -> dict[str, Any]:
    return {"ExposureTime": exposure, "AnalogueGain": gain, "ColourGains": colour}


# The automatic control ramps the exposure up and the colour gains over, then holds.
RAMP = [frame_metadata(1000 * 2**step, 1.0, (1.2 + 0.1 * step, 1.5)) for step in range(4)]
HELD = [frame_metadata(10000 + 20 * (i % 2), 2.0, (1.9, 1.6)) for i in range(10)]


class FakeRequest:
    def __init__(self, camera: FakePicamera2) -> None:
        self.camera = camera
        self.released = False

    def make_array(self, stream: str) -> np.ndarray:
        assert not self.released and self.camera.started and not self.camera.closed
        scene = np.asarray(
            cv2.resize(self.camera.scene, self.camera.size, interpolation=cv2.INTER_AREA), np.uint8
        )
        if stream == "main":  # libcamera's names: "RGB888" is blue, green, red in memory
            return scene if self.camera.format == "RGB888" else scene[..., ::-1].copy()
        assert stream == "lores" and self.camera.lores is not None
        width, height = self.camera.lores
        planes = np.full((height * 3 // 2, width + 32), 128, np.uint8)  # a padded stride
        planes[:height, :width] = small_stream(scene, (width, height))
        return planes

    def release(self) -> None:
        self.released = True


class FakePicamera2:
    """A scene (a BGR picture) seen as picamera2 gives it: "RGB888" arrays are blue, green,
    red and "BGR888" arrays red, green, blue (libcamera's format names); the "lores"
    stream in YUV420, one plane of 3/2 its height with padded rows."""

    def __init__(self, metadata: list[dict[str, Any]], *, lores_refused: bool = False) -> None:
        self._metadata = iter(metadata)
        self.lores_refused = lores_refused
        self.scene = np.full((48, 64, 3), RED_BGR, np.uint8)
        self.format = ""
        self.size = (0, 0)
        self.lores: tuple[int, int] | None = None
        self.controls: dict[str, Any] = {}
        self.started = self.closed = False

    def create_video_configuration(self, **streams: dict[str, Any]) -> dict[str, Any]:
        if "lores" in streams and self.lores_refused:
            raise RuntimeError("lores stream not supported")
        return streams

    def configure(self, config: dict[str, Any]) -> None:
        self.format, self.size = config["main"]["format"], config["main"]["size"]
        self.lores = config["lores"]["size"] if "lores" in config else None

    def start(self) -> None:
        self.started = True

    def capture_metadata(self) -> dict[str, Any]:
        return next(self._metadata)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.update(controls)

    def capture_request(self) -> FakeRequest:
        return FakeRequest(self)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def opened(metadata: list[dict[str, Any]], **options: Any) -> tuple[PiCameraSource, FakePicamera2]:
    camera = FakePicamera2(metadata, **options)
    return PiCameraSource((64, 48), camera_factory=lambda: camera, small_size=(16, 12)), camera


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


def test_each_frame_comes_with_the_small_streams_brightness() -> None:
    source, camera = opened(RAMP + HELD)
    camera.scene = np.zeros((48, 64, 3), np.uint8)
    camera.scene[:, 32:] = RED_BGR
    frames = source.frames()
    frame = next(frames)
    small = source.small()
    assert small is not None and small.shape == (12, 16) and small.flags.c_contiguous
    assert small[0, 0] == 16 and small[0, -1] == small_stream(frame, (16, 12))[0, -1]
    camera.scene = np.full((48, 64, 3), 255, np.uint8)
    next(frames)
    white = source.small()
    assert white is not None and int(white[5, 5]) == 235


def test_a_camera_that_refuses_the_small_stream_still_gives_frames() -> None:
    source, camera = opened(RAMP + HELD, lores_refused=True)
    assert camera.lores is None
    assert next(source.frames()).shape == (48, 64, 3)
    assert source.small() is None


def test_the_small_stream_is_the_settle_checks_size() -> None:
    assert SMALL_SIZE == SETTLE_SIZE  # hardware may not import vision: kept equal here


class FakeCameraModule3(FakePicamera2):
    """A camera whose lens moves (picamera2's ``camera_controls``: minimum, maximum and
    default of each), recording whether each control was set before it started."""

    def __init__(self, metadata: list[dict[str, Any]]) -> None:
        super().__init__(metadata)
        self.camera_controls = {"LensPosition": (0.0, 15.0, 1.0), "AfMode": (0, 2, 0)}
        self.set_before_start: set[str] = set()

    def set_controls(self, controls: dict[str, Any]) -> None:
        if not self.started:
            self.set_before_start |= set(controls)
        super().set_controls(controls)


def test_a_lens_that_moves_is_focused_on_the_tray_before_the_camera_starts() -> None:
    camera = FakeCameraModule3(RAMP + HELD)
    source = PiCameraSource((64, 48), camera_factory=lambda: camera, lens_above_felt_mm=380.0)
    # 368 mm away (the felt, less 12 mm for what lies on it): 2.72 dioptres, held there
    assert camera.controls["LensPosition"] == pytest.approx(1000 / 368)
    assert camera.controls["AfMode"] == AF_MANUAL
    assert {"LensPosition", "AfMode"} <= camera.set_before_start
    assert source.focus == {"LensPosition": pytest.approx(1000 / 368), "AfMode": AF_MANUAL}
    untold = FakeCameraModule3(RAMP + HELD)
    PiCameraSource((64, 48), camera_factory=lambda: untold)
    assert "LensPosition" not in untold.controls  # left where it is


def test_a_fixed_focus_camera_is_given_no_focus() -> None:
    source, camera = opened(RAMP + HELD)
    assert source.focus == {} and "LensPosition" not in camera.controls
    assert focus_controls({}, 380.0) == {}


def test_the_focus_stays_within_the_lens_reach() -> None:
    reach = {"LensPosition": (0.0, 10.0, 1.0)}
    assert focus_controls(reach, 60.0) == {"LensPosition": 10.0}  # 48 mm away: too near
    assert focus_controls(reach, 1012.0) == {"LensPosition": pytest.approx(1.0)}


def test_the_command_lines_pi_camera_is_focused_at_the_height_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import hardware.camera

    opened_with: list[float | None] = []

    def recorded(*, lens_above_felt_mm: float | None = None) -> Any:
        opened_with.append(lens_above_felt_mm)
        return object()

    monkeypatch.setattr(hardware.camera, "PiCameraSource", recorded)
    open_source("pi", camera_height_mm=300.0)
    open_source("pi")
    assert opened_with == [300.0, 380.0]
