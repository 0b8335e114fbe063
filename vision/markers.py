"""Printed corner markers: an alternative to finding the tray by its felt's colour.

Four ArUco markers (OpenCV's 4x4 dictionary, ids 0-3), printed on square cards with a white
margin of an eighth of the card's side (``marker_image``), lie on the floor in its corners,
each card's corner in the tray's corner: id 0 top left, 1 top right, 2 bottom right, 3 bottom
left, as the camera sees the tray with its long side across the picture. The cards' outer
corners are the floor's corners, whatever the felt's colour or the light.

OpenCV has the markers from 4.7 on (``cv2.aruco``); older builds without the contrib modules
lack them, and calibration then says so.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.errors import CalibrationError
from vision.keystone import moved, rectifying
from vision.tray import (
    CAMERA_HEIGHT_MM,
    FLOOR_MM,
    Image,
    Points,
    Tray,
    check_proportions,
    floor_size,
)

DICTIONARY = "DICT_4X4_50"
CORNER_IDS = (0, 1, 2, 3)  # top left, top right, bottom right, bottom left
CARD_TO_MARKER = 8 / 6  # a card's side over its black square's side


def _aruco() -> Any:
    aruco = getattr(cv2, "aruco", None)
    if aruco is None or not hasattr(aruco, "ArucoDetector"):
        raise CalibrationError(
            "corner markers need OpenCV 4.7 or later (cv2.aruco); calibrate by the outline"
        )
    return aruco


def markers_available() -> bool:
    try:
        _aruco()
    except CalibrationError:
        return False
    return True


def find_markers(image: Image) -> dict[int, Points]:
    """The corner cards seen, by id: the four corners of each card (pixels)."""
    aruco = _aruco()
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, DICTIONARY))
    detector = aruco.ArucoDetector(dictionary, aruco.DetectorParameters())
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    found = {}
    for marker_id, quad in zip(ids.ravel(), corners, strict=True):
        if int(marker_id) in CORNER_IDS:
            square = np.asarray(quad, np.float32).reshape(4, 2)
            middle = square.mean(axis=0)
            found[int(marker_id)] = middle + (square - middle) * CARD_TO_MARKER
    return found


def calibrate_with_markers(
    empty: Image,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
    *,
    floor_mm: tuple[float, float] = FLOOR_MM,
) -> Tray:
    """A tray whose floor, of ``floor_mm`` inside, is given by the four corner markers in
    an image of it empty."""
    found = find_markers(empty)
    missing = [marker_id for marker_id in CORNER_IDS if marker_id not in found]
    if missing:
        names = ", ".join(str(m) for m in missing)
        raise CalibrationError(f"corner markers not seen: {names} (are all four uncovered?)")
    centre = np.mean([quad.mean(axis=0) for quad in found.values()], axis=0)
    # Each card's corner farthest from the tray's middle is the floor's corner.
    floor = np.asarray(
        [found[m][np.argmax(np.hypot(*(found[m] - centre).T))] for m in CORNER_IDS],
        np.float32,
    )
    keystone = rectifying(floor.astype(np.float64))
    if keystone is not None:  # a tilted camera: the floor's corners made a rectangle again
        floor = moved(floor.astype(np.float64), keystone).astype(np.float32)
    sides = [float(np.hypot(*(floor[i] - floor[i - 1]))) for i in range(4)]
    long_side = (sides[1] + sides[3]) / 2  # top and bottom edges
    short_side = (sides[0] + sides[2]) / 2
    if long_side < short_side:
        long_side, short_side = short_side, long_side
    if short_side <= 0:
        raise CalibrationError("the corner markers are not at the tray's corners")
    floor_mm = floor_size(*floor_mm)
    check_proportions(long_side, short_side, floor_mm)
    px_per_mm = (long_side / floor_mm[0] + short_side / floor_mm[1]) / 2
    return Tray.from_picture(empty, floor, float(px_per_mm), camera_height_mm, floor_mm, keystone)


def marker_image(marker_id: int, side_px: int) -> Image:
    """A marker card to print or to draw into generated scenes: the white margin included."""
    aruco = _aruco()
    dictionary = aruco.getPredefinedDictionary(getattr(aruco, DICTIONARY))
    inner = round(side_px / CARD_TO_MARKER)
    drawn = aruco.generateImageMarker(dictionary, marker_id, inner)
    border = (side_px - inner) // 2
    framed = cv2.copyMakeBorder(
        drawn,
        border,
        side_px - inner - border,
        border,
        side_px - inner - border,
        cv2.BORDER_CONSTANT,
        value=255,
    )
    return np.asarray(framed, np.uint8)
