"""The Raspberry Pi camera as a frame source. picamera2 comes from the system packages
(apt install python3-picamera2) and is imported only when this source is opened. A missing
module or camera raises :class:`companion.errors.CameraError` (an ``OSError``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.errors import CameraError

MAIN_SIZE = (1200, 900)


class PiCameraSource:
    """Full-size BGR frames from the Pi camera, exposure and white balance locked once the
    automatic control has settled, so that the empty tray and the throws compare."""

    def __init__(self, size: tuple[int, int] = MAIN_SIZE) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraError(
                "the Pi camera needs picamera2: sudo apt install python3-picamera2"
            ) from None
        try:
            self._camera: Any = Picamera2()
            config = self._camera.create_video_configuration(
                main={"size": size, "format": "BGR888"}
            )
            self._camera.configure(config)
            self._camera.start()
            self._lock_exposure()
        except (RuntimeError, IndexError, OSError) as error:
            raise CameraError(f"the Pi camera cannot be started: {error}") from None

    def _lock_exposure(self) -> None:
        metadata = self._camera.capture_metadata()
        self._camera.set_controls(
            {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": metadata["ExposureTime"],
                "AnalogueGain": metadata["AnalogueGain"],
                "ColourGains": metadata["ColourGains"],
            }
        )

    def frames(self) -> Iterator[NDArray[np.uint8]]:
        while True:
            yield np.asarray(self._camera.capture_array("main"), np.uint8)

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()
