"""The camera over the tray: frames for the vision pipeline.

picamera2 exists only on Raspberry Pi OS (from apt) and is imported inside
:class:`PiCamera` alone, so nothing else needs it, and tests and development machines
use another :class:`FrameSource`.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.errors import CompanionError


class CameraError(CompanionError, OSError):
    """The camera is absent or stopped giving frames."""


class FrameSource(Protocol):
    def capture(self) -> Any:
        """One frame (a numpy array, RGB)."""

    def close(self) -> None: ...


class PiCamera:
    """Frames from the Raspberry Pi camera through picamera2."""

    def __init__(self, *, width: int = 1280, height: int = 960) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise CameraError(
                "picamera2 is not installed (on Raspberry Pi OS: apt install python3-picamera2)"
            ) from None
        try:
            self._camera = Picamera2()
            config = self._camera.create_still_configuration(main={"size": (width, height)})
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # libcamera reports a missing camera in its own ways
            raise CameraError(f"the camera could not be started: {error}") from None

    def capture(self) -> Any:
        try:
            return self._camera.capture_array()
        except Exception as error:
            raise CameraError(f"the camera gave no frame: {error}") from None

    def close(self) -> None:
        self._camera.close()
