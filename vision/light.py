"""Light that changed over a large part of the tray only, since the empty tray was taken:
a player leaning between the lamp and the tray shades half of it.

The segmentation relights a frame with one gain per channel for the whole floor (its
typical colour: ``vision.segment``). Under such a shade the part in the other light then
looks lighter or darker than the empty tray everywhere: the lighter part is read as an
object, and colours read in the darker part are dimmed.

A shade is told from implements and their shadows by its size. The picture is cut into
cells of ``CELL_MM``; a cell's light is the median change of brightness of its pixels, a
cell's neighbourhood's the median of those (an implement or a shadow fills few cells in a
row). A region of cells in one other light larger than any implement with its shadow
(``MIN_REGION_MM2``), most of whose cells on the floor keep the felt's texture (an arm
over the tray hides it), is a shade: it gets one level, the median of its cells. The field
then follows the shade's soft edge pixel by pixel, from the felt's pixels (its texture
shows) whose change lies within the levels round them: not implements, which hide the
texture (one of the felt's own colour would otherwise be relit away), nor the deeper
shadows they cast. Under an implement, the felt round it tells the light. The frame is
relit by the field. A frame in even light (no such region) is left as it is.

Where the shade's edge crosses an implement, the light under it is told from the felt
round it, smoothed: a stick across the edge may be read as a little lighter on the
shade's side, up to about 9 % near the edge (generated throws), and its face may then be
refused as unclear.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.observation import Box
from vision.tray import ANALYSIS_SCALE

CELL_MM = 20.0
CELL_SAMPLING = 4  # every 4th pixel of every 4th row of a cell tells its median
LEVEL = 0.1  # log brightness: a cell this much lighter or darker is in another light
# The largest implement with its shadow, a yes/no stick of 150 x 20 mm, covers 5,000 mm²;
# four sticks side by side with their shadows about 12,000.
MIN_REGION_MM2 = 15_000.0
REACH = 0.1  # log brightness beyond the levels round a pixel that still tells the light
# The field follows the shade's edge to 3 mm where at least 0.3 of the pixels round tell
# the light; else to 7 mm, from 0.1; else to 15 mm, from 0.02; else the shade's level.
FIELD_TIERS = ((3.0, 0.3), (7.0, 0.1), (15.0, 0.02))
# Where fewer pixels than the first tier's share tell the light, the field is filled as a
# membrane: so many rounds of neighbours' means at half the field's size, then at its size.
MEMBRANE_ROUNDS = (80, 30)
# A cell shows the felt's texture when its median correlation with the empty tray's is at
# least this share of the typical cell's, itself at least MIN_TEXTURE.
TEXTURE_SHARE = 0.5
MIN_TEXTURE = 0.1
TEXTURED_SHARE = 0.75  # of a shade's cells on the floor (others: implements; an arm: none)

GREY_WEIGHTS = np.array([0.114, 0.587, 0.299])  # blue, green, red: as OpenCV's grey
_Pixel = TypeVar("_Pixel", np.uint8, np.float32)


def log_grey(
    picture: NDArray[np.uint8], gains: NDArray[np.float64] | None = None
) -> NDArray[np.float32]:
    """The log of a picture's grey levels (plus one), each channel times its gain first,
    unclipped."""
    weights = GREY_WEIGHTS if gains is None else GREY_WEIGHTS * gains
    # One weighted sum of the channels: ten times faster than scaling, then cvtColor.
    grey = cv2.transform(picture.astype(np.float32), weights[None, :].astype(np.float32))
    return np.asarray(np.log(grey + 1.0), np.float32).reshape(picture.shape[:2])


@dataclass(frozen=True)
class LightField:
    """How much a frame's light differs from the empty tray's, pixel by pixel: the log of
    the brightness ratio, ``scale`` times the working size (a shade's light changes over
    millimetres, not pixels)."""

    log_ratio: NDArray[np.float32]
    scale: float = ANALYSIS_SCALE

    def relit(
        self,
        frame: NDArray[np.uint8],
        gains: NDArray[np.float64] | None,
        box: Box | None = None,
    ) -> NDArray[np.uint8]:
        """``frame`` (the working picture, or the part of it in ``box``) as the empty
        tray's light would show it, each channel times its gain first (in one step: the
        picture scaled twice would be clipped in between)."""
        height, width = frame.shape[:2]
        gain = np.exp(-self.log_ratio)
        # Each channel's gain at the field's size: spread over the frame, three channels
        # cost less than one channel multiplied three times at the frame's size.
        per_channel = cv2.merge(
            [gain * float(g) for g in gains] if gains is not None else [gain] * 3
        )
        if box is None:  # the whole picture: the field's size times 1 / scale
            spread = cv2.resize(per_channel, (width, height), interpolation=cv2.INTER_LINEAR)
        else:
            scale = self.scale
            # Where each of the part's pixels lies in the field (pixel centres).
            to_field = np.array(
                [
                    [scale, 0.0, (box.x0 + 0.5) * scale - 0.5],
                    [0.0, scale, (box.y0 + 0.5) * scale - 0.5],
                ]
            )
            spread = cv2.warpAffine(
                per_channel,
                to_field,
                (width, height),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
        return np.asarray(cv2.multiply(frame, spread, dtype=cv2.CV_8U), np.uint8)


class UnevenLight:
    """Finds shades over a large part of the tray in frames at analysis size, against the
    empty tray's picture at that size."""

    def __init__(
        self, empty_small: NDArray[np.uint8], floor: NDArray[np.uint8], px_per_mm: float
    ) -> None:
        self._empty = log_grey(empty_small)
        self._px_per_mm = px_per_mm
        self._cell = max(2, round(CELL_MM * px_per_mm / CELL_SAMPLING)) * CELL_SAMPLING
        height, width = empty_small.shape[:2]
        self._grid = (max(1, round(height / self._cell)), max(1, round(width / self._cell)))
        self._empty_sampled = np.ascontiguousarray(self._sampled(self._empty))
        on_floor = self._cell_medians(self._sampled(floor).astype(np.float32), neighbours=False)
        self._floor_cells = on_floor > 0  # the walls' smooth wood shows little texture

    def field(
        self,
        small: NDArray[np.uint8],
        gains: NDArray[np.float64] | None,
        texture_kept: Callable[[], NDArray[np.float32]],
    ) -> LightField | None:
        """The light field of a frame at analysis size, relit as a whole by ``gains`` (its
        typical pixel then has the empty tray's light); None when its light is even.
        ``texture_kept``: how well the felt's texture shows through, pixel by pixel (asked
        only when some large region's light changed): a shade keeps it, an arm hides it."""
        sampled = self._sampled(small)
        change_sampled = cv2.subtract(log_grey(sampled, gains), self._empty_sampled)
        cells = self._cell_medians(np.asarray(change_sampled, np.float32))
        if not self._large_regions(np.abs(cells) > LEVEL):
            return None
        change = np.asarray(cv2.subtract(log_grey(small, gains), self._empty), np.float32)
        kept = texture_kept()
        kept_cells = self._cell_medians(self._sampled(kept), neighbours=False)
        typical = float(np.median(kept_cells[self._floor_cells]))
        if typical < MIN_TEXTURE:  # a felt without texture: a shade and an arm look alike
            return None
        levels = self._shade_levels(cells, kept_cells >= TEXTURE_SHARE * typical)
        if levels is None:
            return None
        return self._followed(change, levels, kept >= TEXTURE_SHARE * typical)

    def _sampled(self, picture: NDArray[_Pixel]) -> NDArray[_Pixel]:
        """The pixels that tell the cells' medians: every ``CELL_SAMPLING``-th, drawn onto
        a grid of whole cells over the whole picture (cells a little stretched or squeezed:
        a strip left out along two sides was a shade's edge left unfollowed there, and
        seen as an implement cut by the picture's border)."""
        side = self._cell // CELL_SAMPLING
        rows, columns = self._grid
        sampled = picture[::CELL_SAMPLING, ::CELL_SAMPLING]
        whole = cv2.resize(sampled, (columns * side, rows * side), interpolation=cv2.INTER_NEAREST)
        return np.asarray(whole, picture.dtype)

    def _cell_medians(
        self, sampled: NDArray[np.float32], *, neighbours: bool = True
    ) -> NDArray[np.float32]:
        """Each cell's median value (``sampled``: see :meth:`_sampled`), then
        (``neighbours``) the median of each cell's 3 x 3 neighbourhood."""
        side = self._cell // CELL_SAMPLING
        rows, columns = sampled.shape[0] // side, sampled.shape[1] // side
        per_cell = sampled.reshape(rows, side, columns, side).transpose(0, 2, 1, 3)
        medians = np.median(per_cell.reshape(rows, columns, -1), axis=2).astype(np.float32)
        return np.asarray(cv2.medianBlur(medians, 3) if neighbours else medians, np.float32)

    def _large_regions(self, cells: NDArray[np.bool_]) -> list[NDArray[np.bool_]]:
        """The regions of ``cells`` at least ``MIN_REGION_MM2`` large."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(
            cells.astype(np.uint8), connectivity=4
        )
        smallest = MIN_REGION_MM2 / CELL_MM**2
        return [labels == k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] >= smallest]

    def _shade_levels(
        self, cells: NDArray[np.float32], textured: NDArray[np.bool_]
    ) -> NDArray[np.float32] | None:
        """Each cell's light: the level of the shade it lies in, 0 outside any; None when
        there is no shade. A shade is a large region of cells lighter, or darker, than the
        typical one, most of which show the felt's texture."""
        levels = np.zeros_like(cells)
        for other in (cells > LEVEL, cells < -LEVEL):
            for region in self._large_regions(other):
                on_floor = region & self._floor_cells
                if on_floor.any() and float(textured[on_floor].mean()) >= TEXTURED_SHARE:
                    levels[region] = float(np.median(cells[region]))
        return levels if levels.any() else None

    def _followed(
        self, change: NDArray[np.float32], levels: NDArray[np.float32], felt: NDArray[np.bool_]
    ) -> LightField:
        """The field pixel by pixel: the change of the felt's pixels (``felt``: where its
        texture shows) within the levels round them (and ``REACH`` beyond), smoothed; the
        shades' levels where no such pixel is near. An implement of the felt's colour hides
        its texture: its own pixels never tell the light, or it would be relit away."""
        size = (change.shape[1], change.shape[0])
        kernel = np.ones((3, 3), np.uint8)
        low = _spread(np.asarray(cv2.erode(levels, kernel), np.float32), size)
        high = _spread(np.asarray(cv2.dilate(levels, kernel), np.float32), size)
        level = _spread(levels, size)
        within = (change >= low - REACH) & (change <= high + REACH)
        telling = (within & felt).astype(np.float32)
        # Smoothed at half the analysis size (pixels of under 2 mm), four times fewer.
        told, weights, field = (_halved(picture) for picture in (change * telling, telling, level))
        # Under an implement, the light is told by the felt round it, from ever farther.
        for sigma_mm, least in reversed(FIELD_TIERS):
            smoothed, weight = _smoothed(told, weights, sigma_mm * self._px_per_mm / 2)
            field = np.where(weight >= least, smoothed, field)
        # The last tier is the closest: where it does not tell the light, a membrane does.
        holes = weight < FIELD_TIERS[0][1]
        return LightField(_membrane(field, holes), scale=ANALYSIS_SCALE / 2)


def _spread(cells: NDArray[np.float32], size: tuple[int, int]) -> NDArray[np.float32]:
    """Cell values drawn over the picture (``size``: width, height), linearly between cell
    centres."""
    return np.asarray(cv2.resize(cells, size, interpolation=cv2.INTER_LINEAR), np.float32)


def _membrane(field: NDArray[np.float32], holes: NDArray[np.bool_]) -> NDArray[np.float32]:
    """``field`` filled in ``holes`` as a stretched membrane held by the values round them
    (each hole's pixel the mean of its neighbours; from the values it has as a start).

    Smoothed averages of the felt round an implement that a shade's edge crosses take
    in felt from farther on either side, in other light: a white stick lying along the
    edge of a 45 % shade was relit up to 50 grey levels off. A membrane follows the
    edge's slope across the hole.
    The mean is taken again and again, first on a picture of half the size (a hole of
    an implement and its shadow, some 15 pixels wide here, is filled in fewer rounds),
    then at full size.
    """
    if not holes.any():
        return field
    coarse = _halved(field)
    coarse_holes = (_halved(holes.astype(np.float32)) > 0).astype(np.uint8)
    for _ in range(MEMBRANE_ROUNDS[0]):
        coarse = np.asarray(cv2.copyTo(cv2.blur(coarse, (3, 3)), coarse_holes, coarse), np.float32)
    size = (field.shape[1], field.shape[0])
    started = cv2.resize(coarse, size, interpolation=cv2.INTER_LINEAR)
    filled = np.where(holes, started, field).astype(np.float32)
    fine_holes = holes.astype(np.uint8)
    for _ in range(MEMBRANE_ROUNDS[1]):
        filled = np.asarray(cv2.copyTo(cv2.blur(filled, (3, 3)), fine_holes, filled), np.float32)
    return filled


def _halved(picture: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each 2 x 2 pixels' mean (an odd last row or column left out: the field's pixel
    centres then lie where ``LightField.scale`` puts them)."""
    rows, columns = picture.shape[0] // 2, picture.shape[1] // 2
    even = picture[: rows * 2, : columns * 2]
    return np.asarray(cv2.resize(even, (columns, rows), interpolation=cv2.INTER_AREA), np.float32)


def _smoothed(
    weighted: NDArray[np.float32], weights: NDArray[np.float32], sigma: float
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """The weighted mean round each pixel (Gaussian, ``sigma`` pixels) of the values whose
    products with their ``weights`` are ``weighted``, and the weights' mean there. Wide
    ones are worked out on a picture shrunk to keep the Gaussian about 3 pixels wide (a
    blur of 18 pixels took 3 ms, shrunk 0.1)."""
    total = _blurred(weighted, sigma)
    weight = _blurred(weights, sigma)
    mean = total / np.maximum(weight, 1e-6)
    return np.asarray(mean, np.float32), np.asarray(weight, np.float32)


def _blurred(image: NDArray[np.float32], sigma: float) -> NDArray[np.float32]:
    shrink = max(1, int(sigma // 3))
    if shrink == 1:
        return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.float32)
    size = (image.shape[1], image.shape[0])
    shrunk = cv2.resize(
        image, (max(1, size[0] // shrink), max(1, size[1] // shrink)), interpolation=cv2.INTER_AREA
    )
    blurred = cv2.GaussianBlur(shrunk, (0, 0), sigma / shrink)
    return np.asarray(cv2.resize(blurred, size, interpolation=cv2.INTER_LINEAR), np.float32)
