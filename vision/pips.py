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

PIP_DIAMETER_MM = (2.0, 5.0)
FACE_COLOUR_DISTANCE = 18.0  # Lab units from the top face's median colour
TOP_SLACK_MM = 1.5  # the top face may reach this far past where perspective puts it
SEED_INSET_MM = 2.5  # the top face's first guess, shrunk by this much, gives its colour
TOP_FACE_SIDE_MM = (12.0, 22.0)  # 15-18 mm dice, nearer the lens than the floor, rounded
TOP_FACE_SQUARENESS = 1.25
OTHERS_INSET_MM = 1.5  # marks this far inside the face's colour region count as marks on it
PIP_REACH_MM = 2.0  # how far past the region of the face's colour a pip's centre may lie
PIPS_OFF_CENTRE = 0.14  # largest distance from the pips' mean to the face's centre, in sides
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
    lying_flat: bool = True  # False: no square top face of the die's size was seen


def top_face(inside: NDArray[np.uint8], lift: tuple[float, float]) -> NDArray[np.uint8]:
    """The part of an implement's mask that is its top face.

    The outline is the top face and the footprint joined by the sides; the footprint is the
    top face moved back by ``lift`` (see ``Tray.lift``), so the outline moved forward by
    ``lift`` covers the top face and the outline only there.
    """
    shift = np.array([[1, 0, lift[0]], [0, 1, lift[1]]], np.float32)
    moved = cv2.warpAffine(inside, shift, (inside.shape[1], inside.shape[0]))
    return np.asarray(cv2.bitwise_and(inside, moved), np.uint8)


def face_of_one_colour(
    crop: Image, inside: NDArray[np.uint8], seed: NDArray[np.uint8]
) -> NDArray[np.uint8] | None:
    """The top face: the region of the seed's colour around it, its marks included.

    Sides are shaded differently from the top, and a shadow joined to the outline is the
    felt's colour, darker: neither has the top face's colour.
    """
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    if np.count_nonzero(seed) < 9:
        return None
    reference = np.median(lab[seed > 0], axis=0)
    distance = np.sqrt(((lab - reference) ** 2).sum(axis=2))
    alike = ((distance < FACE_COLOUR_DISTANCE) & (inside > 0)).astype(np.uint8)
    alike = cv2.morphologyEx(alike, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(alike)
    if count < 2:
        return None
    overlap = np.bincount(labels[seed > 0].ravel(), minlength=count)
    overlap[0] = 0
    region = (labels == int(overlap.argmax())).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    face = np.zeros_like(region)
    cv2.fillConvexPoly(face, hull, 1)
    return np.asarray(face, np.uint8)


def count_pips(
    frame: Image, blob: Blob, px_per_mm: float, lift: tuple[float, float] = (0.0, 0.0)
) -> PipCount:
    x0, y0, x1, y1 = blob.box.x0, blob.box.y0, blob.box.x1, blob.box.y1
    crop = frame[max(0, y0) : y1, max(0, x0) : x1]
    if crop.size == 0:
        return PipCount(None, 0.0)
    outline = np.zeros(crop.shape[:2], np.uint8)
    cv2.drawContours(outline, [blob.contour - np.array([max(0, x0), max(0, y0)])], -1, 1, -1)
    seed_size = max(3, round(SEED_INSET_MM * px_per_mm) | 1)
    top = top_face(outline, lift)
    seed = cv2.erode(top, np.ones((seed_size, seed_size), np.uint8))
    # Sides as dark as the top (a black die) must not widen it: the top face lies where
    # perspective puts it, give or take a shadow's or a rounded edge's width.
    slack = max(3, round(2 * TOP_SLACK_MM * px_per_mm) | 1)
    where = np.asarray(cv2.dilate(top, np.ones((slack, slack), np.uint8)), np.uint8) & outline
    face = face_of_one_colour(crop, where, np.asarray(seed, np.uint8))
    if face is None:
        return PipCount(None, 0.0, lying_flat=False)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    body = float(np.median(grey[face > 0]))
    # Pips near the face's edges sit where the region of the face's colour stops short
    # (the rounded, differently shaded border): a pip's reach around it is taken in.
    reach = max(3, round(2 * PIP_REACH_MM * px_per_mm) | 1)
    near = np.asarray(
        cv2.dilate(face, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))), np.uint8
    )
    # Pips are lighter than the body or darker: whichever shows pips, never both.
    inset = max(3, round(2 * OTHERS_INSET_MM * px_per_mm) | 1)
    core = np.asarray(cv2.erode(face, np.ones((inset, inset), np.uint8)), np.uint8)
    found = [
        _round_marks(_marks(contrast, outline), px_per_mm, near, core)
        for contrast in (grey - body, body - grey)
    ]
    with_pips = [marks for marks in found if marks[0]]
    if len(with_pips) != 1:
        return PipCount(None, 0.0, lying_flat=_square_face(face, px_per_mm))
    areas, centres, others = with_pips[0]
    whole = _with_pips(face, areas, centres)
    if not _square_face(whole, px_per_mm):
        return PipCount(None, 0.0, lying_flat=False)
    count = _judge(areas, centres)
    side_px = float(np.sqrt(np.count_nonzero(whole)))
    if count.value is not None and not _centred(centres, whole, side_px):
        return PipCount(None, 0.0)
    if (
        count.value is not None
        and count.value <= 2
        and not _low_count_holds(centres, others, side_px)
    ):
        return PipCount(None, 0.0)
    return count


def _marks(contrast: NDArray[np.float32], outline: NDArray[np.uint8]) -> NDArray[np.uint8]:
    marks = ((contrast > PIP_CONTRAST) & (outline > 0)).astype(np.uint8)
    # Thin lines of shade along the edges would join the pips near them: an opening
    # keeps what is as wide as a pip.
    pip_core = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return np.asarray(cv2.morphologyEx(marks, cv2.MORPH_OPEN, pip_core), np.uint8)


def _with_pips(
    face: NDArray[np.uint8], areas: list[float], centres: list[Point]
) -> NDArray[np.uint8]:
    """The top face with its pips: the convex hull of both."""
    whole = face.copy()
    for area, (x, y) in zip(areas, centres, strict=True):
        cv2.circle(whole, (round(x), round(y)), int(np.sqrt(area / np.pi)) + 1, 1, -1)
    contours, _ = cv2.findContours(whole, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.vstack(contours))
    filled = np.zeros_like(face)
    cv2.fillConvexPoly(filled, hull, 1)
    return filled


def _centred(centres: list[Point], face: NDArray[np.uint8], side_px: float) -> bool:
    """Every layout is symmetric about the face's centre: pips off it mean one was missed."""
    ys, xs = np.nonzero(face)
    mean = np.mean(np.asarray(centres, np.float64), axis=0)
    offset = float(np.hypot(mean[0] - xs.mean(), mean[1] - ys.mean()))
    return offset <= PIPS_OFF_CENTRE * side_px


def _square_face(face: NDArray[np.uint8], px_per_mm: float) -> bool:
    """A die's top face: a square of the die's size, seen from above."""
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (w, h), _ = cv2.minAreaRect(contours[0])
    long_side, short_side = max(w, h) / px_per_mm, min(w, h) / px_per_mm
    return (
        TOP_FACE_SIDE_MM[0] <= short_side
        and long_side <= TOP_FACE_SIDE_MM[1]
        and long_side / max(short_side, 1e-6) <= TOP_FACE_SQUARENESS
    )


def _low_count_holds(centres: list[Point], others: int, side_px: float) -> bool:
    """One or two pips have no layout to check: nothing else may look like a mark, and two
    pips must lie a die's diagonal apart (one pip missed or one too many is the risk)."""
    if others:
        return False
    if len(centres) == 2:
        gap = float(np.hypot(centres[0][0] - centres[1][0], centres[0][1] - centres[1][1]))
        return TWO_PIP_GAP[0] <= gap / side_px <= TWO_PIP_GAP[1]
    return True


def _round_marks(
    marks: NDArray[np.uint8], px_per_mm: float, near: NDArray[np.uint8], core: NDArray[np.uint8]
) -> tuple[list[float], list[Point], int]:
    """Pips (round, of a pip's size) centred near the top face, other marks centred well
    inside it (the face's shaded border and the sides' pips are not marks on it)."""
    count, _, stats, centroids = cv2.connectedComponentsWithStats(marks)
    low, high = (np.pi / 4 * (d * px_per_mm) ** 2 for d in PIP_DIAMETER_MM)
    areas, centres = [], []
    others = 0
    for index in range(1, count):
        cx, cy = round(centroids[index][0]), round(centroids[index][1])
        cx, cy = min(cx, core.shape[1] - 1), min(cy, core.shape[0] - 1)
        w, h, area = stats[index, 2], stats[index, 3], stats[index, 4]
        round_pip = low <= area <= high and min(w, h) / max(w, h) >= PIP_ROUNDNESS
        if area >= low / 2 and not round_pip and core[cy, cx]:
            others += 1
        elif round_pip and near[cy, cx]:
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
