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
FACE_FEATURES = ("lightness", "red_green", "yellow_blue", "banding", "light_share", "dark_share")


@dataclass(frozen=True, slots=True)
class FaceFeatures:
    """What distinguishes one face of a stick from the other."""

    values: tuple[float, ...]  # in the order of FACE_FEATURES

    def as_array(self) -> NDArray[np.float64]:
        return np.asarray(self.values, np.float64)


def stick_strip(frame: Image, blob: Blob, px_per_mm: float) -> Image:
    """The stick's face, rotated to lie along x, its central half across the width."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(blob.contour)
    length, width = (w, h) if w >= h else (h, w)
    if w < h:
        angle += 90.0
    scale = CROP_PX_PER_MM / px_per_mm
    out_w = max(8, int(length * scale * 0.9))
    out_h = max(4, int(width * scale * 0.5))
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
    return FaceFeatures(
        (
            mean_l,
            float(lab[..., 1].mean() - 128.0),
            float(lab[..., 2].mean() - 128.0),
            banding,
            float((lightness > 200).mean()),
            float((lightness < 70).mean()),
        )
    )
