"""Where a tetrahedral die (d4) lying on a face is in the picture: its base triangle on the
floor and its top point, and each visible face turned back into an upright triangle.

The camera looks straight down, so the base (on the floor) is an equilateral triangle in
the picture; the top point stands ``edge * sqrt(2/3)`` above the base's centre and appears
moved away from the picture's centre by perspective (``Tray.lift``). Each side face is then
the picture of a flat equilateral triangle: an affine map through its three corners undoes
the squeeze of a face seen aslant.

The die is fitted to the picture as three faces of even colours over the floor: the base
triangle (centre, turn, edge) and a small correction of the top point are moved until the
colour inside each face, and around the die, is as even as it gets. Each face's colour sums
are read along its three edges from running sums down the picture's columns, so a trial
die costs its outline rather than its area and the fit ends on the picture's own pixels,
moving the corners by fractions of a pixel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.segment import Blob, Foreground, byte_median, change_from_empty, log_picture
from vision.tray import Image, Tray

APEX_RATIO = float(np.sqrt(2.0 / 3.0))  # height of the top point / edge
APEX_FREEDOM_MM = 3.0  # how far the top point may move from where perspective puts it
# The top point's place is known from the base and the camera's height to about a millimetre
# (camera height, scale, tilt): moving it away costs this much per mm squared, so that faces
# of like colours, which hardly tell where their common corner is, leave it there.
APEX_PRIOR = 0.005
MARGIN_MM = 3.5  # floor kept around the die for the fit
FIT_SCALE = 1.0  # the fit ends on the picture's own pixels
# ... but a binary d4's on a half-size crop: it is read by its tips, a fifth of an edge each,
# not by numerals a few pixels high, and a throw has four to fit. (Generated seeds 0-99,
# ``python -m benchmarks.d4_fit``: binary d4s slipped 1.3 % (1.5 % fitted at full size),
# median error 0.64 mm (0.56). Binary-d4 throws of seeds 501-507, 510 and 511: 33 clean
# throws refused, as before; none read wrong. With PAINTED_FINE_ROUNDS, the benchmark's
# slowest reading, four binary d4s, took 26.5-27.6 ms, 29.8-31.5 before, side by side.)
PAINTED_FIT_SCALE = 0.5
COARSE_SCALE = 0.25  # and starts on a quarter-size crop
CANONICAL_EDGE = 72  # pixels of a rectified face's side
# A rectified patch whose pixel spans more picture pixels than this (a die seen in a camera's
# picture of more pixels than the working one) is sampled finer and averaged: sampled at its
# pixels' centres alone, a numeral's strokes would alias. (The working picture's d4s of up
# to about 35 mm span less.)
AREA_SAMPLED_ABOVE = 1.5
# Rounds of each search (a round scores 12 to 32 dice at once): a bound on a die's time.
COARSE_ROUNDS = 20
FINE_ROUNDS = 12
# A binary d4's (on the half-size crop), and its fit again at its set's size: a throw
# fits four, and the slowest of them sets the rounds of all. (Seeds 0-99: the same dice
# slipped as with 12, 1.3 %; binary-d4 throws of seeds 501-504, 510 and 511: the same
# outcomes. With 6, one die of the fit test's grew from 0.98 to 1.07 mm off.)
PAINTED_FINE_ROUNDS = 8
# Each search ends once its steps of the centre are below this (pixels of the frame).
COARSE_SMALLEST = 1.0
FINE_SMALLEST = 0.12
# The weight of the floor counted as die and the die as floor, beside the colours left
# unexplained. A binary d4's painted tips do not count in its faces' evenness (see
# _unpainted), so its faces place its corners less and its outline must place them more:
# twice the weight. (Generated seeds 0-99, ``python -m benchmarks.d4_fit``: binary d4s
# fitted with a worst point over 1 mm, 4.5 % at 1, 2.5 % at 1.5, 1.5 % at 2, 3.7 % at 3;
# numbered d4s, whose fit the numerals need to a fraction of a millimetre, stay at 1:
# at 2 their median error grew from 0.53 to 0.61 mm.)
SILHOUETTE_WEIGHT = 1.0
PAINTED_SILHOUETTE_WEIGHT = 2.0
# The dice of a set (a throw's binary d4s) are alike: a die fitted over 4 % larger or
# smaller than the median of the throw's is fitted again at that size, a departure from it
# costing SET_SIZE_PRIOR times its log squared, and kept so if that explains its picture
# within 5 % as well: a fit grown into the die's shadow, or one of a die found in part.
# A die fitted over 15 % off (log 0.14) is not one of the set seen a little off but
# something else (a die resting on an edge, fitted at the set's size, was read). On
# binary-d4 throws of seeds 501-504, 31 clean throws refused became 26 (none became a
# refusal; 0.025 instead of 0.04: 28, two new ones); without the 15 % and 5 % bounds, 16
# throws with a die on an edge were read.
SET_SIZE_PRIOR = 10.0
SET_SIZE_TOLERANCE = 0.04
SET_SIZE_REACH = 0.14
SET_SIZE_COST = 0.05
SET_SIZE_FEWEST = 3  # dice: the median of fewer is no set's size

Points = NDArray[np.float64]


@dataclass(frozen=True)
class Tetra:
    """A d4 in the picture: base corners (clockwise on screen, as seen from above) and the top
    point."""

    base: Points  # (3, 2) full-frame pixels
    apex: Points  # (2,)
    # Fitted at its set's size (see ``fit_tetras``, ``alike``): a die seen in part, or
    # resting cocked, is fitted larger or smaller than the other dice of its throw.
    of_set: bool = False

    @property
    def edge(self) -> float:
        """The base's mean side, pixels."""
        return float(np.mean([np.hypot(*(self.base[i] - self.base[i - 1])) for i in range(3)]))

    def bounds(self, margin: int) -> tuple[int, int, int, int]:
        """The pixels round the die, ``margin`` more on each side: x0, y0 (clipped at 0),
        x1, y1 (past the last), to cut the die out of a frame."""
        corners = np.vstack([self.base, self.apex[None]])
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - margin, 0)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + margin + 1
        return int(x0), int(y0), int(x1), int(y1)

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

    def placed(self, where: Callable[[Points], Points]) -> Tetra:
        """The die where ``where`` takes points (n, 2) of its picture: a die of the working
        picture in the camera's own, say."""
        corners = where(np.vstack([self.base, self.apex[None]]))
        return Tetra(corners[:3], corners[3], self.of_set)

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


# A base's corners at growing angles: a positive turn on screen (y down) for every die.
_THIRDS = np.array([0.0, 2 * np.pi / 3, 4 * np.pi / 3])
_SQRT3 = float(np.sqrt(3))


class _Model:
    """The picture of d4s for sets of parameters, scored against their crops: the colour
    left unexplained inside each face and around the die (of the pixels whose colour
    counts: not paint), plus the floor counted as die and the die counted as floor (by the
    crop's change from the empty tray, which a shadow does not make).

    A region's sums are read along its outline from per-column running sums (Green's
    theorem on the pixel grid: exact coverage along each column, column centres across),
    so an evaluation costs the faces' edges, not their areas, and the score moves smoothly
    with the corners instead of by whole pixels.

    The crops of all the dice of a throw are held side by side and trial dice of any of
    them are scored in one batch: a batch's numpy calls cost more than its arithmetic.
    """

    def __init__(
        self,
        crops: Sequence[_Crop],
        scale: float,
        silhouette: float = SILHOUETTE_WEIGHT,
    ) -> None:
        self.silhouette = silhouette  # weighs the floor counted as die and the die as floor
        sizes = [crop.colours.shape[:2] for crop in crops]
        self.rows = np.array([rows for rows, _ in sizes], np.int64)
        self.columns = np.array([columns for _, columns in sizes], np.int64)
        # Each crop's table (two rows of nothing below, as reading at the very bottom needs
        # a row below) starts after the one before.
        cells = (self.rows + 2) * self.columns
        self.origin = np.concatenate([[0], np.cumsum(cells)[:-1]])
        self.running = np.zeros((int(cells.sum()), _COLUMNS))
        # What each row adds: the running sums between two rows, read at a fraction.
        self.values = np.zeros_like(self.running)
        self.totals = np.array(
            [
                _running_sums(
                    crop, self.running[start : start + size], self.values[start : start + size]
                )
                for crop, start, size in zip(crops, self.origin, cells, strict=True)
            ]
        )
        offsets = np.array([crop.offset for crop in crops], np.float64)
        self.corner_shift = offsets - 0.5  # see unexplained
        self.scale = scale
        sums = self.totals
        spread = sums[:, 4] - (sums[:, 1:4] ** 2).sum(axis=1) / np.maximum(sums[:, 6], 1e-9)
        self.total = np.maximum(spread, 1e-9)

    def unexplained(
        self, die: NDArray[np.int64], base: Points, apex: Points
    ) -> NDArray[np.float64]:
        """The cost of each trial die (``base`` (n, 3, 2), ``apex`` (n, 2), full-frame
        pixels) against the crop of ``die`` (n,)."""
        corners = np.concatenate([apex[:, None], base], axis=1)  # top point, base 0, 1, 2
        # Picture pixels are centred on whole coordinates; here pixel i spans [i, i + 1).
        corners -= self.corner_shift[die][:, None]
        corners *= self.scale
        # Each face (top point, base i, base i+1) is bounded by the ridges to base i and
        # base i+1 and by base edge i: six edges per die, each read once.
        starts, ends = corners[:, _EDGE_STARTS], corners[:, _EDGE_ENDS]
        edges = self._edge_sums(np.repeat(die, 6), starts.reshape(-1, 2), ends.reshape(-1, 2))
        edges = edges.reshape(len(die), 6, _COLUMNS)
        ridges, sides = edges[:, :3], edges[:, 3:]
        faces = ridges + sides - ridges[:, _NEXT]
        # A face is seen when it turns the positive way on screen.
        turns = _turns(starts[:, :3], ends[:, :3], ends[:, 3:])
        seen = turns > 0
        faces *= seen[..., None]
        totals = self.totals[die]
        outside = totals - faces.sum(axis=1)
        weights = faces[..., 6]  # the pixels whose colour counts: not paint
        colour = (faces[..., 1:4] ** 2).sum(axis=2) / np.maximum(weights, 1e-9)
        colour *= weights > 1e-6
        # The faces by their colours' evenness, the floor round them by its distance from
        # the empty tray in any shade (``_unlike_floor``): a shadow reaching the die does
        # not make the floor beside it look like more die.
        spread = (faces[..., 4] - colour).sum(axis=1) + SHADED_FLOOR_WEIGHT * outside[:, 7]
        inside = totals[:, 0] - outside[:, 0]
        # The crop holds the whole blob and floor around it: a die reaching past the crop
        # covers floor there.
        beyond = np.maximum((turns * seen).sum(axis=1) / 2 - inside, 0.0)
        misplaced = outside[:, 5] + inside - (totals[:, 5] - outside[:, 5]) + beyond
        return np.asarray(
            spread / self.total[die] + self.silhouette * misplaced / totals[:, 0], np.float64
        )

    def _edge_sums(
        self, die: NDArray[np.int64], starts: Points, ends: Points
    ) -> NDArray[np.float64]:
        """Per directed edge (in the crop of ``die``), its part of the sums of a region it
        bounds (Green's theorem, y down: a region turning the positive way is the sum over
        its edges); a region's edges' parts add up to the sums of the per-pixel values
        inside it."""
        xa, ya = starts.T
        xb, yb = ends.T
        columns = self.columns[die]
        # The columns whose centres an edge passes over: first to last (past the end).
        first = np.ceil(np.minimum(xa, xb) - 0.5).clip(0, columns).astype(np.int64)
        last = np.ceil(np.maximum(xa, xb) - 0.5).clip(0, columns).astype(np.int64)
        spans = last - first
        total = int(spans.sum())
        opening = np.cumsum(spans) - spans
        edge = np.repeat(np.arange(len(spans)), spans)
        column = np.arange(total) + (first - opening)[edge]
        run = xb - xa
        slope = (yb - ya) / (run + (run == 0))  # a vertical edge spans no column
        level = ya + (0.5 - xa) * slope  # the edge's height at column 0's centre
        y = (level[edge] + column * slope[edge]).clip(0.0, self.rows[die][edge])
        row = y.astype(np.int64)  # y >= 0: truncation is the floor
        at = self.origin[die][edge] + row * columns[edge] + column
        # np.add.reduceat sums each edge's reads from its opening to the next edge's; an edge
        # over no column (its opening may be past the last read: hence a row of zeros
        # there) gets one read, zeroed below.
        read = np.zeros((total + 1, _COLUMNS))
        # Every index is in range (rows and columns clipped above); with mode "raise",
        # numpy copies through a buffer into ``out``, which doubled this read's time.
        np.take(self.running, at, axis=0, out=read[:total], mode="clip")
        between = np.take(self.values, at, axis=0)
        between *= (y - row)[:, None]
        read[:total] += between
        sums = np.add.reduceat(read, opening, axis=0)
        # Each column is added along an edge going left, taken away along one going right.
        sums *= ((xb < xa) * 2.0 - 1.0)[:, None] * (spans > 0)[:, None]
        return np.asarray(sums, np.float64)


def _running_sums(
    crop: _Crop, running: NDArray[np.float64], values: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Fills in, per pixel (row by row, flattened; two rows of nothing below), its values
    (count, colour and squared colour by the colour's weight, change, the weight, its
    distance from the floor in any shade) and the
    sums of the pixels above it in its column; returns the whole crop's sums."""
    rows, columns = crop.colours.shape[:2]
    each = values.reshape(rows + 2, columns, _COLUMNS)
    colour = each[:rows, :, 1:4]
    colour[...] = crop.colours
    each[:rows, :, 0] = 1.0
    each[:rows, :, 4] = np.einsum("ijk,ijk->ij", colour, colour)
    each[:rows, :, 5] = crop.change
    each[:rows, :, 6] = 1.0 if crop.weight is None else crop.weight
    each[:rows, :, 7] = crop.unlike_floor
    if crop.weight is not None:
        each[:rows, :, 1:5] *= crop.weight[..., None]
    # Row by row: numpy's cumsum down the first axis took twice as long.
    above = running.reshape(rows + 2, columns, _COLUMNS)
    for row in range(rows + 1):
        np.add(above[row], each[row], out=above[row + 1])
    return np.asarray(above[rows + 1].sum(axis=0), np.float64)  # the columns' sums, added


_NEXT = np.array([1, 2, 0])
_EDGE_STARTS = np.array([0, 0, 0, 1, 2, 3])  # ridges from the top point, then base edges
_EDGE_ENDS = np.array([1, 2, 3, 2, 3, 1])
_COLUMNS = 8


def _turns(a: Points, b: Points, c: Points) -> NDArray[np.float64]:
    """:func:`_turn` of many triangles at once (points in the last axis)."""
    ab, ac = b - a, c - a
    return np.asarray(ab[..., 0] * ac[..., 1] - ab[..., 1] * ac[..., 0], np.float64)


def _change(crop: Image, empty: Image) -> NDArray[np.float32]:
    """0 where the crop looks like the empty tray (or its shadow), 1 where it does not: as
    the foreground's measure, but graded rather than cut at a threshold."""
    brightness, hue = change_from_empty(log_picture(crop), log_picture(empty))
    evidence = np.maximum(hue / HUE_CHANGE, np.maximum(brightness / LIGHTER, brightness / DARKER))
    return np.asarray(np.clip(evidence, 0.0, 1.0), np.float32)


HUE_CHANGE = 0.10
LIGHTER = 0.2
DARKER = -1.0


@dataclass(frozen=True)
class _Crop:
    """A die's part of the picture: its pixels in Lab, their change from the empty tray
    (graded, and as a colour distance from the floor in any shade), and where the crop's
    first pixel is in the frame."""

    colours: NDArray[np.float32]
    change: NDArray[np.float32]
    unlike_floor: NDArray[np.float32]
    offset: tuple[float, float]
    weight: NDArray[np.float32] | None = None  # how much each pixel's colour counts (1)

    def shrunk(self, scale: float) -> _Crop:
        if scale == 1.0:
            return self

        def shrink(image: NDArray[np.float32]) -> NDArray[np.float32]:
            small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            return np.asarray(small, np.float32)

        weight = None if self.weight is None else shrink(self.weight)
        return _Crop(
            shrink(self.colours),
            shrink(self.change),
            shrink(self.unlike_floor),
            self.offset,
            weight,
        )


def _crop(frame: Image, blob: Blob, tray: Tray, painted: bool = False) -> _Crop:
    margin = round(MARGIN_MM * tray.px_per_mm)
    x0, y0 = max(0, blob.box.x0 - margin), max(0, blob.box.y0 - margin)
    x1 = min(frame.shape[1], blob.box.x1 + margin)
    y1 = min(frame.shape[0], blob.box.y1 + margin)
    crop = frame[y0:y1, x0:x1]
    lab_bytes = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB), np.uint8)
    lab = lab_bytes.astype(np.float32)
    empty = tray.empty[y0:y1, x0:x1]
    change = _change(crop, empty)
    empty_lab = cv2.cvtColor(empty, cv2.COLOR_BGR2LAB).astype(np.float32)
    unlike_floor = _unlike_floor(lab, empty_lab)
    weight = _unpainted(lab_bytes, blob, (x0, y0)) if painted else None
    return _Crop(lab, change, unlike_floor, (float(x0), float(y0)), weight)


# A shadow on the floor beside a die darkens it, and light bounced off the die brightens it a
# little: the floor is the empty tray's colour times a shade in this range. (A black die on
# grey felt, shaded down to 0, was fitted 24 % small: the die is then floor in shadow.)
SHADE_DARKEST = 0.75
SHADE_LIGHTEST = 1.05
# The floor's distance from the empty tray counted beside the faces' unevenness. (Dev set:
# at 2, fewer clean throws refused, 9.2 % against 12.2 %, but the fit of generated dice
# slipped more, 8.8 % of numbered d4s against 1.2 %.) Binary d4s are fitted so too: with the
# floor scored by its evenness, as before, a shadow that reaches the die (generated seeds
# 501, 502, 505, 506, as the generator draws shadows since round 41) drew their fits off
# it and 18.7-19.9 % of their clean throws were refused, 1.0-2.4 % so (with the shadows
# banded, as it drew them before: seeds 503, 504, 1.0 and 0.9 % before, 1.6 and 0.0 % so).
SHADED_FLOOR_WEIGHT = 1.0
# Byte Lab's black: less it, black is 0 in every channel and a shade scales all three (L
# from 16 below its zero, as Lab's lightness is 116 Y^(1/3) - 16; a and b about 128).
LAB_BLACK = np.array([-16 * 255 / 100, 128.0, 128.0], np.float32)


def _unlike_floor(lab: NDArray[np.float32], empty_lab: NDArray[np.float32]) -> NDArray[np.float32]:
    """Per pixel, its squared Lab distance from the empty tray's colour there in the shade
    nearest it (``SHADE_DARKEST`` to ``SHADE_LIGHTEST``): near 0 for floor lit or shaded,
    large for a die. Unlike the colours' evenness, a shadow reaching the die does not make
    the floor beside it look like more die."""
    seen = lab - LAB_BLACK
    floor = empty_lab - LAB_BLACK
    along = np.einsum("ijk,ijk->ij", seen, floor) / np.maximum(
        np.einsum("ijk,ijk->ij", floor, floor), 1e-6
    )
    shaded = floor * np.clip(along, SHADE_DARKEST, SHADE_LIGHTEST)[..., None]
    residual = seen - shaded
    return np.asarray(np.einsum("ijk,ijk->ij", residual, residual), np.float32)


# Lab distance from the die's typical pixel beyond which a pixel of the die is paint, not
# a face in another light: a face's shades stay nearer. (Binary d4s of generated seed 11:
# 60 refused 25 of 81 clean throws, 90 and 110 about 8, 140 16.)
PAINT_DISTANCE = 100.0


def _unpainted(lab: Image, blob: Blob, origin: tuple[int, int]) -> NDArray[np.float32]:
    """1 for the pixels of the crop whose colour counts in a face's evenness, 0 for paint:
    within the blob, far in colour from the die's typical pixel. A tip painted a third of
    the way along its edges would otherwise turn or shrink the fitted faces to leave it
    out. ``lab``: the crop in Lab, bytes (its median from histograms: a third of the time)."""
    inside = np.zeros(lab.shape[:2], np.uint8)
    cv2.drawContours(inside, [blob.contour - np.array(origin)], -1, 1, -1)
    difference = lab.astype(np.float32) - byte_median(lab[inside > 0]).astype(np.float32)
    # Summed by OpenCV (a third of numpy's time); squared distances of half units are exact.
    squared = cv2.transform(difference * difference, np.ones((1, 3), np.float32))
    far = (squared > PAINT_DISTANCE**2) & (inside > 0)
    return np.where(far, np.float32(0.0), np.float32(1.0))


def _starts(blob: Blob) -> NDArray[np.float64]:
    """Two starting dice (parameter rows): the outline's smallest triangle, and the same
    shrunk (the outline may hold some shadow)."""
    _, triangle = cv2.minEnclosingTriangle(blob.contour.astype(np.float32))
    corners = triangle.reshape(3, 2).astype(np.float64)
    centre = corners.mean(axis=0)
    edge = float(np.mean([np.hypot(*(corners[i] - corners[i - 1])) for i in range(3)]))
    first = corners[0] - centre
    angle = float(np.arctan2(first[1], first[0]))
    return np.array([[centre[0], centre[1], angle, size, 0.0, 0.0] for size in (edge, 0.85 * edge)])


Cost = Callable[[NDArray[np.int64], NDArray[np.float64]], NDArray[np.float64]]


class _Dice:
    """Parameter rows (centre x, y, turn and edge of the base, the top point's move from
    where perspective puts it) turned into dice in the picture, and scored."""

    def __init__(self, tray: Tray) -> None:
        self.tray = tray
        self.below_lens = np.asarray(tray.below_lens, np.float64)  # once, not per batch

    def shape(self, params: NDArray[np.float64]) -> tuple[Points, Points]:
        """Base corners (n, 3, 2) and top points (n, 2) of parameter rows (n, 6)."""
        # (Whole blocks of rows at once: a search scores a few rows per call, and each
        # numpy call costs more than its arithmetic.)
        centre, size = params[:, None, :2], params[:, 3]
        turns = params[:, 2:3] + _THIRDS
        directions = np.stack([np.cos(turns), np.sin(turns)], axis=2)
        base = centre + (size / _SQRT3)[:, None, None] * directions
        # Tray.lift for a point size * APEX_RATIO above the floor, for every row at once.
        high = size / self.tray.px_per_mm * APEX_RATIO
        factor = high / np.maximum(1.0, self.tray.camera_height_mm - high)
        moved = (params[:, :2] - self.below_lens) * factor[:, None]
        apex = params[:, :2] + moved + params[:, 4:6]
        return base, apex

    def cost(self, model: _Model, common_size: float | None = None) -> Cost:
        """The cost of parameter rows, each of the die whose crop's index goes with it.
        ``common_size``: the dice are of one set, alike, and this their edge (pixels)."""

        def cost(die: NDArray[np.int64], params: NDArray[np.float64]) -> NDArray[np.float64]:
            freedom = np.hypot(params[:, 4], params[:, 5]) / self.tray.px_per_mm
            allowed = (freedom <= APEX_FREEDOM_MM) & (params[:, 3] > 0)
            prior = APEX_PRIOR * freedom**2
            if common_size is not None:
                unlike = np.log(np.maximum(params[:, 3], 1e-9) / common_size)
                prior = prior + SET_SIZE_PRIOR * unlike**2
            return np.where(allowed, model.unexplained(die, *self.shape(params)) + prior, np.inf)

        return cost


def numeral_view(
    picture: Image, foreground: Foreground, tray: Tray, tetra: Tetra
) -> tuple[Image, Tetra]:
    """Where a die fitted on ``foreground``'s frame shows its numerals best, and the die
    there: the camera's own picture where it has more pixels than the working picture
    (numerals a few pixels high are read from two or three times as many), else the frame."""
    if tray.scale >= 1.0:
        return foreground.frame, tetra
    return picture, tetra.placed(lambda points: tray.to_picture(foreground.as_taken(points)))


def fit_tetra(frame: Image, blob: Blob, tray: Tray) -> Tetra:
    """The d4's base and top point that best explain the picture around ``blob``."""
    (tetra,) = fit_tetras(frame, [blob], tray)
    return tetra


def fit_tetras(
    frame: Image,
    blobs: Sequence[Blob],
    tray: Tray,
    *,
    painted: bool = False,
    alike: bool = False,
) -> list[Tetra]:
    """:func:`fit_tetra` for each blob, all fitted together: each die's search is its own,
    but the rounds of all are scored in the same batches. ``painted``: the dice have tips
    painted in a colour far from theirs (binary d4s), which do not count in the evenness
    of a face's colour; read by those tips, they are fitted on a half-size crop in fewer
    rounds (``PAINTED_FIT_SCALE``, ``PAINTED_FINE_ROUNDS``). ``alike``: the dice are of one
    set, made the same size (a throw's binary d4s); a die fitted a little off the others'
    size is fitted again at it."""
    if not blobs:
        return []
    crops = [_crop(frame, blob, tray, painted) for blob in blobs]
    dice = _Dice(tray)
    everyone = np.arange(len(blobs))
    steps = np.array([2.0, 2.0, np.radians(4), 2.0, 1.5, 1.5])
    # First the base alone, the top point where perspective puts it, from the better of
    # each die's two starts.
    silhouette = PAINTED_SILHOUETTE_WEIGHT if painted else SILHOUETTE_WEIGHT
    coarse = dice.cost(
        _Model(
            [crop.shrunk(COARSE_SCALE) for crop in crops],
            COARSE_SCALE,
            silhouette,
        )
    )
    starts = np.array([_starts(blob) for blob in blobs])
    start_costs = coarse(np.repeat(everyone, 2), starts.reshape(-1, 6)).reshape(-1, 2)
    params = starts[everyone, np.argmin(start_costs, axis=1)]
    params = _pattern_search(
        coarse, params, steps[:4], COARSE_SMALLEST, COARSE_ROUNDS, smooth=False
    )
    scale = PAINTED_FIT_SCALE if painted else FIT_SCALE
    model = _Model([crop.shrunk(scale) for crop in crops], scale, silhouette)
    fine = dice.cost(model)
    rounds = PAINTED_FINE_ROUNDS if painted else FINE_ROUNDS
    params = _pattern_search(fine, params, steps / 2, FINE_SMALLEST, rounds, smooth=True)
    if alike and len(blobs) >= SET_SIZE_FEWEST:
        return _alike(dice, model, fine, params, steps / 2, rounds)
    return [Tetra(base, apex) for base, apex in zip(*dice.shape(params), strict=True)]


def unexplained(frame: Image, blobs: Sequence[Blob], tray: Tray, fits: Sequence[Tetra]) -> float:
    """How much of the picture around ``blobs`` their dice ``fits`` leave unexplained, as
    the fit of a numbered d4 scores it (``fit_tetras``)."""
    crops = [_crop(frame, blob, tray) for blob in blobs]
    model = _Model(crops, FIT_SCALE, SILHOUETTE_WEIGHT)
    bases = np.stack([fit.base for fit in fits])
    apexes = np.stack([fit.apex for fit in fits])
    return float(model.unexplained(np.arange(len(fits)), bases, apexes).sum())


def _alike(
    dice: _Dice,
    model: _Model,
    free: Cost,
    params: NDArray[np.float64],
    steps: NDArray[np.float64],
    rounds: int,
) -> list[Tetra]:
    """The fits of a set's dice, each die whose size is a little off the others' fitted
    again at their size (at most ``rounds`` of search), and kept so when that explains
    its picture (``free``: the cost without the set's size) nearly as well; each told
    whether it is of the set's size."""
    common = float(np.median(params[:, 3]))
    unlike = np.abs(np.log(params[:, 3] / common))
    of_set = unlike <= SET_SIZE_TOLERANCE
    again = np.flatnonzero(~of_set & (unlike <= SET_SIZE_REACH))
    fits = [
        Tetra(base, apex, of_set=bool(sized))
        for base, apex, sized in zip(*dice.shape(params), of_set, strict=True)
    ]
    if not len(again):
        return fits
    alike = dice.cost(model, common)

    def cost(die: NDArray[np.int64], rows: NDArray[np.float64]) -> NDArray[np.float64]:
        return alike(again[die], rows)

    starts = params[again].copy()
    starts[:, 3] = common
    refits = _pattern_search(cost, starts, steps, FINE_SMALLEST, rounds, smooth=True)
    kept = free(again, refits) <= free(again, params[again]) * (1 + SET_SIZE_COST)
    bases, apexes = dice.shape(refits)
    for die, base, apex, keep in zip(again, bases, apexes, kept, strict=True):
        if keep:
            fits[die] = Tetra(base, apex, of_set=True)
    return fits


def _pattern_search(
    cost: Cost,
    starts: NDArray[np.float64],
    steps: NDArray[np.float64],
    smallest: float,
    most: int,
    smooth: bool,
) -> NDArray[np.float64]:
    """Pattern search with halving steps, no derivatives needed, from each start row (one
    per die): each round scores at once every parameter moved one step either way and
    either every pair of parameters so moved or, where the cost is ``smooth``, the minimum
    of a parabola through each parameter's three values (all parameters moved there
    together). The best move is taken; the steps are halved when none is better or the
    parabolas' minimum was. Only the first ``len(steps)`` parameters are moved. The dice
    searched go on together, each until its steps are below ``smallest`` or after
    ``most`` rounds."""
    count, size = starts.shape
    best = starts.copy()
    best_cost = np.full(count, np.inf)
    moves = _moves(len(steps), size, pairs=not smooth)
    steps = np.tile(np.concatenate([steps, np.zeros(size - len(steps))]), (count, 1))
    searched = np.arange(count)
    for round_ in range(most):
        searched = searched[steps[searched, 0] >= smallest]
        if not len(searched):
            break
        trials = best[searched, None] + moves * steps[searched, None]
        if not round_:  # the starts are scored with the first round's moves
            trials = np.concatenate([trials, best[searched, None]], axis=1)
        costs = _scored(cost, searched, trials)
        if not round_:
            trials, costs, best_cost[searched] = trials[:, :-1], costs[:, :-1], costs[:, -1]
        if smooth:
            centre = best_cost[searched]
            jumps = best[searched] + _parabola_steps(costs, centre, size) * steps[searched]
            trials = np.concatenate([trials, jumps[:, None]], axis=1)
            costs = np.concatenate([costs, cost(searched, jumps)[:, None]], axis=1)
        _take_best(searched, trials, costs, best, best_cost, steps, len(moves))
    return best


def _scored(cost: Cost, searched: NDArray[np.int64], trials: NDArray[np.float64]) -> Points:
    """Costs (dice, trials) of trial rows (dice, trials, parameters) of the dice searched."""
    dice, each, size = trials.shape
    return cost(np.repeat(searched, each), trials.reshape(-1, size)).reshape(dice, each)


def _take_best(
    searched: NDArray[np.int64],
    trials: NDArray[np.float64],
    costs: NDArray[np.float64],
    best: NDArray[np.float64],
    best_cost: NDArray[np.float64],
    steps: NDArray[np.float64],
    moves: int,
) -> None:
    """Each die searched moves to its best trial if better, its steps halved if none was
    or the parabolas' minimum (the trial after the ``moves``) was."""
    k = np.argmin(costs, axis=1)
    rows = np.arange(len(searched))
    lowest = costs[rows, k]
    improved = lowest < best_cost[searched]
    best[searched[improved]] = trials[rows[improved], k[improved]]
    best_cost[searched[improved]] = lowest[improved]
    halved = searched[~improved | (k == moves)]
    steps[halved] /= 2


def _parabola_steps(costs: Points, centre: NDArray[np.float64], size: int) -> Points:
    """Per die (row) and parameter, where a parabola through its costs one step ahead
    (``costs[:, 0::2]``), at the centre and one step behind is lowest, in steps (at most
    one either way)."""
    ahead, behind = costs[:, 0::2], costs[:, 1::2]
    bend = ahead + behind - 2 * centre[:, None]
    valley = bend > 0
    shift = np.where(valley, (behind - ahead) / (2 * np.where(valley, bend, 1.0)), 0.0)
    moved = np.zeros((len(costs), size))
    moved[:, : shift.shape[1]] = np.clip(shift, -1.0, 1.0)
    return moved


def _moves(moved: int, size: int, pairs: bool) -> NDArray[np.float64]:
    """Unit moves of one (and, with ``pairs``, two) of the first ``moved`` parameters,
    either way: one parameter's move ahead, then behind."""
    moves = []
    for k in range(moved):
        for sign in (1.0, -1.0):
            one = np.zeros(size)
            one[k] = sign
            moves.append(one)
    if pairs:
        for k in range(moved):
            for other in range(k + 1, moved):
                for signs in ((1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)):
                    two = np.zeros(size)
                    two[k], two[other] = signs
                    moves.append(two)
    return np.asarray(moves)


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
    to_image = np.vstack(
        [cv2.getAffineTransform(canonical, np.asarray(corners, np.float32)), [0.0, 0.0, 1.0]]
    )
    linear = (to_image[:2, :2] * (span / size)).astype(np.float64)  # picture px per patch px
    blur = np.asarray(np.linalg.inv(linear.T @ linear + 1e-9 * np.eye(2)), np.float64)
    widest = float(np.linalg.svd(linear, compute_uv=False).max())
    # Each patch pixel the mean of the picture's under it, not the picture at its centre.
    fine = int(np.ceil(widest)) if widest > AREA_SAMPLED_ABOVE else 1
    step = span / (size * fine)
    from_patch = np.array(
        [
            [step, 0.0, centre[0] - span / 2 + step / 2],
            [0.0, step, centre[1] - span / 2 + step / 2],
            [0.0, 0.0, 1.0],
        ]
    )
    patch = cv2.warpAffine(
        frame_channel,
        (to_image @ from_patch)[:2],
        (size * fine, size * fine),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if fine > 1:
        patch = cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(patch, np.float32), blur
