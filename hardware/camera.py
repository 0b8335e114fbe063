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
# The second, low-resolution stream, the size of the settle check's picture
# (vision.settle.SMALL_SIZE): its brightness (Y) is that picture, made by the camera.
SMALL_SIZE = (160, 120)
AE_CONVERGED = 2  # libcamera's AeState: idle 0, searching 1, converged 2
AF_MANUAL = 0  # libcamera's AfMode: manual 0 (the lens moves only when told), auto 1, continuous 2
# A lens that moves is focused this far above the felt: sticks are 6 mm thick, a d4's
# numerals lie 0-25 mm above the felt.
FOCUS_ABOVE_FELT_MM = 12.0

Metadata = Mapping[str, Any]
CameraFactory = Callable[[], Any]


class PiCameraSource:
    """Full-size BGR frames from the Pi camera, exposure and white balance locked once the
    automatic control has settled, so that the empty tray and the throws compare; and, of
    each frame, the brightness of the camera's low-resolution stream (:meth:`small`).

    ``camera_factory`` makes the camera object (picamera2's ``Picamera2`` unless given: tests
    pass a fake with the same methods). ``lens_above_felt_mm``: a lens that moves (the
    Camera Module 3's) is focused on the tray and held there (:func:`focus_controls`);
    None leaves it where it is.
    """

    def __init__(
        self,
        size: tuple[int, int] = MAIN_SIZE,
        *,
        camera_factory: CameraFactory | None = None,
        small_size: tuple[int, int] | None = SMALL_SIZE,
        lens_above_felt_mm: float | None = None,
    ) -> None:
        factory = camera_factory or _picamera2()
        try:
            self._camera: Any = factory()
        except (RuntimeError, IndexError, OSError) as error:
            raise CameraError(f"the Pi camera cannot be opened: {error}") from None
        self.small_size = small_size
        self._small: NDArray[np.uint8] | None = None
        try:
            self._configure(size)
            available = getattr(self._camera, "camera_controls", {})
            self.focus = focus_controls(available, lens_above_felt_mm)
            if self.focus:  # before it starts: the lens moves while the exposure settles
                self._camera.set_controls(self.focus)
            self._camera.start()
            self.locked = steady_controls(iter(self._camera.capture_metadata, None))
            self._camera.set_controls(self.locked)
        except (RuntimeError, IndexError, KeyError, OSError) as error:
            self._camera.close()
            raise CameraError(f"the Pi camera cannot be started: {error}") from None

    def _configure(self, size: tuple[int, int]) -> None:
        """Both streams; the main one alone when the camera refuses the second."""
        main = {"size": size, "format": OPENCV_ORDER}
        if self.small_size is not None:
            lores = {"size": self.small_size, "format": "YUV420"}
            try:
                config = self._camera.create_video_configuration(main=main, lores=lores)
                self._camera.configure(config)
                return
            except (RuntimeError, ValueError):
                self.small_size = None
        self._camera.configure(self._camera.create_video_configuration(main=main))

    def frames(self) -> Iterator[NDArray[np.uint8]]:
        while True:
            request = self._camera.capture_request()
            try:
                frame = np.asarray(request.make_array("main"), np.uint8)
                self._small = self._brightness(request)
            finally:
                request.release()
            yield frame

    def small(self) -> NDArray[np.uint8] | None:
        """The low-resolution stream's brightness (grey, ``small_size``) of the frame given
        last; None without that stream."""
        return self._small

    def _brightness(self, request: Any) -> NDArray[np.uint8] | None:
        if self.small_size is None:
            return None
        width, height = self.small_size
        # YUV420 comes as one plane of (height x 3/2) rows of the stream's stride: the
        # brightness is the first ``height`` rows, less any padding at their ends.
        planes = np.asarray(request.make_array("lores"), np.uint8)
        return np.ascontiguousarray(planes[:height, :width])

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


def focus_controls(
    available: Mapping[str, Any], lens_above_felt_mm: float | None
) -> dict[str, Any]:
    """The controls that focus a lens that moves on the tray and hold it there:
    ``available`` is picamera2's ``camera_controls`` (each control's minimum, maximum and
    default). Left alone, such a lens stays at its default position, about 1 m away
    (1 dioptre), and a tray 38 cm below it is blurred by several pixels, more than its
    numerals' strokes are wide. A fixed-focus camera has no ``LensPosition``: nothing."""
    if lens_above_felt_mm is None or "LensPosition" not in available:
        return {}
    low, high = (float(bound) for bound in available["LensPosition"][:2])
    distance_m = max(lens_above_felt_mm - FOCUS_ABOVE_FELT_MM, 1.0) / 1000.0
    controls: dict[str, Any] = {"LensPosition": min(max(1.0 / distance_m, low), high)}
    if "AfMode" in available:
        controls["AfMode"] = AF_MANUAL
    return controls


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


def _exposure(metadata: Metadata) -> float:
    """Exposure time times gain: what the picture's brightness follows."""
    return float(metadata["ExposureTime"]) * float(metadata["AnalogueGain"])


def _alike(before: Metadata, after: Metadata, within: float) -> bool:
    pairs = [(_exposure(before), _exposure(after))]
    pairs += zip(before["ColourGains"], after["ColourGains"], strict=True)
    return all(abs(b - a) <= within * max(abs(a), 1e-9) for a, b in pairs)


def _converged(metadata: Metadata) -> bool:
    if "AeState" in metadata:
        return bool(metadata["AeState"] == AE_CONVERGED)
    return bool(metadata.get("AeLocked", True))
