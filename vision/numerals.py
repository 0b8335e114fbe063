"""Reading a top-read tetrahedral die (d4): the value printed near the top point.

Seen from above, a d4 shows three faces; each face carries three numerals, one near each of
its corners. The three numerals nearest the top point all show the value thrown; the six
others sit near the base corners, two at each. The numerals near the top are those farthest
from every base corner. Each is cut out turned so that the top point is above it (numerals
on a d4 face their corner), and compared with glyphs: pictures of numerals learned at
enrolment (``Profile.glyphs``). A value is read only when the three numerals agree, each
clearly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.segment import Blob
from vision.tray import Image

GLYPH_SIZE = 20  # pixels of a glyph's side
GLYPH_SPAN_MM = 7.0  # the square around a numeral that a glyph shows
MARK_CONTRAST = 22.0  # grey levels between a numeral and the face around it
MARK_AREA_MM2 = (1.2, 30.0)
MARK_EXTENT_MM = 8.0
LOCAL_MM = 4.5  # the face around a numeral: a median over this width
LIGHT_BODY = 140.0  # a die lighter than this carries dark numerals
TURNS_DEG = (-30, -20, -10, 0, 10, 20, 30)
MIN_MATCH = 0.65
MIN_MARGIN = 0.12
MIN_HEIGHT_MM = 3.0  # numerals shorter than this, seen from above, are too aslant to read
APEX_SPREAD = 0.45  # the three numerals lie this close to their centre, in die edges

Patch = NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Glyph:
    """A numeral as it looks on one set's d4, learned at enrolment."""

    value: int
    look: str
    patch: Patch  # GLYPH_SIZE x GLYPH_SIZE, zero mean, unit norm

    def as_dict(self) -> dict[str, object]:
        quantised = np.round(self.patch.ravel() * 1000).astype(int).tolist()
        return {"value": self.value, "look": self.look, "patch": quantised}

    @classmethod
    def from_dict(cls, record: dict[str, object]) -> Glyph:
        values = np.asarray(record["patch"], np.float32) / 1000
        patch = normalised(np.asarray(values.reshape(GLYPH_SIZE, GLYPH_SIZE), np.float32))
        return cls(int(str(record["value"])), str(record["look"]), patch)


@dataclass(frozen=True, slots=True)
class D4Reading:
    value: int | None
    confidence: float
    detail: str = ""


def apex_patches(frame: Image, blob: Blob, px_per_mm: float) -> list[Patch] | None:
    """The three numerals nearest the top point, each turned with the top point above it."""
    margin = 4
    x0, y0 = max(0, blob.box.x0 - margin), max(0, blob.box.y0 - margin)
    x1 = min(frame.shape[1], blob.box.x1 + margin)
    y1 = min(frame.shape[0], blob.box.y1 + margin)
    crop = frame[y0:y1, x0:x1]
    outline = np.zeros(crop.shape[:2], np.uint8)
    cv2.drawContours(outline, [blob.contour - np.array([x0, y0])], -1, 1, -1)
    inner = cv2.erode(outline, np.ones((5, 5), np.uint8))
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    local = max(3, round(LOCAL_MM * px_per_mm) | 1)
    around = cv2.medianBlur(grey, local).astype(np.float32)
    signed = grey.astype(np.float32) - around
    dark_numerals = float(np.median(grey[inner > 0])) > LIGHT_BODY
    contrast = -signed if dark_numerals else signed
    marks = ((contrast > MARK_CONTRAST) & (inner > 0)).astype(np.uint8)
    found = _numerals(marks, px_per_mm)
    _, triangle = cv2.minEnclosingTriangle(blob.contour.astype(np.float32))
    corners = triangle.reshape(-1, 2) - np.array([x0, y0], np.float32)
    if len(found) < 3:
        return None
    away = [min(float(np.hypot(*(centre - k))) for k in corners) for centre, _ in found]
    nearest_top = [found[i] for i in np.argsort(away)[::-1][:3]]
    apex = np.mean([centre for centre, _ in nearest_top], axis=0)
    edge = float(np.mean([np.hypot(*(corners[i] - corners[i - 1])) for i in range(3)]))
    if max(float(np.hypot(*(centre - apex))) for centre, _ in nearest_top) > APEX_SPREAD * edge:
        return None
    return [
        _patch(contrast, centre, apex, px_per_mm)
        for centre, points in nearest_top
        if _height_mm(points, centre, apex, px_per_mm) >= MIN_HEIGHT_MM
    ]


def _height_mm(
    points: NDArray[np.float64],
    centre: NDArray[np.float64],
    apex: NDArray[np.float64],
    px_per_mm: float,
) -> float:
    """How tall a numeral looks along the line to the top point: a face seen much aslant
    squeezes its numerals into blots that cannot be read."""
    towards = apex - centre
    length = float(np.hypot(*towards))
    if length <= 0:
        return 0.0
    along = (points - centre) @ (towards / length)
    return float(along.max() - along.min() + 1.0) / px_per_mm


def _numerals(
    marks: NDArray[np.uint8], px_per_mm: float
) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Marks of a numeral's size: their centres and their pixels (x, y)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(marks)
    low, high = (a * px_per_mm**2 for a in MARK_AREA_MM2)
    extent = MARK_EXTENT_MM * px_per_mm
    found = []
    for i in range(1, count):
        if low <= stats[i, 4] <= high and max(stats[i, 2], stats[i, 3]) <= extent:
            ys, xs = np.nonzero(labels == i)
            points = np.stack([xs, ys], axis=1).astype(np.float64)
            found.append((np.asarray(centroids[i], np.float64), points))
    return found


def _patch(
    contrast: NDArray[np.float32],
    centre: NDArray[np.float64],
    apex: NDArray[np.float64],
    px_per_mm: float,
) -> Patch:
    towards = apex - centre
    # Image y grows downwards: turning by this angle puts the top point straight above.
    angle = float(np.degrees(np.arctan2(towards[0], -towards[1])))
    scale = GLYPH_SIZE / (GLYPH_SPAN_MM * px_per_mm)
    turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
    turn[0, 2] += GLYPH_SIZE / 2 - centre[0]
    turn[1, 2] += GLYPH_SIZE / 2 - centre[1]
    patch = cv2.warpAffine(
        np.clip(contrast, 0, None), turn, (GLYPH_SIZE, GLYPH_SIZE), flags=cv2.INTER_LINEAR
    )
    return normalised(np.asarray(patch, np.float32))


def normalised(patch: Patch) -> Patch:
    centred = patch - patch.mean()
    norm = float(np.linalg.norm(centred))
    return np.asarray(centred / norm if norm > 0 else centred, np.float32)


def _turned(patch: Patch, degrees: float) -> Patch:
    middle = (GLYPH_SIZE / 2 - 0.5, GLYPH_SIZE / 2 - 0.5)
    turn = cv2.getRotationMatrix2D(middle, degrees, 1.0)
    return normalised(np.asarray(cv2.warpAffine(patch, turn, (GLYPH_SIZE, GLYPH_SIZE)), np.float32))


def _scores(patch: Patch, glyphs: tuple[Glyph, ...]) -> dict[int, float]:
    """The best correlation with each value's glyphs, over small turns of the patch."""
    turns = [_turned(patch, d) if d else patch for d in TURNS_DEG]
    best: dict[int, float] = {}
    for glyph in glyphs:
        score = max(float((turn * glyph.patch).sum()) for turn in turns)
        best[glyph.value] = max(score, best.get(glyph.value, -1.0))
    return best


def read_d4(frame: Image, blob: Blob, px_per_mm: float, glyphs: tuple[Glyph, ...]) -> D4Reading:
    if {glyph.value for glyph in glyphs} != {1, 2, 3, 4}:
        return D4Reading(None, 0.0, "the profile lacks the d4's numerals: enrol the d4")
    patches = apex_patches(frame, blob, px_per_mm)
    if patches is None:
        return D4Reading(None, 0.0, "the d4's top numerals are not found")
    values, margins = [], []
    for patch in patches:
        ranked = sorted(_scores(patch, glyphs).items(), key=lambda item: -item[1])
        (value, score), (_, runner_up) = ranked[0], ranked[1]
        if score < MIN_MATCH or score - runner_up < MIN_MARGIN:
            continue
        values.append(value)
        margins.append(score - runner_up)
    if not values:
        return D4Reading(None, 0.0, "the d4's top numeral is unclear")
    if len(set(values)) != 1:
        return D4Reading(None, 0.0, "the d4's top numerals disagree")
    return D4Reading(values[0], float(min(1.0, max(margins) * 4)))
