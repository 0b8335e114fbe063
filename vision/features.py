"""Measurements of one implement's visible face, from the full-size frame.

A stick is cut out along its own axis (a rotated crop), so its features do not depend on
how it lies: the mean colour of its face, how banded it is along its length, and how much
of it is light or dark.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.segment import Blob
from vision.tray import Image

CROP_PX_PER_MM = 2.0
HUE_CHROMA = 6.0  # Lab units of colour under which a face's hue fades to 0 (grey has none)
ONE_COLOUR = 12.0  # Lab distance within which rows across a stick show one face
FACE_FEATURES = (
    "lightness",
    "red_green",
    "yellow_blue",
    "banding",
    "light_share",
    "dark_share",
    "hue",
)


@dataclass(frozen=True, slots=True)
class FaceFeatures:
    """What distinguishes one face of a stick from the other."""

    values: tuple[float, ...]  # in the order of FACE_FEATURES

    def as_array(self) -> NDArray[np.float64]:
        return np.asarray(self.values, np.float64)

    @property
    def colour(self) -> tuple[float, float]:
        """The face's colour without its lightness: CIE Lab's a (red-green), b (yellow-blue)."""
        return self.values[1], self.values[2]


def stick_strip(frame: Image, blob: Blob, px_per_mm: float) -> Image:
    """The stick's face, rotated to lie along x, its central half across the width."""
    return _along_stick(frame, blob, px_per_mm, along=0.9, across=0.5)


def _along_stick(
    frame: Image, blob: Blob, px_per_mm: float, *, along: float, across: float
) -> Image:
    """The middle of the blob's rotated rectangle, turned to lie along x at
    ``CROP_PX_PER_MM``: ``along`` of its length, ``across`` of its width."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(blob.contour)
    length, width = (w, h) if w >= h else (h, w)
    if w < h:
        angle += 90.0
    scale = CROP_PX_PER_MM / px_per_mm
    out_w = max(8, int(length * scale * along))
    out_h = max(4, int(width * scale * across))
    rotation = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    rotation[0, 2] += out_w / 2 - cx
    rotation[1, 2] += out_h / 2 - cy
    strip = cv2.warpAffine(frame, rotation, (out_w, out_h), flags=cv2.INTER_AREA)
    return np.asarray(strip, np.uint8)


def face_features(strip: Image) -> FaceFeatures:
    lab = cv2.cvtColor(strip, cv2.COLOR_BGR2LAB).astype(np.float64)
    lightness = lab[..., 0]
    profile = lightness.mean(axis=0)
    banding = float(profile.std() / (profile.mean() + 1.0))
    mean_l = float(lightness.mean())
    red_green = float(lab[..., 1].mean() - 128.0)
    yellow_blue = float(lab[..., 2].mean() - 128.0)
    return FaceFeatures(
        (
            mean_l,
            red_green,
            yellow_blue,
            banding,
            float((lightness > 200).mean()),
            float((lightness < 70).mean()),
            _hue(red_green, yellow_blue),
        )
    )


def face_width_mm(frame: Image, blob: Blob, px_per_mm: float) -> float:
    """How wide the stick's face of one colour is, across the stick.

    A flat stick shows its whole face (16 or 20 mm); one on its edge shows a narrow side
    (6-7 mm) beside its own shadow, which the outline may take in and so look flat. The
    width is the longest run of rows across the stick whose colour stays close to one row's.
    Shadows fade (a penumbra), so their rows differ from one another; a shadow as sharp,
    even and wide as a face would pass for one.
    """
    return face_band(frame, blob, px_per_mm)[1]


def face_band(frame: Image, blob: Blob, px_per_mm: float) -> tuple[float, float]:
    """Where the face of one colour lies across the stick (``face_width_mm``): the offset of
    its middle from the outline's middle, towards the outline's rotated y axis, and its
    width, both in mm."""
    strip = _along_stick(frame, blob, px_per_mm, along=0.6, across=1.0)
    lab = cv2.cvtColor(strip, cv2.COLOR_BGR2LAB).astype(np.float64)
    rows = lab.mean(axis=1)  # bands along the length change every row alike
    close = np.sqrt(((rows[:, None, :] - rows[None, :, :]) ** 2).sum(axis=2)) < ONE_COLOUR
    start, run = _longest_run(close)
    middle = (start + run / 2 - len(rows) / 2) / CROP_PX_PER_MM
    return middle, run / CROP_PX_PER_MM


def _longest_run(close: NDArray[np.bool_]) -> tuple[int, int]:
    """The longest run of consecutive rows close to one same row (each column of ``close``):
    its first row and its length; of runs as long, the first column's first."""
    # Each column as a row framed by zeros: a run opens at +1 and closes at -1, and
    # np.nonzero lists both column by column, in order, so the i-th opening and the i-th
    # closing are one run's (one Python loop per column took a frame of sticks 1.7 ms).
    framed = np.zeros((close.shape[1], close.shape[0] + 2), np.int8)
    framed[:, 1:-1] = close.T
    steps = np.diff(framed, axis=1)
    openings = np.nonzero(steps == 1)[1]
    lengths = np.nonzero(steps == -1)[1] - openings
    if not len(lengths):
        return 0, 0
    longest = int(lengths.argmax())
    return int(openings[longest]), int(lengths[longest])


def _hue(red_green: float, yellow_blue: float) -> float:
    """The colour's hue angle (degrees), weighted by how coloured it is.

    The hue survives what the light and the exposure do to a colour's strength: a
    washed-out red stays a red, nearer to orange than bare wood is. A white or black face
    has no hue, and its angle would be noise spanning the whole circle: the weight
    ``chroma² / (chroma² + HUE_CHROMA²)`` takes it to 0 there, smoothly.
    """
    chroma_squared = red_green**2 + yellow_blue**2
    weight = chroma_squared / (chroma_squared + HUE_CHROMA**2)
    return float(np.degrees(np.arctan2(yellow_blue, red_green)) * weight)
