"""Sticks joined into one blob by a shadow: found again by their known size, and parted.

The foreground keeps a darkening between two parts of an object (a dark band of paint), so
a stick's shadow reaching another stick joins the two into one blob too big for any
implement. Within such a blob, every stick lying flat is a rectangle of its known size that
fits wholly inside the outline; what is left around the rectangles is shade and the sticks'
sides. Each stick's rectangle is placed as far from the others as it still fits: a shadow
lies between the sticks it joins, so the rectangle slides off it onto the stick. The blob
is parted only when:

- at least two sticks are found, and their rectangles stay apart (sticks lying on one
  another leave no room for two whole rectangles, or the two cross);
- everything in the outline lies near a place where one of them fits (an implement of
  another size, or one stick partly hidden under another, leaves parts that no rectangle
  explains);
- each part, measured alone, is a stick lying flat.

Each part is then the blob's pixels nearer to its rectangle than to any other: a stick
with its own shadow, as it would be had it fallen alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.features import face_band
from vision.observation import Kind
from vision.polygons import convex_gap
from vision.segment import STICK_MM, Blob, Mask, Segmenter
from vision.shapes import STICK_FLAT_WIDTH, YESNO_MM, Shape, classify
from vision.tray import ANALYSIS_SCALE, Image

# The rectangle searched for: a stick (120 x 16 mm) less its rounded ends and blurred sides.
CORE_MM = (STICK_MM[0] - 4.0, STICK_MM[1] - 3.0)
CORE_FILL = 0.97  # share of the rectangle inside the outline (ragged outlines lose a few pixels)
# Between two rectangles placed apart: the sticks' ends and sides reach 2-5 mm past them, so
# sticks that touch, or lie on one another, leave less than this.
MIN_GAP_MM = 8.0
NEAR_MM = 20.0  # how far from a rectangle the stick's own ends, sides and shadow reach
LONGEST_PART_MM = {Kind.STICK: STICK_MM[0] + 14.0, Kind.YESNO: YESNO_MM[0] + 14.0}
EDGE_MM = 40.0  # straight stretches of the outline this long give the angles to try
ANGLE_STEPS_DEG = (-2.0, 0.0, 2.0)
SEARCH_SCALE = 0.5  # the search runs on the analysis frame halved: about 0.6 px per mm
# The widest shadow beside a stick: a stick 6 mm high, lit from 23 degrees above the
# horizon; and what blur adds to an outline. A part wider than a stick, its shadow and the
# blur may hold two sticks side by side (16 + 16 mm and the blur): it is not cut down.
SHADOW_MM = 14.0
BLUR_MM = 3.0
SHADE = 0.85  # what is cut away must be darker than the empty tray there: a shadow
FACE_MARGIN_MM = 1.5  # kept on each side of the face: blur and the sides seen in perspective
# Taken away on each side of a stick found, to see what else the outline holds: its blurred
# side and most of its shadow, less than a neighbour a few millimetres away.
BESIDE_MM = 8.0
SAME_STICK_OVERLAP = 0.3  # rectangles overlapping this much (of the smaller) are one stick

RotatedRect = tuple[tuple[float, float], tuple[float, float], float]
Points = NDArray[np.float64]


@dataclass(frozen=True)
class _Fits:
    """Every place where one stick's rectangle fits, at one angle (crop pixels, analysis size)."""

    centres: Points  # shape (N, 2)
    angle: float
    size: tuple[float, float]  # the rectangle, pixels

    def rect(self, centre: Points) -> RotatedRect:
        return ((float(centre[0]), float(centre[1])), self.size, self.angle)

    @property
    def middle(self) -> RotatedRect:
        return self.rect(self.centres.mean(axis=0))


def separated(frame: Image, blob: Blob, segmenter: Segmenter) -> list[Blob] | None:
    """The sticks of a merged blob as blobs of their own, or None when it cannot be parted."""
    px_per_mm = segmenter.tray.px_per_mm * ANALYSIS_SCALE
    contour = np.asarray(np.round(blob.contour * ANALYSIS_SCALE), np.int32)
    x, y, w, h = cv2.boundingRect(contour)
    pad = 4
    origin = np.array([x - pad, y - pad], np.int32)
    region = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(region, [contour - origin], -1, 1, cv2.FILLED)
    small = _search_size(region)
    fits = _fits(small, _edge_angles(contour - origin, px_per_mm), px_per_mm)
    sticks = _distinct(fits)
    if len(sticks) == 1:
        rest = _rest_angle(region, sticks[0], px_per_mm)
        if rest is not None:
            sticks = _distinct(fits + _fits(small, [rest], px_per_mm))
    if len(sticks) < 2:
        return None
    rects = _placed_apart(sticks)
    if not _apart(rects, px_per_mm) or not _explained(region, sticks, px_per_mm):
        return None
    parts = []
    whole = [_whole_stick(rect, px_per_mm) for rect in rects]
    for part, rect in zip(_partition(region, whole), rects, strict=True):
        measured = _measured(part, origin, segmenter)
        if measured is not None and _too_wide(measured):
            measured = _face_only(frame, part, rect[2], origin, segmenter)
        if measured is None or not _lies_flat(measured):
            return None
        parts.append(measured)
    return parts


def _measured(part: Mask, origin: NDArray[np.int32], segmenter: Segmenter) -> Blob | None:
    found, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not found:
        return None
    return segmenter.measure(np.asarray(max(found, key=cv2.contourArea), np.int32) + origin)


def _lies_flat(blob: Blob) -> bool:
    """A part is a stick lying flat, no longer than one with its shadow at an end."""
    call = classify(blob)
    if call.shape is not Shape.FLAT or call.kind not in LONGEST_PART_MM:
        return False
    return blob.length_mm <= LONGEST_PART_MM[call.kind]


def _too_wide(blob: Blob) -> bool:
    call = classify(blob)
    return call.shape is Shape.MERGED and call.kind is Kind.STICK


def _face_only(
    frame: Image, part: Mask, angle: float, origin: NDArray[np.int32], segmenter: Segmenter
) -> Blob | None:
    """A stick's part widened by a deep shadow along its side, cut down to the stick's face.

    The part is measured along the stick's rectangle, over most of its length (a corner of
    the other stick's shade at the joint does not count); it must be no wider than a stick
    and its shadow. The face is the widest band of one colour across it (``face_band``), and
    what is cut away beside the face must be darker than the empty tray, as a shadow is.
    """
    mm = segmenter.tray.px_per_mm * ANALYSIS_SCALE  # analysis pixels per mm
    centre, size = _robust_extent(part, angle)
    if size[1] / mm > STICK_MM[1] + SHADOW_MM + BLUR_MM:
        return None
    within = _filled_box(part, centre, size, angle)
    if size[1] / mm <= STICK_FLAT_WIDTH[1]:
        return _measured(part & within, origin, segmenter)  # only a corner stood out
    aligned = segmenter.measure(_box(centre, size, angle) + origin)
    shift, width = face_band(frame, aligned, segmenter.tray.px_per_mm)
    # face_band measures across its outline's rotated rectangle, as OpenCV names its sides.
    (_, _), (w, h), turned = cv2.minAreaRect(aligned.contour)
    towards = np.radians(turned + (90.0 if w < h else 0.0) + 90.0)
    face_centre = (
        centre[0] + shift * mm * float(np.cos(towards)),
        centre[1] + shift * mm * float(np.sin(towards)),
    )
    band = _filled_box(part, face_centre, (size[0] + 2.0, (width + 2 * FACE_MARGIN_MM) * mm), angle)
    if not _shade(frame, segmenter.tray.empty, part & within & (1 - band), origin):
        return None
    return _measured(part & band, origin, segmenter)


def _robust_extent(part: Mask, angle: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Centre and size (along ``angle``, across it) of the part, its outer 1 % left out."""
    ys, xs = np.nonzero(part)
    axis, across = np.radians(angle), np.radians(angle + 90.0)
    along = xs * np.cos(axis) + ys * np.sin(axis)
    side = xs * np.cos(across) + ys * np.sin(across)
    (a0, a1), (s0, s1) = np.percentile(along, (1.0, 99.0)), np.percentile(side, (1.0, 99.0))
    middle_along, middle_side = (a0 + a1) / 2, (s0 + s1) / 2
    centre = (
        float(middle_along * np.cos(axis) + middle_side * np.cos(across)),
        float(middle_along * np.sin(axis) + middle_side * np.sin(across)),
    )
    return centre, (float(a1 - a0), float(s1 - s0))


def _filled_box(
    like: Mask, centre: tuple[float, float], size: tuple[float, float], angle: float
) -> Mask:
    inside = np.zeros_like(like)
    cv2.fillConvexPoly(inside, _box(centre, size, angle), 1)
    return inside


def _box(centre: tuple[float, float], size: tuple[float, float], angle: float) -> NDArray[np.int32]:
    return np.asarray(np.round(cv2.boxPoints((centre, size, angle))), np.int32)


def _shade(frame: Image, empty: Image, cut: Mask, origin: NDArray[np.int32]) -> bool:
    """Whether what is cut away is darker than the empty tray there, as a shadow is."""
    ys, xs = np.nonzero(cut)
    if len(xs) == 0:
        return True
    full = 1.0 / ANALYSIS_SCALE
    cols = np.clip(((xs + origin[0]) * full).astype(int), 0, frame.shape[1] - 1)
    rows = np.clip(((ys + origin[1]) * full).astype(int), 0, frame.shape[0] - 1)
    seen = frame[rows, cols].astype(np.float64).mean()
    before = empty[rows, cols].astype(np.float64).mean()
    return bool(seen < SHADE * before)


def _search_size(region: Mask) -> NDArray[np.float32]:
    """The outline at the search's scale (``SEARCH_SCALE``): each pixel the share of it
    inside. Made once per blob, for every direction searched."""
    small = cv2.resize(
        region.astype(np.float32),
        None,
        fx=SEARCH_SCALE,
        fy=SEARCH_SCALE,
        interpolation=cv2.INTER_AREA,
    )
    return np.asarray(small, np.float32)


def _fits(small: NDArray[np.float32], angles: list[float], px_per_mm: float) -> list[_Fits]:
    """Where a stick's rectangle fits in the outline (``small``: at the search size), at
    each of ``angles`` and a little either side."""
    found = []
    for base in angles:
        for step in ANGLE_STEPS_DEG:
            found.extend(_fits_along(small, base + step, px_per_mm))
    return found


def _rest_angle(region: Mask, stick: _Fits, px_per_mm: float) -> float | None:
    """The direction of what the outline holds besides ``stick`` and its shadow, when that
    is as long as a straight stretch that gives an angle (``EDGE_MM``).

    A stick's long side seen ragged (its shadow's edge cut by the bands' shade) gives no
    straight stretch of the outline; the rest of the outline, once the stick found is
    taken away, still lies along it."""
    whole = _whole_stick(stick.middle, px_per_mm)
    around = (whole[1][0] + 2 * BLUR_MM * px_per_mm, whole[1][1] + 2 * BESIDE_MM * px_per_mm)
    rest = region.copy()
    cv2.fillConvexPoly(
        rest, np.round(cv2.boxPoints((whole[0], around, whole[2]))).astype(np.int32), 0
    )
    count, labels, stats, _ = cv2.connectedComponentsWithStats(rest)
    if count < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    points = cv2.findNonZero((labels == largest).astype(np.uint8))
    (_, _), (width, height), angle = cv2.minAreaRect(points)
    if max(width, height) < EDGE_MM * px_per_mm:
        return None
    return float((angle if width >= height else angle + 90.0) % 180.0)


def _edge_angles(contour: NDArray[np.int32], px_per_mm: float) -> list[float]:
    """Directions (degrees, image axes) of the outline's long straight stretches."""
    polygon = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
    angles: list[float] = []
    for start, end in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        dx, dy = end - start
        if np.hypot(dx, dy) < EDGE_MM * px_per_mm:
            continue
        angle = float(np.degrees(np.arctan2(dy, dx)) % 180.0)
        if all(abs((angle - a + 90.0) % 180.0 - 90.0) > 2.0 for a in angles):
            angles.append(angle)
    return angles


def _fits_along(small: NDArray[np.float32], angle: float, px_per_mm: float) -> list[_Fits]:
    """Where a rectangle lying along ``angle`` fits inside the outline, place by place."""
    scale = px_per_mm * SEARCH_SCALE
    kernel = (max(3, round(CORE_MM[0] * scale)), max(3, round(CORE_MM[1] * scale)))
    h, w = small.shape
    side = int(np.hypot(h, w)) + 2
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turn[0, 2] += side / 2 - w / 2
    turn[1, 2] += side / 2 - h / 2
    turned = cv2.warpAffine(small, turn, (side, side), flags=cv2.INTER_LINEAR)
    inside = cv2.boxFilter(turned, -1, kernel, normalize=True, borderType=cv2.BORDER_CONSTANT)
    fitting = (inside >= CORE_FILL).astype(np.uint8)
    count, labels = cv2.connectedComponents(fitting)
    back = cv2.invertAffineTransform(turn)
    size = (CORE_MM[0] * px_per_mm, CORE_MM[1] * px_per_mm)
    found = []
    for label in range(1, count):
        ys, xs = np.nonzero(labels == label)
        turned_points = np.stack([xs, ys, np.ones_like(xs)]).astype(np.float64)
        centres = (back @ turned_points).T / SEARCH_SCALE
        found.append(_Fits(centres, angle, size))
    return found


def _distinct(fits: list[_Fits]) -> list[_Fits]:
    """One set of fits per stick: of the sets that overlap, the one fitting at most places."""
    kept: list[_Fits] = []
    for candidate in sorted(fits, key=lambda f: -len(f.centres)):
        if all(_overlap(candidate.middle, k.middle) < SAME_STICK_OVERLAP for k in kept):
            kept.append(candidate)
    return kept


def _placed_apart(sticks: list[_Fits]) -> list[RotatedRect]:
    """Each stick's rectangle at the place, of those it fits at, farthest from the others."""
    middles = [s.centres.mean(axis=0) for s in sticks]
    placed = []
    for index, stick in enumerate(sticks):
        others = np.asarray([m for k, m in enumerate(middles) if k != index])
        distance = np.linalg.norm(stick.centres[:, None, :] - others[None, :, :], axis=2)
        placed.append(stick.rect(stick.centres[int(distance.min(axis=1).argmax())]))
    return placed


def _overlap(a: RotatedRect, b: RotatedRect) -> float:
    kind, points = cv2.rotatedRectangleIntersection(a, b)
    if kind == cv2.INTERSECT_NONE or points is None:
        return 0.0
    area = cv2.contourArea(cv2.convexHull(points))
    return float(area / min(a[1][0] * a[1][1], b[1][0] * b[1][1]))


def _apart(rects: list[RotatedRect], px_per_mm: float) -> bool:
    corners = [np.asarray(cv2.boxPoints(r), np.float32) for r in rects]
    return all(
        convex_gap(corners[i], corners[j]) >= MIN_GAP_MM * px_per_mm
        for i in range(len(rects))
        for j in range(i + 1, len(rects))
    )


def _explained(region: Mask, sticks: list[_Fits], px_per_mm: float) -> bool:
    """Every pixel of the outline lies near a place where one of the sticks fits. Each
    stick's rectangle is placed apart from the others, to its far end; the stick's near
    end lies within the places it fits at too, and a rectangle placed apart alone left a
    junction of two sticks and their shadows more than ``NEAR_MM`` from it, through a
    lens a little soft and bending (19.2 mm on dev 0046 as shot, 21.5 mm so copied)."""
    cores = np.zeros_like(region)
    for stick in sticks:
        offsets = cv2.boxPoints(stick.rect(np.zeros(2)))
        corners = (stick.centres[:, None, :] + offsets[None, :, :]).reshape(-1, 2)
        hull = cv2.convexHull(corners.astype(np.float32))
        cv2.fillConvexPoly(cores, np.round(hull).astype(np.int32), 1)
    distance = cv2.distanceTransform(1 - cores, cv2.DIST_L2, 3)
    return bool(distance[region > 0].max() <= NEAR_MM * px_per_mm)


def _whole_stick(core: RotatedRect, px_per_mm: float) -> RotatedRect:
    """A stick around its rectangle: as long as a stick with its blurred ends, as wide."""
    size = ((STICK_MM[0] + 4.0) * px_per_mm, STICK_MM[1] * px_per_mm)
    return (core[0], size, core[2])


def _partition(region: Mask, sticks: list[RotatedRect]) -> list[Mask]:
    """The outline's pixels, each given to the stick it lies nearest to.

    The sticks' rectangles are apart (``_apart``), so each is one region of its own for the
    distance transform, which names the nearest region of every pixel."""
    outside = np.ones_like(region)
    for stick in sticks:
        cv2.fillConvexPoly(outside, np.round(cv2.boxPoints(stick)).astype(np.int32), 0)
    _, nearest = cv2.distanceTransformWithLabels(
        outside, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
    )
    parts = []
    for stick in sticks:
        x, y = (
            min(max(0, round(v)), n - 1) for v, n in zip(stick[0], region.shape[::-1], strict=True)
        )
        parts.append(((nearest == nearest[y, x]) & (region > 0)).astype(np.uint8))
    return parts
