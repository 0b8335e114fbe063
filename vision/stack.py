"""Still frames averaged before they are read: a camera's noise, independent from frame to
frame, falls as the square root of the frames averaged, and the d4's numerals and the d6's
pips are what noise costs first (on the development set with noise of 6 grey levels added,
21.4 % of clean throws refused read one frame at a time, 16.3 % four frames averaged).

Only frames that show the same picture may be averaged: a die still creeping, or a camera
shaking by under a pixel a frame, passes the settle check (its small picture changes by
less than a grey level threshold) yet smears an average. Each frame is therefore compared
with the first one averaged, tile by tile (Lucas-Kanade: the shift that best explains the
change from the image's slopes), and one that moved starts the average again.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.align import slopes
from vision.tray import Image

STACKED = 4  # frames averaged for a reading
# The frames are compared at this size of the working picture (``vision.tray``: a camera's
# frames of more pixels are shrunk as much more), in tiles of this many pixels of that size.
MOTION_SCALE = 0.5
MOTION_TILE = 32
# Larger than this (working pixels) in any tile, a frame has moved: a quarter of a pixel
# blurs a 4 px numeral's strokes little, and is several times the estimate's noise.
MOST_MOTION_PX = 0.25
# The estimate's noise (half-size pixels) allowed in any direction of a tile: the
# regularisation that follows from it shrinks the shift of tiles of felt, whose faint
# texture cannot tell one, towards none (see ``_tile_shifts``).
SHIFT_NOISE = 0.025

# A live camera's empty tray, for calibration, is averaged as its throws are: the frames
# read are compared with it (``vision.focus``), and an empty tray noisier than the frames
# makes them look blurrier than they are. Still frames are awaited for at most this many
# times as many frames as are averaged.
CALIBRATION_PATIENCE = 3

Grey = NDArray[np.float32]


class StillStack:
    """Still frames summed as they come, for a reading of their average. Each frame is
    compared with the first one kept; one that moved starts the stack again from itself,
    so the stack always holds frames that show the same picture as the newest (see
    ``moved_px``). The work is done frame by frame, while the camera brings the next one,
    so that a reading only waits for the average itself."""

    def __init__(self, picture_scale: float = 1.0) -> None:
        """``picture_scale``: working pixels per pixel of the frames (``Tray.scale``);
        frames of more pixels than the working picture are compared about as small as its
        (see :class:`_Comparison`)."""
        self._comparison = _Comparison.of(picture_scale)
        self._total: NDArray[np.float32] | None = None
        self._kept = 0
        self._newest: Image | None = None
        self._first: tuple[Grey, tuple[Grey, Grey]] | None = None
        self.added = 0  # frames added since the stack was cleared, moved or not

    @property
    def kept(self) -> int:
        """How many frames the average holds."""
        return self._kept

    def add(self, frame: Image) -> None:
        grey = self._comparison.grey(frame)
        if self._first is None or self._comparison.moved(*self._first, grey) > MOST_MOTION_PX:
            self._first = (grey, slopes(grey))
            self._kept = 0
        if self._total is None or self._total.shape != frame.shape:
            self._total = np.zeros(frame.shape, np.float32)
        elif not self._kept:  # the sum of the last stack, kept to be filled again
            self._total.fill(0.0)
        cv2.accumulate(frame, self._total)
        self._kept += 1
        self._newest = frame
        self.added += 1

    def mean(self) -> Image:
        """The average of the frames kept (the newest frame itself when it is alone)."""
        if self._newest is None or self._total is None or not self._kept:
            raise ValueError("no frame to average")
        if self._kept == 1:
            return self._newest
        return np.asarray(cv2.convertScaleAbs(self._total, alpha=1.0 / self._kept), np.uint8)

    def clear(self) -> None:
        # The sum's memory is kept for the next stack: a frame's worth of floats, which
        # the allocator would otherwise map and zero again at every reading.
        self._newest, self._first = None, None
        self._kept = self.added = 0


def moved_px(reference: Image, frame: Image, picture_scale: float = 1.0) -> float:
    """How far (working pixels: see :class:`StillStack`) the part of ``frame`` that moved
    most has moved from ``reference``: the largest shift of any tile."""
    comparison = _Comparison.of(picture_scale)
    grey = comparison.grey(reference)
    return comparison.moved(grey, slopes(grey), comparison.grey(frame))


@dataclass(frozen=True)
class _Comparison:
    """How frames are compared: shrunk by a whole factor (OpenCV averages whole blocks
    fast, other factors about ten times slower), the one nearest to MOTION_SCALE of the
    working picture, a move told in working pixels."""

    factor: int
    working_px: float  # working pixels per pixel compared

    @classmethod
    def of(cls, picture_scale: float) -> _Comparison:
        scale = min(1.0, picture_scale)
        factor = max(1, round(1.0 / (MOTION_SCALE * scale)))
        return cls(factor, factor * scale)

    def grey(self, frame: Image) -> Grey:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        shrink = 1.0 / self.factor
        small = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        return np.asarray(small, np.float32)

    def moved(self, reference: Grey, reference_slopes: tuple[Grey, Grey], grey: Grey) -> float:
        shifts = _tile_shifts(reference_slopes, grey - reference)
        largest = float(np.sqrt((shifts**2).sum(axis=-1)).max(initial=0.0))
        return largest * self.working_px


def _tile_shifts(reference_slopes: tuple[Grey, Grey], change: Grey) -> NDArray[np.float64]:
    """Per tile, the shift d (half-size pixels) that best explains ``change`` by the
    reference's slopes (change = -slope . d), regularised: d = -(G + lam I)^-1 b, with G
    the tile's sums of slope products and b of slope times change. The noise of b along a
    direction of G's eigenvalue e is that of the change times sqrt(e), so d's noise is at
    most sqrt(change variance / lam) / 2 in any direction: lam is chosen to make that
    ``SHIFT_NOISE``, the change's variance measured robustly over the whole picture."""
    dx, dy = reference_slopes
    spread = 1.4826 * float(np.median(np.abs(change[::4, ::4])))
    ridge = max(spread, 0.5) ** 2 / (4 * SHIFT_NOISE**2)
    sums = [
        _tile_sums(product) for product in (dx * dx, dx * dy, dy * dy, dx * change, dy * change)
    ]
    xx, xy, yy, xc, yc = (s.astype(np.float64) for s in sums)
    xx += ridge
    yy += ridge
    determinant = xx * yy - xy * xy
    shift_x = -(yy * xc - xy * yc) / determinant
    shift_y = -(xx * yc - xy * xc) / determinant
    return np.stack([shift_x, shift_y], axis=-1)


def _tile_sums(values: Grey) -> Grey:
    rows = values.shape[0] // MOTION_TILE
    columns = values.shape[1] // MOTION_TILE
    whole = values[: rows * MOTION_TILE, : columns * MOTION_TILE]
    means = cv2.resize(whole, (columns, rows), interpolation=cv2.INTER_AREA)
    return np.asarray(means, np.float32) * MOTION_TILE**2


def still_average(frames: Iterator[Image], *, count: int = STACKED) -> Image:
    """The average of the first ``count`` still frames of a live camera's ``frames`` (see
    :class:`StillStack`), or of those still when :func:`calibration_averaged` gives up;
    the only frame when the stream ends after one."""
    stack = StillStack()
    for frame in frames:
        stack.add(frame)
        if calibration_averaged(stack, count):
            break
    return stack.mean()


def calibration_averaged(stack: StillStack, count: int) -> bool:
    """Whether an empty tray's stack is done: ``count`` still frames averaged, or
    :data:`CALIBRATION_PATIENCE` times as many seen (a camera that keeps shaking)."""
    return stack.kept >= count or stack.added >= CALIBRATION_PATIENCE * count
