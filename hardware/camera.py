"""The Raspberry Pi camera as a frame source. picamera2 comes from the system packages
(apt install python3-picamera2) and is imported only when this source is opened. A missing
module or camera raises :class:`companion.errors.CameraError` (an ``OSError``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.errors import CameraError

MAIN_SIZE = (1200, 900)
# picamera2 names pixel formats as libcamera does, after the kernel's codes for a pixel read
# as one little-endian word: "RGB888" fills a numpy array blue, green, red (OpenCV's order),
# "BGR888" red first, which would swap the colours every profile and rule compares.
OPENCV_ORDER = "RGB888"
# The automatic exposure and white balance have settled when they hold for this many frames
# in a row, brightness (exposure time x gain) and each colour gain changing by at most
# STEADY_CHANGE from one frame to the next ...
STEADY_FRAMES = 6
STEADY_CHANGE = 0.02
# ... or after this many frames (4 s at 30 a second): a flickering light is locked as it is.
SETTLE_LIMIT_FRAMES = 120
AE_CONVERGED = 2  # libcamera's AeState: idle 0, searching 1, converged 2

Metadata = Mapping[str, Any]
CameraFactory = Callable[[], Any]


class PiCameraSource:
    """Full-size BGR frames from the Pi camera, exposure and white balance locked once the
    automatic control has settled, so that the empty tray and the throws compare.

    ``camera_factory`` makes the camera object (picamera2's ``Picamera2`` unless given: tests
    pass a fake with the same methods).
    """

    def __init__(
        self, size: tuple[int, int] = MAIN_SIZE, *, camera_factory: CameraFactory | None = None
    ) -> None:
        factory = camera_factory or _picamera2()
        try:
            self._camera: Any = factory()
        except (RuntimeError, IndexError, OSError) as error:
            raise CameraError(f"the Pi camera cannot be opened: {error}") from None
        try:
            config = self._camera.create_video_configuration(
                main={"size": size, "format": OPENCV_ORDER}
            )
            self._camera.configure(config)
            self._camera.start()
            self.locked = steady_controls(iter(self._camera.capture_metadata, None))
            self._camera.set_controls(self.locked)
        except (RuntimeError, IndexError, KeyError, OSError) as error:
            self._camera.close()
            raise CameraError(f"the Pi camera cannot be started: {error}") from None

    def frames(self) -> Iterator[NDArray[np.uint8]]:
        while True:
            yield np.asarray(self._camera.capture_array("main"), np.uint8)

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


def _picamera2() -> CameraFactory:
    try:
        from picamera2 import Picamera2
    except ImportError:
        raise CameraError(
            "the Pi camera needs picamera2: sudo apt install python3-picamera2"
        ) from None
    factory: CameraFactory = Picamera2
    return factory


def steady_controls(
    metadata: Iterable[Metadata],
    *,
    steady: int = STEADY_FRAMES,
    within: float = STEADY_CHANGE,
    limit: int = SETTLE_LIMIT_FRAMES,
) -> dict[str, Any]:
    """The controls that lock exposure and white balance at the values the automatic
    control settled on, read from the frames' ``metadata`` as they come: the first frame
    that ends ``steady`` frames in a row, each within ``within`` of the one before and
    reported converged where the camera says so (``AeState``, or ``AeLocked`` on older
    libcamera); else the ``limit``-th frame's."""
    run, previous, chosen = 0, None, None
    for count, current in enumerate(metadata, start=1):
        alike = previous is not None and _alike(previous, current, within)
        run = run + 1 if alike and _converged(current) else int(_converged(current))
        previous = chosen = current
        if run >= steady or count >= limit:
            break
    if chosen is None:
        raise CameraError("the Pi camera gave no frame")
    return {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": int(chosen["ExposureTime"]),
        "AnalogueGain": float(chosen["AnalogueGain"]),
        "ColourGains": tuple(float(gain) for gain in chosen["ColourGains"]),
    }


def _brightness(metadata: Metadata) -> float:
    return float(metadata["ExposureTime"]) * float(metadata["AnalogueGain"])


def _alike(before: Metadata, after: Metadata, within: float) -> bool:
    pairs = [(_brightness(before), _brightness(after))]
    pairs += zip(before["ColourGains"], after["ColourGains"], strict=True)
    return all(abs(b - a) <= within * max(abs(a), 1e-9) for a, b in pairs)


def _converged(metadata: Metadata) -> bool:
    if "AeState" in metadata:
        return bool(metadata["AeState"] == AE_CONVERGED)
    return bool(metadata.get("AeLocked", True))
