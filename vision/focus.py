"""Whether the camera's picture is blurrier than when the tray was calibrated: a lens
turned by a knock, a camera that lost its focus, a film of dust or steam on the lens.

The tray's own edges tell it (the floor's outline, the walls, the rim: strong, and seen in
every frame). On patches of them that no implement covers, the frame is compared with the
empty tray blurred by each of a few amounts, and the empty tray with the frame blurred so;
the blur that matches best one way, less the other's (in quadrature), is how much more
the frame is blurred. Noise in either picture pulls both ways alike, and cancels.

A camera blurred since calibration reads numerals and pips worse than any margin was set
for: with 1.5 px of blur, the dev set's Ur throws read each alone had 58 % of their clean
throws refused and a d4 read wrong (docs/vision-rounds.md, round 34). Such frames are
refused, naming the focus, rather than read.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.observation import Box
from vision.tray import Image, Points

Mask = NDArray[np.uint8]
SharpParts = Callable[[Sequence[Box]], list[tuple[Box, Image]]]

BAND_MM = (8.0, 20.0)  # the band of the tray's edges: inside and outside the floor's outline
PATCH_PX = 32  # working pixels, about 13 mm
MARGIN_PX = 12  # around a patch: the widest blur's reach, so that patches blurred side by side
# in one picture (a column of crops) are each blurred as the picture is
# A patch must hold an edge this steep (grey levels a pixel) to tell a blur: the felt's
# texture alone tells JPEG's loss of fine detail as blur. At 12, 31 of the dev set's 180
# trays (walls as dark as their felt) had too few such patches; at 6, none.
MIN_SLOPE = 6.0
MOST_PATCHES = 16  # the steepest, apart from one another
FEWEST_PATCHES = 5  # clear of implements, for a measure
BLURS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5)  # Gaussian sigmas tried, working pixels
# A frame blurred by this much more than the empty tray is refused (working pixels, about
# 0.5 mm). The dev set's frames measure -0.62 to 0.60, through JPEG 25 up to 0.98; noise
# in the frame measures below 0, but noise in the empty tray alone (a frame averaged, an
# empty tray taken once: hence ``vision.stack.still_average``) above, up to 0.94, 1.10,
# 1.16 and 1.30 with 1.5, 2.5, 3 and 4 grey levels of it. Blurred by 1 px, the dev set's
# frames measure 1.01 to 1.43, by 1.2 px 1.19 to 1.70, by 1.5 px 1.50 and more (round 34).
BLURRED_PX = 1.3


class FocusCheck:
    """The empty tray's edges, ready to tell how much blurrier a frame is (see
    :meth:`extra_blur`)."""

    def __init__(self, empty: Image, floor: Points, px_per_mm: float) -> None:
        grey = _grey(empty)
        self._corners = _edge_patches(grey, floor, px_per_mm)
        crops = [_crop(grey, corner) for corner in self._corners]
        self._empty = _blurred_vectors(np.vstack(crops)) if crops else None

    def extra_blur(
        self, frame: Image, changed: Mask, *, sharp_parts: SharpParts | None = None
    ) -> float | None:
        """How much more the frame (aligned with the empty tray) is blurred than the empty
        tray (working pixels; negative: sharper, or noisier), in the median of the edge
        patches clear of ``changed`` (255 where something lies; of the frame's size or a
        whole fraction of it, its coordinates scaled); None when too few are clear (walls
        as dark as the felt show none). ``sharp_parts``: the patches drawn as the empty
        tray was (a tilted camera's frame is rectified fast, and softer: see
        ``Tray.sharp_parts``), else cut from ``frame``."""
        clear = _clear(self._corners, changed, frame.shape[:2])
        kept = [index for index, keep in enumerate(clear) if keep]
        if self._empty is None or len(kept) < FEWEST_PATCHES:
            return None
        corners = [self._corners[index] for index in kept]
        if sharp_parts is None:
            crops = [_crop(frame, corner) for corner in corners]
        else:
            crops = [part for _, part in sharp_parts([_crop_box(corner) for corner in corners])]
        frame_vectors = _blurred_vectors(_grey(np.vstack(crops)))
        return statistics.median(
            _extra_blur(vectors, self._empty[index])
            for vectors, index in zip(frame_vectors, kept, strict=True)
        )


def _grey(picture: Image) -> NDArray[np.float32]:
    return np.asarray(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), np.float32)


def _edge_patches(
    grey: NDArray[np.float32], floor: Points, px_per_mm: float
) -> list[tuple[int, int]]:
    """The top left corners of the steepest patches of the band round the floor's outline,
    none overlapping another."""
    height, width = grey.shape
    inside, outside = (round(mm * px_per_mm) for mm in BAND_MM)
    floor_mask = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(floor_mask, np.round(floor).astype(np.int32), 255)
    # Square reaches (the floor's sides run nearly along the picture's): a quarter of the
    # time two distance transforms took.
    outer = cv2.dilate(floor_mask, np.ones((2 * outside + 1,) * 2, np.uint8))
    inner = cv2.erode(floor_mask, np.ones((2 * inside + 1,) * 2, np.uint8))
    band = np.asarray((outer > 0) & (inner == 0), np.uint8)
    slope = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)) / 8
    # At (y, x), of the patch whose top left corner it is: all in the band, its steepest.
    square, corner = np.ones((PATCH_PX, PATCH_PX), np.uint8), (0, 0)
    in_band = cv2.erode(band, square, anchor=corner, borderValue=0)
    steepest = cv2.dilate(slope, square, anchor=corner)
    reach = PATCH_PX + MARGIN_PX
    ys, xs = np.mgrid[
        MARGIN_PX : height - reach : PATCH_PX // 2, MARGIN_PX : width - reach : PATCH_PX // 2
    ]
    kept = (in_band[ys, xs] > 0) & (steepest[ys, xs] >= MIN_SLOPE)
    candidates = sorted(
        zip(steepest[ys, xs][kept].tolist(), xs[kept].tolist(), ys[kept].tolist(), strict=True),
        reverse=True,
    )
    return _spread([(x, y) for _, x, y in candidates], floor)


def _spread(candidates: list[tuple[int, int]], floor: Points) -> list[tuple[int, int]]:
    """Up to :data:`MOST_PATCHES` of the candidates (steepest first), none overlapping
    another, taken from the floor's four sides in turn: an implement against one wall, or
    the light across it, leaves the others to tell."""
    middle = floor.mean(axis=0)
    half = np.maximum((floor.max(axis=0) - floor.min(axis=0)) / 2, 1.0)
    sides: dict[tuple[int, bool], list[tuple[int, int]]] = {}
    for x, y in candidates:
        towards = (np.array([x, y], np.float64) + PATCH_PX / 2 - middle) / half
        axis = int(abs(towards[1]) > abs(towards[0]))
        sides.setdefault((axis, bool(towards[axis] > 0)), []).append((x, y))
    chosen: list[tuple[int, int]] = []
    queues = list(sides.values())
    while queues and len(chosen) < MOST_PATCHES:
        for queue in queues:
            while queue:
                x, y = queue.pop(0)
                if all(abs(x - a) >= PATCH_PX or abs(y - b) >= PATCH_PX for a, b in chosen):
                    chosen.append((x, y))
                    break
        queues = [queue for queue in queues if queue]
    return chosen[:MOST_PATCHES]


def _crop_box(corner: tuple[int, int]) -> Box:
    x, y = corner
    side = PATCH_PX + 2 * MARGIN_PX
    return Box(x - MARGIN_PX, y - MARGIN_PX, x - MARGIN_PX + side, y - MARGIN_PX + side)


def _crop(picture: NDArray[Any], corner: tuple[int, int]) -> NDArray[Any]:
    x, y = corner
    side = PATCH_PX + 2 * MARGIN_PX
    return picture[y - MARGIN_PX : y - MARGIN_PX + side, x - MARGIN_PX : x - MARGIN_PX + side]


def _blurred_vectors(column: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per crop of a column of them (grey), its patch blurred by each of :data:`BLURS`,
    each zero-mean and of unit norm: (crops, blurs, pixels). The column is blurred whole,
    at one call per blur: the crops' margins keep each patch to its own crop."""
    side = PATCH_PX + 2 * MARGIN_PX
    count = column.shape[0] // side
    rows = []
    for sigma in BLURS:
        blurred = cv2.GaussianBlur(column, (0, 0), sigma) if sigma > 0 else column
        patches = blurred.reshape(count, side, side)[
            :, MARGIN_PX : MARGIN_PX + PATCH_PX, MARGIN_PX : MARGIN_PX + PATCH_PX
        ]
        rows.append(patches.reshape(count, -1))
    vectors = np.stack(rows, axis=1)
    vectors = vectors - vectors.mean(axis=2, keepdims=True)
    norms = np.maximum(np.linalg.norm(vectors, axis=2, keepdims=True), 1e-6)
    return np.asarray(vectors / norms, np.float32)


def _extra_blur(frame: NDArray[np.float32], empty: NDArray[np.float32]) -> float:
    """How much more one patch of the frame is blurred than the empty tray's: the blur of
    the empty tray that matches the frame best, and the reverse, in quadrature."""
    frame_sharp, empty_sharp = frame[0], empty[0]
    onto_frame = _best_blur(empty @ frame_sharp)
    onto_empty = _best_blur(frame @ empty_sharp)
    difference = onto_frame**2 - onto_empty**2
    return float(np.sign(difference) * np.sqrt(abs(difference)))


def _best_blur(matches: NDArray[np.float32]) -> float:
    """The blur (of :data:`BLURS`) at which ``matches`` peak, between the steps by a
    parabola through the peak and its neighbours."""
    best = int(np.argmax(matches))
    if best == 0 or best == len(BLURS) - 1:
        return BLURS[best]
    before, peak, after = (float(m) for m in matches[best - 1 : best + 2])
    curvature = before - 2 * peak + after
    offset = 0.5 * (before - after) / curvature if curvature < 0 else 0.0
    return BLURS[best] + offset * (BLURS[best + 1] - BLURS[best])


def _clear(corners: list[tuple[int, int]], changed: Mask, shape: tuple[int, ...]) -> list[bool]:
    """Which patches no change reaches (a change's blurred rim included)."""
    height, width = shape[0], shape[1]
    scale_y, scale_x = changed.shape[0] / height, changed.shape[1] / width
    clear = []
    for x, y in corners:
        x0, y0 = int((x - MARGIN_PX) * scale_x), int((y - MARGIN_PX) * scale_y)
        x1 = int(np.ceil((x + PATCH_PX + MARGIN_PX) * scale_x))
        y1 = int(np.ceil((y + PATCH_PX + MARGIN_PX) * scale_y))
        clear.append(not changed[max(0, y0) : y1, max(0, x0) : x1].any())
    return clear
