"""Counting the pips on the top face of a six-sided die.

Pips are small round marks that contrast with the die's body. Pips on the side faces, seen
at a slant, look flattened; only round ones of one size count, so a side face seen beside
the top face adds nothing. A count is trusted only when the pips are alike and all fit on
one face.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.segment import Blob
from vision.tray import Image

PIP_DIAMETER_MM = (1.6, 5.0)
PIP_ROUNDNESS = 0.55  # short axis / long axis
PIP_CONTRAST = 45.0  # grey levels between a pip and the die's body
PIP_SIZE_SPREAD = 2.6  # largest / smallest pip area
TWO_PIP_GAP = (0.45, 0.95)  # distance between the pips of a 2, in die widths
LAYOUT_TOLERANCE = 0.15  # largest difference of normalised distances between pips
LAYOUTS: dict[int, list[tuple[int, int]]] = {
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class PipCount:
    value: int | None
    confidence: float


def count_pips(frame: Image, blob: Blob, px_per_mm: float) -> PipCount:
    x0, y0, x1, y1 = blob.box.x0, blob.box.y0, blob.box.x1, blob.box.y1
    crop = frame[max(0, y0) : y1, max(0, x0) : x1]
    if crop.size == 0:
        return PipCount(None, 0.0)
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.drawContours(inside, [blob.contour - np.array([max(0, x0), max(0, y0)])], -1, 255, -1)
    inside = np.asarray(cv2.erode(inside, np.ones((3, 3), np.uint8)), np.uint8)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    body = float(np.median(grey[inside > 0])) if np.any(inside) else 0.0
    # Pips are lighter on a dark die, darker on a light one.
    contrast = grey - body if body < 128 else body - grey
    marks = ((contrast > PIP_CONTRAST) & (inside > 0)).astype(np.uint8)
    areas, centres, others = _round_marks(marks, px_per_mm)
    count = _judge(areas, centres)
    if (
        count.value is not None
        and count.value <= 2
        and not _low_count_holds(centres, others, blob.width_mm * px_per_mm)
    ):
        return PipCount(None, 0.0)
    return count


def _low_count_holds(centres: list[Point], others: int, side_px: float) -> bool:
    """One or two pips have no layout to check: nothing else may look like a mark, and two
    pips must lie a die's diagonal apart (one pip missed or one too many is the risk)."""
    if others:
        return False
    if len(centres) == 2:
        gap = float(np.hypot(centres[0][0] - centres[1][0], centres[0][1] - centres[1][1]))
        return TWO_PIP_GAP[0] <= gap / side_px <= TWO_PIP_GAP[1]
    return True


def _round_marks(marks: np.ndarray, px_per_mm: float) -> tuple[list[float], list[Point], int]:
    count, _, stats, centroids = cv2.connectedComponentsWithStats(marks)
    low, high = (np.pi / 4 * (d * px_per_mm) ** 2 for d in PIP_DIAMETER_MM)
    areas, centres = [], []
    others = 0
    for index in range(1, count):
        w, h, area = stats[index, 2], stats[index, 3], stats[index, 4]
        if area >= low / 2 and not (low <= area <= high and min(w, h) / max(w, h) >= PIP_ROUNDNESS):
            others += 1
        elif low <= area <= high:
            areas.append(float(area))
            centres.append((float(centroids[index][0]), float(centroids[index][1])))
    return areas, centres, others


def _judge(areas: list[float], centres: list[Point]) -> PipCount:
    if not 1 <= len(areas) <= 6:
        return PipCount(None, 0.0)
    spread = max(areas) / min(areas)
    if spread > PIP_SIZE_SPREAD:
        return PipCount(None, 0.0)
    misfit = layout_misfit(centres)
    if misfit > LAYOUT_TOLERANCE:
        return PipCount(None, 0.0)
    return PipCount(len(areas), float(1.0 - misfit / LAYOUT_TOLERANCE * 0.5))


def _pairwise(points: NDArray[np.float64]) -> NDArray[np.float64]:
    gaps = points[:, None, :] - points[None, :, :]
    upper = np.triu_indices(len(points), 1)
    return np.sort(np.sqrt((gaps**2).sum(axis=2))[upper])


def layout_misfit(centres: list[Point]) -> float:
    """How far the pips are from the die's layout for their count (0: exact).

    Distances between pips, divided by the largest, do not depend on how the die lies.
    """
    if len(centres) < 3:
        return 0.0
    measured = _pairwise(np.asarray(centres, np.float64))
    expected = _pairwise(np.asarray(LAYOUTS[len(centres)], np.float64))
    if measured[-1] <= 0:
        return 1.0
    return float(np.abs(measured / measured[-1] - expected / expected[-1]).max())
