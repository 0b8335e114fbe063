"""Frame sources behind one interface: a folder of images, an OpenCV capture (USB camera or
video file), synthetic throws. The Pi camera's adapter lives in ``hardware.camera``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from vision.errors import CameraUnavailableError
from vision.tray import Image, read_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}


class FrameSource(Protocol):
    """Delivers full-size BGR frames; ``frames()`` ends when the source has no more. Each
    frame is an array of its own, never written into again: still frames are kept to be
    averaged (``vision.stack``), the newest as it is."""

    def frames(self) -> Iterator[Image]: ...

    def close(self) -> None: ...


@runtime_checkable
class SmallStream(Protocol):
    """A source that also delivers a low-resolution grey picture of each frame (the Pi
    camera's second stream), for the settle check: it costs nothing to make small."""

    def small(self) -> Image | None: ...


def small_pictures(source: object) -> Callable[[], Image | None]:
    """How to get the low-resolution grey picture of the frame ``source`` delivered last,
    told once per source (not at every frame): its ``small()``, or None for a source
    without that stream (the frame is then made small by the settle check)."""
    return source.small if isinstance(source, SmallStream) else _no_small_picture


def _no_small_picture() -> Image | None:
    return None


class FolderSource:
    """The images of a folder in name order, or a list of image files."""

    def __init__(self, paths: list[Path]) -> None:
        if not paths:
            raise CameraUnavailableError("no images to read")
        self.paths = paths

    @classmethod
    def from_folder(cls, folder: Path) -> FolderSource:
        paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not paths:
            raise CameraUnavailableError(f"{folder}: no images in this folder")
        return cls(paths)

    def frames(self) -> Iterator[Image]:
        for path in self.paths:
            yield read_image(path)

    def close(self) -> None:
        return None


class CaptureSource:
    """An OpenCV capture: a USB camera by number or a video file by path."""

    def __init__(self, device: int | str) -> None:
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise CameraUnavailableError(f"camera or video {device!r} cannot be opened")

    def frames(self) -> Iterator[Image]:
        while True:
            ok, frame = self._capture.read()
            if not ok:
                return
            yield np.asarray(frame, np.uint8)

    def close(self) -> None:
        self._capture.release()


def is_live(spec: str) -> bool:
    """Whether the source ``spec`` (see :func:`open_source`) is a camera, whose frames are
    of the moment, rather than pictures or a video taken before."""
    return spec == "pi" or spec.isdigit()


def is_stream(spec: str) -> bool:
    """Whether the source ``spec`` is a stream of frames of one scene, a camera's or a
    video's, whose first still frames can be averaged (an empty tray for calibration), as
    opposed to pictures, each of its own."""
    path = Path(spec)
    return is_live(spec) or (path.is_file() and path.suffix.lower() not in IMAGE_SUFFIXES)


def open_source(spec: str, *, camera_height_mm: float | None = None) -> FrameSource:
    """``pi`` (the Pi camera), a camera number, a video file or a folder of images. The Pi
    camera's lens, if it moves, is focused ``camera_height_mm`` away (default 380)."""
    if spec == "pi":
        from hardware.camera import PiCameraSource
        from vision.tray import CAMERA_HEIGHT_MM

        try:
            return PiCameraSource(lens_above_felt_mm=camera_height_mm or CAMERA_HEIGHT_MM)
        except OSError as error:  # the adapter's CameraError: no picamera2, no camera
            raise CameraUnavailableError(str(error)) from None
    if spec.isdigit():
        return CaptureSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return FolderSource.from_folder(path)
    if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
        return FolderSource([path])
    if path.is_file():
        return CaptureSource(str(path))
    raise CameraUnavailableError(f"{spec}: no such camera, video file or folder")
