"""Where the tray went since calibration: a tray nudged or knocked by a throw, or a camera
that shook or was bumped, moves, turns or resizes the picture. The felt's fine texture,
matched patch by patch with the empty tray's, tells how; the frame is then put back
where the empty tray's picture has it, or the caller follows the tray instead.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.tray import ANALYSIS_SCALE, Image

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


class Alignment:
    """The empty tray's texture in patches of the floor, ready to be matched with frames'.

    ``empty``: the empty tray at the working scale; ``empty_detail`` and ``floor``: its
    fine texture and its floor at the analysis scale (see ``vision.segment``)."""

    def __init__(self, empty: Image, empty_detail: NDArray[np.float32], floor: Mask) -> None:
        self._empty = empty
        self._empty_detail = empty_detail
        self._patches = _floor_patches(floor)

    def motion(self, detail: NDArray[np.float32]) -> Motion | None:
        """Where a frame (its texture at the analysis scale: ``detail``) put the empty
        tray's pixels: a turn or a change of size when one is large enough to undo as such
        (see :func:`turns`), else a move by whole working pixels; None where it was."""
        matches = self.matches(detail)
        turn = self.turn(matches)
        if turn is not None:
            return turn
        dx, dy = self.shift(matches)
        if not (dx or dy):
            return None
        return np.array([[1.0, 0, dx], [0, 1.0, dy]])

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

    def shift(self, matches: list[NDArray[np.float32]]) -> tuple[int, int]:
        """The move (whole working pixels) where the patches' matches, together, peak
        clearly above anywhere else; (0, 0) when none does."""
        if not matches:
            return 0, 0
        match = np.zeros_like(matches[0])
        for each in matches:
            match += each
        match /= len(matches)
        row, column = _peak(match)
        best = float(match[row, column])
        elsewhere = match.copy()
        elsewhere[max(row - 2, 0) : row + 3, max(column - 2, 0) : column + 3] = -1.0
        if best < SHIFT_MIN_MATCH or best < SHIFT_PEAK_RATIO * float(elsewhere.max()):
            return 0, 0
        dx, dy = _peak_shift(match, row, column)
        return round(dx / ANALYSIS_SCALE), round(dy / ANALYSIS_SCALE)

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
