"""Where a tetrahedral die (d4) lying on a face is in the picture: its base triangle on the
floor and its top point, and each visible face turned back into an upright triangle.

The camera looks straight down, so the base (on the floor) is an equilateral triangle in
the picture; the top point stands ``edge * sqrt(2/3)`` above the base's centre and appears
moved away from the picture's centre by perspective (``Tray.lift``). Each side face is then
the picture of a flat equilateral triangle: an affine map through its three corners undoes
the squeeze of a face seen aslant.

The die is fitted to the picture as three faces of even colours over the floor: the base
triangle (centre, turn, edge) and a small correction of the top point are moved until the
colour inside each face, and around the die, is as even as it gets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.segment import Blob
from vision.tray import Image, Tray

APEX_RATIO = float(np.sqrt(2.0 / 3.0))  # height of the top point / edge
APEX_FREEDOM_MM = 3.0  # how far the top point may move from where perspective puts it
MARGIN_MM = 3.5  # floor kept around the die for the fit
FIT_SCALE = 0.5  # the fit ends on a half-size crop
COARSE_SCALE = 0.25  # and starts on a quarter-size one
CANONICAL_EDGE = 72  # pixels of a rectified face's side
# Evaluations per search (each about 30 us): a bound on the time a die may take.
COARSE_EVALUATIONS = 60
FINE_EVALUATIONS = 60

Points = NDArray[np.float64]


@dataclass(frozen=True)
class Tetra:
    """A d4 in the picture: base corners (counter-clockwise on screen) and the top point."""

    base: Points  # (3, 2) full-frame pixels
    apex: Points  # (2,)

    def faces(self) -> list[tuple[int, int]]:
        """Visible faces as (i, j): the face through the top point and base corners i, j,
        ordered so that (apex, base[i], base[j]) turns the same way as the canonical face."""
        seen = []
        for i in range(3):
            j = (i + 1) % 3
            if _turn(self.apex, self.base[i], self.base[j]) > 0:
                # The canonical face turns the other way: j before i keeps the numerals
                # as printed, not mirrored.
                seen.append((j, i))
        return seen

    def face_share(self, face: tuple[int, int]) -> float:
        """The face's area in the picture over the base's: 1/3 for a face seen from straight
        above the die; much less for a face seen nearly edge on."""
        i, j = face
        base_area = abs(_turn(*self.base)) / 2
        return abs(_turn(self.apex, self.base[i], self.base[j])) / 2 / max(base_area, 1e-9)


def _turn(a: Points, b: Points, c: Points) -> float:
    """Twice the signed area of the triangle a, b, c (positive: clockwise on screen)."""
    return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def canonical_triangle() -> NDArray[np.float32]:
    """The upright face: top point, lower left, lower right, in a CANONICAL_EDGE square."""
    e = CANONICAL_EDGE
    height = e * np.sqrt(3) / 2
    top = (e / 2, (e - height) / 2)
    return np.asarray([top, (0, top[1] + height), (e, top[1] + height)], np.float32)


_THIRDS = np.array([0.0, 2 * np.pi / 3, 4 * np.pi / 3])


def _equilateral(x: float, y: float, angle: float, edge: float) -> Points:
    """Corners at growing angles: a positive turn on screen (y down) for every die."""
    radius = edge / np.sqrt(3)
    turns = angle + _THIRDS
    return np.stack([x + radius * np.cos(turns), y + radius * np.sin(turns)], axis=1)


class _Model:
    """The picture of a d4 for one set of parameters, scored against a crop: the colour
    left unexplained inside each face and around the die, plus the floor counted as die and
    the die counted as floor (by the crop's change from the empty tray, which a shadow
    does not make)."""

    def __init__(
        self, crop: NDArray[np.float32], change: NDArray[np.float32], offset: Points, scale: float
    ) -> None:
        self.shape = crop.shape[:2]
        pixels = crop.reshape(-1, 3).astype(np.float64)
        changed = change.reshape(-1, 1).astype(np.float64)
        ones = np.ones_like(changed)
        # Per pixel: count, colour, squared colour, change: each summed per region.
        columns = np.hstack([ones, pixels, (pixels**2).sum(axis=1, keepdims=True), changed])
        self.offset = offset
        self.scale = scale
        spread = float(columns[:, 4].sum() - (pixels.sum(axis=0) ** 2).sum() / len(pixels))
        self.total = max(spread, 1e-9)
        self.pixels = len(pixels)
        self.by_column = [np.ascontiguousarray(columns[:, k]) for k in range(6)]
        self.change_total = float(changed.sum())

    def labels(self, base: Points, apex: Points) -> NDArray[np.uint8]:
        canvas = np.zeros(self.shape, np.uint8)
        factor = self.scale * 16  # fillConvexPoly's 4 fractional bits
        ox, oy = float(self.offset[0]), float(self.offset[1])
        points = [
            (int((x - ox) * factor), int((y - oy) * factor))
            for x, y in (*base.tolist(), apex.tolist())
        ]
        top = points[3]
        for label, (i, j) in enumerate(((0, 1), (1, 2), (2, 0)), start=1):
            b, c = points[i], points[j]
            if (b[0] - top[0]) * (c[1] - top[1]) - (b[1] - top[1]) * (c[0] - top[0]) > 0:
                polygon = np.array([top, b, c], np.int32)
                cv2.fillConvexPoly(canvas, polygon, label, cv2.LINE_8, 4)
        return canvas

    def unexplained(self, base: Points, apex: Points) -> float:
        labels = self.labels(base, apex).ravel()
        count = np.bincount(labels, minlength=4).tolist()
        sums: list[list[float]] = [
            np.bincount(labels, column, minlength=4).tolist() for column in self.by_column[1:]
        ]
        light, red, yellow, squares, change = sums
        spread = 0.0
        for k in range(4):
            if count[k] > 0:
                spread += squares[k] - (light[k] ** 2 + red[k] ** 2 + yellow[k] ** 2) / count[k]
        inside = self.pixels - count[0]
        misplaced = change[0] + inside - (self.change_total - change[0])
        return float(spread / self.total + SILHOUETTE_WEIGHT * misplaced / self.pixels)


def _change(crop: Image, empty: Image) -> NDArray[np.float32]:
    """0 where the crop looks like the empty tray (or its shadow), 1 where it does not."""
    ratio = np.log(crop.astype(np.float32) + 25.0) - np.log(empty.astype(np.float32) + 25.0)
    ratio -= np.median(ratio.reshape(-1, 3), axis=0)
    brightness = ratio.mean(axis=2)
    hue = np.abs(ratio - brightness[..., None]).max(axis=2)
    evidence = np.maximum(hue / HUE_CHANGE, np.maximum(brightness / LIGHTER, brightness / DARKER))
    return np.asarray(np.clip(evidence - 0.0, 0.0, 1.0), np.float32)


HUE_CHANGE = 0.10
LIGHTER = 0.2
DARKER = -1.0
SILHOUETTE_WEIGHT = 1.0


def fit_tetra(frame: Image, blob: Blob, tray: Tray) -> Tetra:
    """The d4's base and top point that best explain the picture around ``blob``."""
    px_per_mm = tray.px_per_mm
    margin = round(MARGIN_MM * px_per_mm)
    x0, y0 = max(0, blob.box.x0 - margin), max(0, blob.box.y0 - margin)
    x1 = min(frame.shape[1], blob.box.x1 + margin)
    y1 = min(frame.shape[0], blob.box.y1 + margin)

    def model_at(scale: float) -> _Model:
        def shrunk(image: Image) -> Image:
            small = cv2.resize(
                image[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
            )
            return np.asarray(small, np.uint8)

        crop = shrunk(frame)
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
        return _Model(lab, _change(crop, shrunk(tray.empty)), np.array([x0, y0], np.float64), scale)

    coarse, fine = model_at(COARSE_SCALE), model_at(FIT_SCALE)
    _, triangle = cv2.minEnclosingTriangle(blob.contour.astype(np.float32))
    corners = triangle.reshape(3, 2).astype(np.float64)
    centre = corners.mean(axis=0)
    edge = float(np.mean([np.hypot(*(corners[i] - corners[i - 1])) for i in range(3)]))
    first = corners[0] - centre
    angle = float(np.arctan2(first[1], first[0]))

    def shape(params: NDArray[np.float64]) -> tuple[Points, Points]:
        x, y, turn, size = (float(v) for v in params[:4])
        base = _equilateral(x, y, turn, size)
        lift_x, lift_y = tray.lift(x, y, size / px_per_mm * APEX_RATIO)
        return base, np.array([x + lift_x + params[4], y + lift_y + params[5]])

    def cost_with(model: _Model) -> Callable[[NDArray[np.float64]], float]:
        def cost(params: NDArray[np.float64]) -> float:
            freedom = float(np.hypot(params[4], params[5])) / px_per_mm
            if freedom > APEX_FREEDOM_MM or params[3] <= 0:
                return np.inf
            return model.unexplained(*shape(params))

        return cost

    steps = np.array([2.0, 2.0, np.radians(4), 2.0, 1.5, 1.5])
    best: tuple[NDArray[np.float64], float] | None = None
    for size in (edge, 0.85 * edge):  # the outline may hold some shadow
        start = np.array([centre[0], centre[1], angle, size, 0.0, 0.0])
        # First the base alone, the top point where perspective puts it.
        params, error = _pattern_search(
            cost_with(coarse), start, steps[:4], 1.0, COARSE_EVALUATIONS
        )
        if best is None or error < best[1]:
            best = (params, error)
    assert best is not None
    params, _ = _pattern_search(cost_with(fine), best[0], steps / 4, 0.25, FINE_EVALUATIONS)
    return Tetra(*shape(params))


def _pattern_search(
    cost: Callable[[NDArray[np.float64]], float],
    start: NDArray[np.float64],
    steps: NDArray[np.float64],
    smallest: float,
    most: int,
) -> tuple[NDArray[np.float64], float]:
    """Coordinate search with halving steps: few evaluations, no derivatives needed."""
    best, best_cost = start.copy(), cost(start)
    steps = steps.copy()
    evaluations = 0
    while steps[0] >= smallest and evaluations < most:
        moved = False
        for k in range(len(steps)):  # the parameters searched: the first ones
            for sign in (1.0, -1.0):
                trial = best.copy()
                trial[k] += sign * steps[k]
                value = cost(trial)
                evaluations += 1
                if value < best_cost:
                    best, best_cost, moved = trial, value, True
                    break
        if not moved:
            steps /= 2
    return best, best_cost


def rectified_patch(
    frame_channel: NDArray[np.float32],
    corners: tuple[Points, Points, Points],
    centre: tuple[float, float],
    span: float,
    size: int,
) -> tuple[NDArray[np.float32], NDArray[np.float64]]:
    """A ``size`` square of the face through ``corners`` (top, lower left, lower right, in
    the picture) as it would look seen square on, ``centre`` and ``span`` in canonical face
    pixels; and how much the picture's own blur (one picture pixel) blurs it: a covariance
    in patch pixels, wide along the directions the face is squeezed in."""
    canonical = canonical_triangle()
    to_image = cv2.getAffineTransform(canonical, np.asarray(corners, np.float32))
    step = span / size
    from_patch = np.array(
        [
            [step, 0.0, centre[0] - span / 2 + step / 2],
            [0.0, step, centre[1] - span / 2 + step / 2],
            [0.0, 0.0, 1.0],
        ]
    )
    matrix = (np.vstack([to_image, [0.0, 0.0, 1.0]]) @ from_patch)[:2]
    patch = cv2.warpAffine(
        frame_channel,
        matrix,
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    linear = matrix[:, :2]  # picture pixels per patch pixel
    blur = np.linalg.inv(linear.T @ linear + 1e-9 * np.eye(2))
    return np.asarray(patch, np.float32), blur
