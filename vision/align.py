"""Where the tray went since calibration: a tray nudged or knocked by a throw, or a camera
that shook or was bumped, moves, turns or resizes the picture. The felt's fine texture,
matched patch by patch with the empty tray's, tells how, or, where the felt shows none,
the tray's own edges; the frame is then put back where the empty tray's picture has it,
or the caller follows the tray instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.tray import ANALYSIS_SCALE, Image, Points

Mask = NDArray[np.uint8]
Motion = NDArray[np.float64]  # 2 x 3: where a picture put each of the empty tray's pixels

# A tray nudged by a throw, or a camera that shook, moves the picture a few pixels from the
# empty tray's: the felt's fine texture, matched patch by patch, tells by how much.
SHIFT_REACH = 6  # analysis pixels either way: 12 picture pixels, about 4 mm
SHIFT_PATCH = 40  # analysis pixels
SHIFT_PATCHES = 24  # at most, spread over the floor
# The patches' mean correlation at the shift found, and how many times it beats the best
# match elsewhere (2 analysis pixels or more away): on the dev set, peaks of 0.15 to 0.93
# beat the rest 9.5 times or more; a felt without texture makes no such peak.
SHIFT_MIN_MATCH = 0.05
SHIFT_PEAK_RATIO = 4.0
# A tray knocked by a throw also turns, and a camera bumped on its arm may come nearer or
# go further: each patch's own best match tells where it went, and a turn, a move and a
# change of size are fitted to those that agree within an analysis pixel, when at least 6
# patches and half of those that matched do. On the dev set, frames that did not turn fit
# turns of 0.005 degrees or less and sizes within 0.015 %; under 0.05 degrees and 0.1 %
# (half a picture pixel or so at the floor's corners) the picture is only moved, by whole
# pixels.
PATCH_MIN_MATCH = 0.2
TURN_AGREEMENT_PX = 1.0
TURN_MIN_PATCHES = 6
TURN_MIN_DEG = 0.05
RESIZE_MIN_SHARE = 0.001
# A move by a fraction of a pixel leaves the floor's outline and the walls' edges in the
# frame a fraction of a pixel from the empty tray's: thin changes along them, taken for
# implements (generated trays moved 1 px: 9.3 % of clean throws refused, against 0.7 %
# unmoved). A move whose fraction reaches this is followed, by moving the empty tray to
# the frame (which blurs no frame), rather than moving the frame back by whole pixels.
FOLLOWED_FRACTION_PX = 0.25
# Where the felt's texture cannot tell a move (a felt without texture; a fine texture a
# move of a fraction of a pixel blurs away), the tray's own edges can: the floor's
# outline, the walls and the rim, in a band round the floor's outline. They are matched
# with the empty tray's by Lucas-Kanade, coarse to fine, on the strongest slopes of the
# band, half of them across x and half across y; points that changed otherwise (an
# implement against a wall, a hand on the rim) are weighed out (Tukey's weight, at 4.685
# times the change's robust spread). The picture matched is the grey frame at the
# analysis scale blurred by 2 px, which the felt's texture is taken from anyway; each
# level is a scale of it and a further blur (pixels of that scale). Measured on frames
# moved by up to 3 px in any direction, with noise of 3 grey levels: within 0.03 px (90 %)
# on generated trays, 0.27 px on the development set's (working pixels).
EDGE_BAND_MM = (8.0, 20.0)  # inside and outside the floor's outline
EDGE_LEVELS = ((0.25, 1.0), (1.0, 0.0))
EDGE_POINTS = 6000
EDGE_MIN_SLOPE = 3.0  # grey levels a pixel of the level's scale
# Where the felt's texture tells a move too, the edges' is kept unless the two disagree
# by more than this (working pixels). The texture's match peaks between pixels only
# roughly, and a texture of single pixels, the generator's, pulls it to whole pixels
# (0.56 px off at 90 %, edges 0.03); on the development set the edges are nearer in the
# median (0.065 px against 0.105) but not at 90 % (0.27 against 0.16). Kept, the edges'
# read more throws moved 1 px on both sets than the mean of the two did.
EDGE_AGREEMENT_PX = 1.0
# Edges that hardly cross one direction tell nothing along it: the band's mean squared
# slope along its weakest direction must reach this (grey levels² a pixel², on either
# level). Twelve of the development set's 180 trays, whose walls are as dark as their
# felt, fall short (0.02 to 0.33; the next 1.04 and 1.05): the felt's texture tells
# there. Worked at full size, the two weakest trays had measured moves 0.7 and 1.2 px
# wrong.
EDGE_MIN_INFO = 1.0
EDGE_ROUNDS = 10  # at most, on each level
EDGE_SETTLED_PX = 0.01  # a round that moves the estimate less ends the level's rounds
EDGE_MIN_KEPT = 0.5  # the points' mean weight: below it, too much of the band changed
TUKEY = 4.685


class Alignment:
    """The empty tray's texture in patches of the floor, and its edges, ready to be
    matched with frames'.

    ``empty``: the empty tray at the working scale; ``empty_detail`` and ``floor``: its
    fine texture and its floor at the analysis scale (see ``vision.segment``); ``edges``:
    its edges, at that scale too."""

    def __init__(
        self,
        empty: Image,
        empty_detail: NDArray[np.float32],
        floor: Mask,
        edges: EdgeAlignment,
    ) -> None:
        self._empty = empty
        self._empty_detail = empty_detail
        self._patches = _floor_patches(floor)
        self._edges = edges

    def motion(self, detail: NDArray[np.float32], smooth: NDArray[np.float32]) -> Motion | None:
        """Where a frame (its texture at the analysis scale: ``detail``; its grey blurred
        at that scale, ``smooth``, whose edges tell a move finer) put the empty tray's
        pixels: a turn or a change of size when one is large enough to undo as such
        (see :func:`turns`), else a move, to a fraction of a pixel; None where it was (to
        under a fraction worth following: see :func:`follows`)."""
        matches = self.matches(detail)
        turn = self.turn(matches)
        if turn is not None:
            return turn
        shift = self.translation(matches, smooth)
        if shift is None:
            return None
        motion = np.array([[1.0, 0, shift[0]], [0, 1.0, shift[1]]])
        if moved_by(motion, 0.0, 0.0) == (0, 0) and not follows(motion):
            return None
        return motion

    def put_back(self, frame: Image, motion: Motion) -> Image:
        """The frame (working scale) put back onto the empty tray, turned or only moved."""
        if turns(motion):
            return self.turned_back(frame, motion)
        return self.moved_back(frame, moved_by(motion, 0.0, 0.0))

    def matches(self, detail: NDArray[np.float32]) -> list[NDArray[np.float32]]:
        """Per patch of the floor, how well the frame's texture matches the empty tray's at
        each shift within reach (normalised correlation)."""
        reach = SHIFT_REACH
        matches = []
        for x, y in self._patches:
            pattern = self._empty_detail[y : y + SHIFT_PATCH, x : x + SHIFT_PATCH]
            around = detail[
                y - reach : y + SHIFT_PATCH + reach, x - reach : x + SHIFT_PATCH + reach
            ]
            matches.append(
                np.asarray(cv2.matchTemplate(around, pattern, cv2.TM_CCOEFF_NORMED), np.float32)
            )
        return matches

    def translation(
        self, matches: list[NDArray[np.float32]], smooth: NDArray[np.float32]
    ) -> tuple[float, float] | None:
        """The move (working pixels, to a fraction of one) the tray's edges in ``smooth``
        (the frame's grey at the analysis scale, blurred) tell, and the felt's texture
        (``matches``) does not contradict (see EDGE_AGREEMENT_PX); else the texture's;
        None when neither tells."""
        texture = self.texture_shift(matches)
        near = (
            None if texture is None else (texture[0] * ANALYSIS_SCALE, texture[1] * ANALYSIS_SCALE)
        )
        edges = self._edges.shift(smooth, near)
        if edges is None:
            return texture
        edges = (edges[0] / ANALYSIS_SCALE, edges[1] / ANALYSIS_SCALE)
        if texture is not None and math.dist(texture, edges) > EDGE_AGREEMENT_PX:
            return texture
        return edges

    def texture_shift(self, matches: list[NDArray[np.float32]]) -> tuple[float, float] | None:
        """The move (working pixels, to a fraction of one) where the patches' matches,
        together, peak clearly above anywhere else; None when none does."""
        if not matches:
            return None
        match = np.zeros_like(matches[0])
        for each in matches:
            match += each
        match /= len(matches)
        row, column = _peak(match)
        best = float(match[row, column])
        elsewhere = match.copy()
        elsewhere[max(row - 2, 0) : row + 3, max(column - 2, 0) : column + 3] = -1.0
        if best < SHIFT_MIN_MATCH or best < SHIFT_PEAK_RATIO * float(elsewhere.max()):
            return None
        dx, dy = _peak_shift(match, row, column)
        return dx / ANALYSIS_SCALE, dy / ANALYSIS_SCALE

    def turn(self, matches: list[NDArray[np.float32]]) -> Motion | None:
        """The turn, move and change of size (2 x 3, working pixels: the empty tray's place
        to the frame's) that the patches' own best matches agree on; None when the frame
        was not turned or resized, or too few patches tell."""
        found, moved = [], []
        for (x, y), match in zip(self._patches, matches, strict=True):
            row, column = _peak(match)
            if match[row, column] >= PATCH_MIN_MATCH:
                centre = (x + SHIFT_PATCH / 2, y + SHIFT_PATCH / 2)
                dx, dy = _peak_shift(match, row, column)
                found.append(centre)
                moved.append((centre[0] + dx, centre[1] + dy))
        if len(found) < TURN_MIN_PATCHES:
            return None
        fitted, agree = cv2.estimateAffinePartial2D(
            np.asarray(found, np.float32),
            np.asarray(moved, np.float32),
            method=cv2.RANSAC,
            ransacReprojThreshold=TURN_AGREEMENT_PX,
        )
        if fitted is None or int(agree.sum()) < max(TURN_MIN_PATCHES, len(found) / 2):
            return None
        # From analysis pixels to working ones: the move doubles, the rest stays.
        motion = np.hstack([fitted[:, :2], fitted[:, 2:] / ANALYSIS_SCALE]).astype(np.float64)
        return motion if turns(motion) else None

    def turned_back(self, frame: Image, turn: Motion) -> Image:
        """Each pixel of the empty tray's picture takes the frame's where the motion put it
        (bilinear: bicubic blurs less but took 17 ms a frame on one core, bilinear 6), and
        keeps the empty tray's where that lies outside the frame. (OpenCV's "transparent"
        border still writes the pixels whose interpolation reaches past the frame's
        border: they made a strip of change along it.)"""
        height, width = frame.shape[:2]
        turned = cv2.warpAffine(
            frame, turn, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        # Where the frame's pixels, less one at its border, went: the interpolation's reach.
        inside = np.array([[1, 1], [width - 2, 1], [width - 2, height - 2], [1, height - 2]])
        back_to_empty = cv2.invertAffineTransform(turn)
        corners = inside @ back_to_empty[:, :2].T + back_to_empty[:, 2]
        seen = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(seen, np.round(corners).astype(np.int32), 255)
        back = self._empty.copy()
        cv2.copyTo(turned, seen, back)
        return np.asarray(back, np.uint8)

    def moved_back(self, frame: Image, shift: tuple[int, int]) -> Image:
        dx, dy = shift
        if not (dx or dy):
            return frame
        back = np.array([[1, 0, -dx], [0, 1, -dy]], np.float32)
        size = (frame.shape[1], frame.shape[0])
        moved = cv2.warpAffine(
            frame,
            back,
            size,
            dst=self._empty.copy(),
            flags=cv2.INTER_NEAREST,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        return np.asarray(moved, np.uint8)


def follows(motion: Motion) -> bool:
    """Whether a motion (2 x 3) is better followed, the empty tray moved to the frame, than
    undone by moving the frame back by whole pixels: it turns or resizes (see
    :func:`turns`), or moves by a fraction of a pixel (see FOLLOWED_FRACTION_PX)."""
    if turns(motion):
        return True
    fraction = np.abs(motion[:, 2] - np.round(motion[:, 2]))
    return float(fraction.max()) >= FOLLOWED_FRACTION_PX


def turns(motion: Motion) -> bool:
    """Whether a motion (2 x 3) turns or resizes enough to be undone as such, rather than
    as a move by whole pixels (see TURN_MIN_DEG)."""
    degrees = float(np.degrees(np.arctan2(motion[1, 0], motion[0, 0])))
    size = float(np.hypot(motion[0, 0], motion[1, 0]))
    return abs(degrees) >= TURN_MIN_DEG or abs(size - 1.0) >= RESIZE_MIN_SHARE


def moved_by(motion: Motion | None, x: float, y: float) -> tuple[int, int]:
    """How far (whole pixels) a motion took the empty tray's pixel at (x, y)."""
    if motion is None:
        return 0, 0
    dx, dy = motion @ np.array([x, y, 1.0]) - (x, y)
    return round(float(dx)), round(float(dy))


def _peak(match: NDArray[np.float32]) -> tuple[int, int]:
    """The row and column of a match's best place."""
    row, column = np.unravel_index(int(match.argmax()), match.shape)
    return int(row), int(column)


def _peak_shift(match: NDArray[np.float32], row: int, column: int) -> tuple[float, float]:
    """The shift (x, y, analysis pixels) a match's peak stands for, to a fraction of a
    pixel (a parabola through it and its neighbours), so that odd picture pixels are told
    apart from even ones."""
    reach = SHIFT_REACH
    dx = column - reach + _vertex(match[row, max(column - 1, 0) : column + 2], column, reach)
    dy = row - reach + _vertex(match[max(row - 1, 0) : row + 2, column], row, reach)
    return dx, dy


def _vertex(values: NDArray[np.float32], at: int, reach: int) -> float:
    """Where a parabola through a peak and its two neighbours peaks, from the peak's own
    place (0 at the border of the search)."""
    if not 0 < at < 2 * reach:
        return 0.0
    before, peak, after = (float(v) for v in values)
    bend = before - 2 * peak + after
    return 0.5 * (before - after) / bend if bend < 0 else 0.0


def _floor_patches(floor: Mask) -> list[tuple[int, int]]:
    """Top-left corners of square patches wholly on the floor, with room around each to
    look for a shift (analysis pixels)."""
    height, width = floor.shape
    reach, size = SHIFT_REACH, SHIFT_PATCH
    patches = []
    for y in range(reach, height - size - reach, size):
        for x in range(reach, width - size - reach, size):
            if floor[y - reach : y + size + reach, x - reach : x + size + reach].all():
                patches.append((x, y))
    step = max(1, -(-len(patches) // SHIFT_PATCHES))
    return patches[::step]


@dataclass(frozen=True)
class _EdgeLevel:
    """The empty tray's edges at one level of :class:`EdgeAlignment`: points of the band
    (pixels of the level's scale), the empty tray's grey there and its slopes (n x 2)."""

    scale: float
    blur: float
    points: NDArray[np.float32]
    grey: NDArray[np.float32]
    slopes: NDArray[np.float64]

    def informative(self) -> bool:
        """Whether the slopes cross both directions enough to tell a move along each."""
        if len(self.points) < 2:
            return False
        spread = self.slopes.T @ self.slopes / len(self.slopes)
        return float(np.linalg.eigvalsh(spread)[0]) >= EDGE_MIN_INFO


class EdgeAlignment:
    """The tray's own edges round the floor's outline (see EDGE_BAND_MM), ready to tell
    how far a frame moved. ``empty``, ``floor`` and ``px_per_mm``: the empty tray's
    grey picture, its floor's outline and its scale, at the scale and blur frames will be
    given (see EDGE_LEVELS)."""

    def __init__(self, empty: NDArray[np.float32], floor: Points, px_per_mm: float) -> None:
        band = _edge_band(empty.shape[:2], floor, px_per_mm)
        grey = np.asarray(empty, np.float32)
        levels = [_edge_level(grey, band, scale, blur) for scale, blur in EDGE_LEVELS]
        self._levels = levels if all(level.informative() for level in levels) else []

    def shift(
        self, frame: NDArray[np.float32], near: tuple[float, float] | None = None
    ) -> tuple[float, float] | None:
        """How far (pixels, x and y) the frame moved from the empty tray by its edges,
        from ``near`` when another measure told roughly (the coarser levels are then left
        out); None when they cannot tell: edges too faint along one direction, too much of
        the band changed (a hand), a move beyond reach."""
        if not self._levels:
            return None
        grey = np.asarray(frame, np.float32)
        shift = np.zeros(2) if near is None else np.asarray(near, np.float64)
        levels = self._levels if near is None else self._levels[-1:]
        for level in levels:
            picture = _blurred(grey, level.scale, level.blur)
            found = _level_shift(level, picture, shift * level.scale)
            if found is None:
                return None
            shift = found / level.scale
        if float(np.hypot(*shift)) > 2 * SHIFT_REACH:
            return None
        return float(shift[0]), float(shift[1])


def _edge_band(size: tuple[int, int], floor: Points, px_per_mm: float) -> Mask:
    """The pixels within EDGE_BAND_MM of the floor's outline, inside and out."""
    inside = np.zeros(size, np.uint8)
    cv2.fillConvexPoly(inside, np.round(floor).astype(np.int32), 255)
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
    reach = cv2.distanceTransform(255 - inside, cv2.DIST_L2, 3)
    inner, outer = (mm * px_per_mm for mm in EDGE_BAND_MM)
    band = ((depth > 0) & (depth <= inner)) | ((reach > 0) & (reach <= outer))
    return np.asarray(band * 255, np.uint8)


def _edge_level(grey: NDArray[np.float32], band: Mask, scale: float, blur: float) -> _EdgeLevel:
    """The band's strongest slopes at one scale and blur, half across x and half across y."""
    picture = _blurred(grey, scale, blur)
    height, width = picture.shape
    band = np.asarray(cv2.resize(band, (width, height), interpolation=cv2.INTER_NEAREST), np.uint8)
    dx, dy = slopes(picture)
    steepness = np.hypot(dx, dy)
    ys, xs = np.nonzero((band > 0) & (steepness >= EDGE_MIN_SLOPE))
    across_x = np.abs(dx[ys, xs]) >= np.abs(dy[ys, xs])
    kept = [_steepest(np.flatnonzero(part), steepness[ys, xs]) for part in (across_x, ~across_x)]
    chosen = np.concatenate(kept)
    ys, xs = ys[chosen], xs[chosen]
    return _EdgeLevel(
        scale,
        blur,
        np.stack([xs, ys], axis=1).astype(np.float32),
        picture[ys, xs],
        np.stack([dx[ys, xs], dy[ys, xs]], axis=1).astype(np.float64),
    )


def slopes(grey: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A grey picture's slopes across x and across y, in grey levels a pixel."""
    # Scharr's kernel sums to 32 times the slope per pixel.
    dx = cv2.Scharr(grey, cv2.CV_32F, 1, 0, scale=1 / 32)
    dy = cv2.Scharr(grey, cv2.CV_32F, 0, 1, scale=1 / 32)
    return np.asarray(dx, np.float32), np.asarray(dy, np.float32)


def _steepest(indices: NDArray[np.intp], steepness: NDArray[np.float32]) -> NDArray[np.intp]:
    """Of ``indices``, the EDGE_POINTS // 2 whose ``steepness`` is largest."""
    most = EDGE_POINTS // 2
    if len(indices) <= most:
        return indices
    return indices[np.argpartition(-steepness[indices], most)[:most]]


def _level_shift(
    level: _EdgeLevel, picture: NDArray[np.float32], start: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """The move (pixels of the level's scale) that puts the frame's ``picture`` back on
    the empty tray's edges, from ``start``. Each round solves, by weighted least squares,
    for the move that the slopes explain the change by, together with a gain and an
    offset of the grey levels: a room grown darker changes every edge in proportion to
    its levels, which a move alone would explain wrongly (a gain of 0.7 read as a move of
    0.6 px). The empty tray's slopes, times the gain, stand for the frame's (Lucas-Kanade
    in its inverse compositional form: the slopes are worked out once)."""
    shift = start.copy()
    gain, offset = 1.0, 0.0
    centred = (level.grey - float(level.grey.mean())).astype(np.float64)
    for _ in range(EDGE_ROUNDS):
        seen = _sampled(picture, level.points + shift.astype(np.float32))
        change = seen - (level.grey + (gain - 1.0) * centred + offset)
        weights = _tukey(change)
        weights[seen < 0] = 0.0  # beyond the frame
        if float(weights.mean()) < EDGE_MIN_KEPT:
            return None
        seen_slopes = gain * level.slopes
        # What changed otherwise may leave one direction's slopes out: it cannot tell.
        weighted = seen_slopes * weights[:, None]
        if float(np.linalg.eigvalsh(weighted.T @ seen_slopes)[0]) < (
            EDGE_MIN_INFO / 2 * float(weights.sum())
        ):
            return None
        terms = np.column_stack([seen_slopes, -centred, -np.ones_like(centred)])
        weighted_terms = terms * weights[:, None]
        step = np.linalg.solve(weighted_terms.T @ terms, weighted_terms.T @ change)
        shift -= step[:2]
        gain, offset = gain - step[2], offset - step[3]
        if float(np.hypot(step[0], step[1])) < EDGE_SETTLED_PX:
            return shift
    return None


def _sampled(picture: NDArray[np.float32], points: NDArray[np.float32]) -> NDArray[np.float64]:
    """The picture's levels at points, bilinear; -1 beyond its border. (OpenCV's remap
    rounds places to 1/32 of a pixel in version 4.6, Raspberry Pi OS's: the rounds then
    swayed by that much and never settled.)"""
    height, width = picture.shape
    x, y = points[:, 0].astype(np.float64), points[:, 1].astype(np.float64)
    inside = (x >= 0) & (y >= 0) & (x <= width - 1) & (y <= height - 1)
    # Truncation is the floor inside the picture; the clip keeps places beyond it readable.
    left = np.clip(x.astype(np.intp), 0, width - 2)
    top = np.clip(y.astype(np.intp), 0, height - 2)
    across, down = x - left, y - top
    flat = picture.ravel()
    at = top * width + left
    upper_left, upper_right = flat.take(at), flat.take(at + 1)
    lower_left, lower_right = flat.take(at + width), flat.take(at + width + 1)
    upper = upper_left + (upper_right - upper_left) * across
    lower = lower_left + (lower_right - lower_left) * across
    seen = upper + (lower - upper) * down
    seen[~inside] = -1.0
    return np.asarray(seen, np.float64)


def _tukey(change: NDArray[np.float64]) -> NDArray[np.float64]:
    """Tukey's weights of changes, against their robust spread (at least a grey level)."""
    spread = max(1.4826 * float(np.median(np.abs(change))), 1.0)
    share = change / (TUKEY * spread)
    return np.where(np.abs(share) < 1.0, (1.0 - share**2) ** 2, 0.0)


def _blurred(grey: NDArray[np.float32], scale: float, blur: float) -> NDArray[np.float32]:
    if scale != 1.0:
        grey = np.asarray(
            cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), np.float32
        )
    if not blur:
        return grey
    return np.asarray(cv2.GaussianBlur(grey, (0, 0), blur), np.float32)
