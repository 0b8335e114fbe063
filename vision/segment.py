"""Foreground: what differs from the empty tray, without the shadows, as separate blobs.

A pixel is foreground when its colour changed; a pure darkening that keeps the felt's hue
is a shadow and is left out. Work happens on a half-size frame; blob geometry is given
in millimetres of the tray floor and boxes in full-frame pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.align import Alignment, EdgeAlignment, Motion, follows, moved_by, turns
from vision.light import LightField, UnevenLight
from vision.observation import Box
from vision.tray import ANALYSIS_SCALE, Image, Tray

BRIGHTNESS_CHANGE = 0.15  # log-ratio of brightness that counts as a change (about 16 %)
HUE_CHANGE = 0.07  # log-ratio between channels: shadows darken every channel alike
SHADOW_DEPTH = np.log(0.3)  # darker than 30 % of the felt is an object, not a shadow
STICK_MM = (120.0, 16.0)  # a throwing stick's length and width
MIN_BLOB_MM2 = 40.0  # smaller changes are dust, noise or a crumb
# ... but beyond the floor, where the picture's border cuts it, a small die shows a sliver:
# half of a d4 of 16-22 mm beyond the picture's edge left 30-40 mm² (generated).
MIN_CUT_BLOB_MM2 = 20.0
# A d6's top face, 15 x 15 mm. Beyond the floor, on the walls and the rim, a smaller change
# is an implement's shade or the light it throws on a wall, not an implement: one there is
# seen whole, unless the picture's border cuts it. (A d4, or a smaller d6, lying there is
# dropped too: the throw then lacks an implement, and is refused all the same.)
SMALLEST_IMPLEMENT_MM2 = 225.0
# ... and one the border cuts is the light or shade of an implement on the floor when it
# lies this near one: where the camera does not see the rim's top, the walls' band reaches
# the border, and a stick against a wall shades the wall below it (dev 0149, moved half a
# pixel: 4 mm between the stick and the part of its shade seen, twice that allowed).
WALL_SHADE_REACH_MM = 8.0
BRIDGE_MM = 12.0  # widest dark band between two light parts of one object
DARK_OFFSET = 25.0  # grey levels added before the log ratio
DRIFT_SAMPLING = 8  # every 8th pixel of every 8th row tells the exposure's drift
TEXTURE_WINDOW = 7  # pixels at analysis size
TEXTURE_KEPT = 0.25  # correlation above which the felt's texture shows through
# ... unless the felt's own median correlation (see PALE_FELT_TEXTURE) is under twice that:
# its texture is then lost below this share of that median (the camera's noise drowns it).
TEXTURE_LOST_SHARE = 0.5
SPLIT_SOLIDITY = 0.8  # outlines less convex than this may be implements touching
SPLIT_MM = 3.0  # joints narrower than twice this are cut
# A dark die on a felt of its hue: the smallest top face (a d6's, 15 x 15 mm) less its
# blurred sides has a circle of this radius inside, and at least this area.
DARK_DIE_CORE_MM = 4.5
DARK_DIE_MM2 = 120.0
DARK_DIE_MAX_MM2 = 1100.0  # a d4 of 30 mm with its sides, a d6 of 25 mm with two
DARK_DIE_SOLIDITY = 0.7
# A stick of the felt's own colour (bare wood on a beige felt) only hides the felt's texture:
# a region that hides it, a stick's or the yes/no stick's size (with what blur and chance
# matches add or take), once the chance matches narrower than a stick's face are opened away.
PALE_STICK_MM2 = (0.6 * STICK_MM[0] * STICK_MM[1], 1.3 * 150.0 * 20.0)  # the yes/no's 150 x 20
PALE_OPENING_MM = 12.0
# The rectangle of such a region: a stick's length to the yes/no stick's, at most its width
# (as ``vision.shapes`` measures blobs, the sides seen in perspective and blur included).
PALE_STICK_LENGTH_MM = (100.0, 182.0)
PALE_STICK_WIDTH_MM = 32.0
PALE_FOUND_SHARE = 0.3  # a region this much changed anyway is an implement already found
# A die of the felt's own colour (a beige d4 on a beige felt, dev 0174) hides the texture
# too, its numerals or pips the only changes. The felt's texture is also lost by chance, in
# regions up to 149 mm² with an inner circle of 5.3 mm on the dev set's frames: a pale die
# is looked for only as large as a d6's top face (``SMALLEST_IMPLEMENT_MM2``) and apart from
# every change large enough to be an implement (that implement's own part, or its shadow).
PALE_DIE_APART_MM = 2.0
# Where the felt's fine texture is faint beside the camera's noise, it is lost by chance
# over regions as large as a stick: sticks of the felt's colour are then not looked for
# (one short, the throw is refused). The felt's median texture correlation with the empty
# tray: 0.76-0.91 on the dev frames with such a stick, 0.84 on generated felts; noise of
# 3 grey levels in the frame and the empty tray brought three dev felts to 0.28-0.32, where
# chance losses were taken for sticks.
PALE_FELT_TEXTURE = 0.5
# The light or the camera's exposure changed since calibration when the felt's median
# colour moved by more than this share in a channel.
RELIGHT_SHARE = 0.02
# A tilted camera's picture is rectified fast (linear) to find the implements, then each
# blob's box and this much round it drawn sharp (cubic) to read them: a d4's fit and the
# faces' widths look a few millimetres past the blob.
SHARP_MARGIN_MM = 10.0
FELT_SAMPLING = 4  # every 4th pixel of every 4th row of the floor (analysis size)
# A lamp close above the tray casts a shadow deeper than SHADOW_DEPTH, and may cast it apart
# from its implement. On a coloured felt, a shadow that deep keeps the felt's hue and grows
# more saturated (the camera's black level lifts the felt's own channel least); black paint
# is grey. A blob smaller than a d6's top face, this dark, of the felt's hue and at least its
# saturation, and even, is such a shadow. On a felt nearer grey, hue tells nothing: the rule
# is off. A dark die of the felt's hue is as dark, but not even: its pips or numerals, and
# its faces lit unlike, are lighter than its body (the brightest 5 % of a die's inside 1.5
# to 4.5 times its median on generated dice of 12-20 mm; 1.1 times in dev 0031's shadow).
SHADE_FELT_SATURATION = 0.2
SHADE_DARKNESS = 0.5  # the blob's brightness (HSV value) at most this share of the felt's
SHADE_HUE_DEG = 30.0
SHADE_EVENNESS = 1.3  # a shadow's brightest 5 % inside at most this share of its median
SHADE_NOISE = 10.0  # ... or this many grey levels over it: noise is large in a dark shadow

Mask = NDArray[np.uint8]
Contour = NDArray[np.int32]


@dataclass(frozen=True)
class Blob:
    """One connected region of foreground, measured on the floor."""

    contour: Contour  # full-frame pixels
    box: Box
    length_mm: float
    width_mm: float
    angle_deg: float  # of the long side, degrees in the image
    area_mm2: float
    solidity: float  # area / convex hull area
    touches_border: bool
    outside_mm: float  # how far it reaches beyond the floor
    beyond_floor: bool = False  # wholly outside the floor
    pale: bool = False  # a die of the felt's colour, found by the texture it hides alone

    @property
    def wall_light(self) -> bool:
        """Too small for an implement, wholly beyond the floor and not cut by the border."""
        return (
            self.beyond_floor and not self.touches_border and self.area_mm2 < SMALLEST_IMPLEMENT_MM2
        )

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box.x0 + self.box.x1) / 2, (self.box.y0 + self.box.y1) / 2)


@dataclass(frozen=True)
class Foreground:
    mask: Mask  # half-size, 255 where something is
    blobs: tuple[Blob, ...]
    frame: Image  # the frame as compared with the empty tray: moved and turned back, relit
    # Where the picture put each of the empty tray's pixels (2 x 3, working pixels); None:
    # where it was.
    motion: Motion | None = None

    @property
    def shift(self) -> tuple[int, int]:
        """How far the picture's middle moved from the empty tray's (whole pixels)."""
        height, width = self.frame.shape[:2]
        return moved_by(self.motion, width / 2, height / 2)

    @property
    def to_follow(self) -> bool:
        """Whether the empty tray is better moved to the picture than the picture moved
        back (see :func:`~vision.align.follows`)."""
        return self.motion is not None and follows(self.motion)

    def as_taken(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Points (n, 2) of :attr:`frame` where they lie in the working picture as taken:
        the move back undone (by the whole pixels it moved, or turned)."""
        if self.motion is None:
            return points
        if turns(self.motion):
            return np.asarray(points @ self.motion[:, :2].T + self.motion[:, 2], np.float64)
        return np.asarray(points + np.array(moved_by(self.motion, 0.0, 0.0)), np.float64)

    def placed(self, box: Box) -> Box:
        """Where a box found on the frame moved back lies in the picture as it was taken:
        moved as its middle was."""
        dx, dy = moved_by(self.motion, (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
        return box.moved(dx, dy)


# Every grey level's log, looked up rather than computed: np.log on the half-size frame took
# about 3 ms of each reading, the look-up 0.6 ms.
_LOG_LEVELS = np.log(np.arange(256, dtype=np.float32) + DARK_OFFSET).astype(np.float32)


def log_picture(image: Image) -> NDArray[np.float32]:
    """The picture's log, an offset added so that sensor noise in the dark, shaded walls
    does not look like change."""
    return np.asarray(cv2.LUT(image, _LOG_LEVELS), np.float32)


def change_from_empty(
    log_frame: NDArray[np.float32], log_empty: NDArray[np.float32], sampling: int = 1
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """How a picture changed from the empty tray (both as :func:`log_picture`): its change
    of brightness (log ratio, the channels' mean) and of hue (the channels' largest move
    apart from that mean: a shadow darkens every channel alike). The exposure's drift is
    taken out: the typical pixel (every ``sampling``-th) is felt, so its change is the
    camera's."""
    ratio = np.asarray(cv2.subtract(log_frame, log_empty), np.float32)
    drift = channel_median(ratio[::sampling, ::sampling].reshape(-1, 3))
    # (numpy's channel views: cv2.split copies the planes out several times slower)
    channels = [ratio[..., k] - float(d) for k, d in enumerate(drift)]
    brightness = (channels[0] + channels[1] + channels[2]) / 3.0
    hue_shift = np.maximum(
        np.maximum(cv2.absdiff(channels[0], brightness), cv2.absdiff(channels[1], brightness)),
        cv2.absdiff(channels[2], brightness),
    )
    return np.asarray(brightness, np.float32), np.asarray(hue_shift, np.float32)


def channel_median(pixels: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each channel's median of pixels (n, channels), as ``np.median(pixels, axis=0)``
    gives it; every reading takes dozens. With numpy 2, a sixth of its time on thousands
    of pixels (with numpy 1.24, the Pi's, partitioning costs about as much either way).
    Each channel is partitioned as one row: across the pixels' short rows, numpy's
    partition and maximum are several times slower, and partitioning at two places (an
    even count's middle pair) slower again than partitioning at the upper one and taking
    the lower as the largest below it."""
    half = len(pixels) // 2
    channels = np.partition(np.ascontiguousarray(pixels.T), half, axis=1)
    high = channels[:, half]
    if len(pixels) % 2:
        return np.asarray(high, np.float32)
    return np.asarray((channels[:, :half].max(axis=1) + high) / 2, np.float32)


def byte_median(pixels: NDArray[np.uint8]) -> NDArray[np.float64]:
    """Each channel's median of pixels (n, channels) of bytes, as :func:`channel_median`
    gives it, from each channel's histogram: a sixth of its time on the 17,000 felt
    pixels a frame's light is told from."""
    count = len(pixels)
    medians = np.empty(pixels.shape[1])
    for channel in range(pixels.shape[1]):
        below = np.bincount(pixels[:, channel], minlength=256).cumsum()
        # The value at sorted place i is the first whose running count passes i.
        low = np.searchsorted(below, (count - 1) // 2 + 1)
        high = np.searchsorted(below, count // 2 + 1)
        medians[channel] = (low + high) / 2
    return medians


class Segmenter:
    """Compares frames with one calibrated tray; prepares what is reused for every frame."""

    def __init__(self, tray: Tray) -> None:
        self.tray = tray
        empty_small = _shrunk(tray.empty)
        self._empty = self._prepare(empty_small)
        self._px_per_mm = tray.px_per_mm * ANALYSIS_SCALE
        h, w = self._empty.shape[:2]
        floor = np.zeros((h, w), np.uint8)
        polygon = (tray.floor * ANALYSIS_SCALE).astype(np.int32)
        cv2.fillConvexPoly(floor, polygon, 255)
        self._outside_px = cv2.distanceTransform(255 - floor, cv2.DIST_L2, 3)
        self._floor = floor
        empty_smooth, self._empty_detail = _smooth_and_detail(empty_small)
        window = (TEXTURE_WINDOW, TEXTURE_WINDOW)
        self._empty_power = cv2.boxFilter(self._empty_detail**2, -1, window)
        bridge = max(3, round(BRIDGE_MM * self._px_per_mm) | 1)
        self._bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (bridge, bridge))
        edges = EdgeAlignment(empty_smooth, tray.floor * ANALYSIS_SCALE, self._px_per_mm)
        self._alignment = Alignment(tray.empty, self._empty_detail, floor, edges)
        self._felt_colour = self._felt_median(empty_small)
        self._felt_hsv = _hsv(self._felt_colour[None])[0]
        self._uneven = UnevenLight(empty_small, floor, self._px_per_mm)

    @staticmethod
    def _prepare(small: Image) -> NDArray[np.float32]:
        return log_picture(np.asarray(cv2.GaussianBlur(small, (3, 3), 0), np.uint8))

    def _mask(self, small: Image, detail: NDArray[np.float32]) -> tuple[Mask, Mask]:
        """What changed from the empty tray, closed and filled; with the pale dice found
        in it (see :meth:`_pale_dice`)."""
        log_frame = self._prepare(small)
        brightness, hue_shift = change_from_empty(log_frame, self._empty, DRIFT_SAMPLING)
        strong = _compared(hue_shift, cv2.CMP_GT, HUE_CHANGE)
        strong |= _compared(brightness, cv2.CMP_GT, BRIGHTNESS_CHANGE)  # lighter
        strong |= _compared(brightness, cv2.CMP_LT, SHADOW_DEPTH)  # much darker
        strong = np.asarray(cv2.morphologyEx(strong, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
        # A darkening that keeps the hue is a shadow, or a dark band of paint: it is kept
        # only where it lies between parts of an object, as bands do and shadows rarely do.
        darker = _compared(brightness, cv2.CMP_LT, -BRIGHTNESS_CHANGE)
        kept = self._texture_kept(detail)
        felt_texture = self._felt_texture(kept)
        lost = min(TEXTURE_KEPT, TEXTURE_LOST_SHARE * felt_texture)
        paint = _compared(kept, cv2.CMP_LT, lost)
        hidden = np.asarray(darker & paint, np.uint8)
        dark = self._dark_implements(hidden, strong)
        mask = strong | self._bridged(strong, hidden) | dark
        pale = np.zeros_like(mask)
        if felt_texture >= PALE_FELT_TEXTURE:
            mask |= self._pale_sticks(np.asarray(paint & (255 - darker), np.uint8), strong)
            pale = self._pale_dice(paint, strong | dark)
            mask |= pale
        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        return _filled(np.asarray(closed, np.uint8)), pale

    def _bridged(self, strong: Mask, hidden: Mask) -> Mask:
        """The darkenings that hide the felt's texture (``hidden``) and lie between parts
        of ``strong`` changes, no further apart than a bridge.

        The closing is worked out only round ``hidden``: a closed pixel depends on the
        changes within twice the bridge's radius, so a margin of the bridge's width keeps
        it exact. On generated frames: 0.37 ms a frame (median), 0.91 ms for the whole closing.
        """
        x, y, w, h = cv2.boundingRect(hidden)
        bridged = np.zeros_like(hidden)
        if not w:
            return bridged
        margin = self._bridge.shape[0]
        x0, y0 = max(x - margin, 0), max(y - margin, 0)
        x1, y1 = min(x + w + margin, hidden.shape[1]), min(y + h + margin, hidden.shape[0])
        closed = cv2.morphologyEx(strong[y0:y1, x0:x1], cv2.MORPH_CLOSE, self._bridge)
        bridged[y : y + h, x : x + w] = closed[y - y0 : y - y0 + h, x - x0 : x - x0 + w]
        return np.asarray(bridged & hidden, np.uint8)

    def _dark_implements(self, hidden: Mask, strong: Mask) -> Mask:
        """Darkenings that hide the felt's texture and hold a whole implement on the floor
        (``hidden``; ``strong``: the changes kept anyway).

        A black stick or die on a dark grey felt darkens it without changing its hue, as a
        shadow does; but a shadow keeps the felt's texture, and none is as wide and as long
        as a stick on its own, or as wide as a die's top all round: a region where a band of
        a stick's width (less its blurred sides) runs the stick's length (less its ends), or
        with a die's inner circle (less its blurred sides), is an implement. A dark die's
        own marks (painted tips, numerals, pips: changes too small to be an implement) are
        part of it: without its white tips, a black d4's faces are a triangle with its
        corners cut off, too far from convex to be a die.
        """
        # Searched at half the analysis size: the texture test is noisy pixel by pixel, and
        # the averaging closes its small holes and drops its specks.
        dark = np.asarray(hidden & (255 - strong), np.uint8)
        coarse = _halved(dark & self._floor)
        if not coarse.any():  # marks alone are too small to hold an implement
            return np.zeros_like(hidden)
        px_per_mm = self._px_per_mm * 0.5
        coarse |= _small_marks(_halved(strong), MIN_BLOB_MM2 * px_per_mm**2)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(coarse)
        smallest = DARK_DIE_MM2 * px_per_mm**2
        found = np.zeros_like(coarse)
        for label in range(1, count):
            if stats[label, cv2.CC_STAT_AREA] < smallest:
                continue
            x, y, w, h = (int(v) for v in stats[label, :4])
            region = (labels[y : y + h, x : x + w] == label).astype(np.uint8)
            if _holds_an_implement(region, px_per_mm):
                found[y : y + h, x : x + w][region > 0] = 255
        if not found.any():
            return np.zeros_like(hidden)
        grown = cv2.resize(found, (dark.shape[1], dark.shape[0]), interpolation=cv2.INTER_NEAREST)
        return np.asarray(cv2.dilate(grown, np.ones((3, 3), np.uint8)), np.uint8) & dark

    def _felt_texture(self, kept: NDArray[np.float32]) -> float:
        """How well the felt's texture shows through the camera's noise: the median of
        its correlation with the empty tray's (``kept``, see :meth:`_texture_kept`) over
        the floor, which implements cover little of."""
        step = FELT_SAMPLING
        floor = self._floor[::step, ::step] > 0
        return float(np.median(kept[::step, ::step][floor]))

    def _pale_sticks(self, paint: Mask, strong: Mask) -> Mask:
        """Sticks of the felt's own colour: neither lighter, darker nor of another hue, they
        only hide the felt's texture (``paint``: where it is hidden without darkening, which
        shadows and paint bands do; ``strong``: the changes kept anyway).

        Without them, a plain yes/no stick on a felt of its wood went unseen and the throw
        read as one without it. A region of the floor that hides the texture and is not
        otherwise changed, of a stick's size, that holds a stick's band along a stick's
        length once the texture's chance mismatches are opened away, is a stick: the
        rectangle of the region's moments is added (its outline is as ragged as the chance
        mismatches along it). A felt without texture hides none everywhere: one region,
        too large to be a stick.
        """
        px_per_mm = self._px_per_mm * 0.5
        coarse = _halved(np.asarray(paint & (255 - strong) & self._floor, np.uint8))
        # Outlines rather than labelled components: a tenth of the time, holes filled.
        outlines, _ = cv2.findContours(coarse, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        smallest, largest = (a * px_per_mm**2 for a in PALE_STICK_MM2)
        size = max(3, round(PALE_OPENING_MM * px_per_mm) | 1)
        opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        found = np.zeros_like(coarse)
        changed: Mask | None = None
        for outline in outlines:
            if not smallest <= cv2.contourArea(outline) <= largest:
                continue
            x, y, w, h = cv2.boundingRect(outline)
            # Room around the region, so that the opening's erosion also works from outside.
            region = np.zeros((h + 2 * size, w + 2 * size), np.uint8)
            cv2.drawContours(region, [outline], -1, 255, cv2.FILLED, offset=(size - x, size - y))
            region = np.asarray(cv2.morphologyEx(region, cv2.MORPH_OPEN, opening), np.uint8)
            if not region.any() or not _holds_a_stick(region, px_per_mm):
                continue
            corners, sides = _moment_rectangle(region)
            length, width = (side / px_per_mm for side in sides)
            if not (PALE_STICK_LENGTH_MM[0] <= length <= PALE_STICK_LENGTH_MM[1]) or (
                width > PALE_STICK_WIDTH_MM
            ):
                continue
            stick = np.zeros_like(coarse)
            cv2.fillPoly(stick, [corners + np.array([x - size, y - size], np.int32)], 255)
            changed = _halved(strong) if changed is None else changed
            if float(np.mean(changed[stick > 0] > 0)) <= PALE_FOUND_SHARE:
                found |= stick
        if not found.any():
            return np.zeros_like(paint)
        size_px = (paint.shape[1], paint.shape[0])
        return np.asarray(cv2.resize(found, size_px, interpolation=cv2.INTER_NEAREST), np.uint8)

    def _pale_dice(self, paint: Mask, found: Mask) -> Mask:
        """Dice of the felt's own colour, which nothing else found (``found``: the changes
        and the dark implements): regions of the floor that hide the felt's texture
        (``paint``, lit or shaded alike: a die's faces are both), their holes (the die's
        own marks: numerals, pips) filled, with nothing larger than a mark found beside
        them, as large and as round as a die's top (see ``PALE_DIE_APART_MM``). Searched at
        half the analysis size, as :meth:`_dark_implements` searches; by outlines, as
        :meth:`_pale_sticks` searches."""
        px_per_mm = self._px_per_mm * 0.5
        coarse = _halved(np.asarray(paint & (255 - found) & self._floor, np.uint8))
        outlines, _ = cv2.findContours(coarse, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        smallest = SMALLEST_IMPLEMENT_MM2 * px_per_mm**2
        margin = max(1, round(PALE_DIE_APART_MM * px_per_mm))
        marks = MIN_BLOB_MM2 * px_per_mm**2
        changes: Mask | None = None
        dice = []
        for outline in outlines:
            if cv2.contourArea(outline) < smallest:
                continue
            x, y, w, h = cv2.boundingRect(outline)
            region = np.zeros((h + 2 * margin, w + 2 * margin), np.uint8)
            cv2.drawContours(region, [outline], -1, 1, cv2.FILLED, offset=(margin - x, margin - y))
            if not _holds_a_die(region, px_per_mm):
                continue
            changes = _halved(found) if changes is None else changes
            corner = (x - margin, y - margin)
            if not _found_beside(changes, region, corner, margin, marks):
                dice.append(_pale_die_outline(region, corner))
        pale = np.zeros_like(paint)
        cv2.drawContours(pale, [die for die in dice if die is not None], -1, 255, cv2.FILLED)
        return pale

    def _texture_kept(self, detail: NDArray[np.float32]) -> NDArray[np.float32]:
        """Local correlation of the felt's fine texture (``detail``: see :func:`_detail`)
        with the empty tray's.

        A shadow dims the felt but its texture stays where it was; paint hides it.
        """
        window = (TEXTURE_WINDOW, TEXTURE_WINDOW)
        cross = cv2.boxFilter(detail * self._empty_detail, -1, window)
        power = cv2.boxFilter(detail * detail, -1, window)
        return np.asarray(cross / np.sqrt(power * self._empty_power + 1e-3), np.float32)

    def shift(self, frame: Image) -> tuple[int, int]:
        """How many whole working pixels (x, y) the frame moved from the empty tray: where the
        felt's texture in patches of the floor matches the empty tray's best, else where
        the tray's edges do. (0, 0) when neither tells (a felt without texture in a tray
        whose walls are as dark as it, a tray moved too far to tell)."""
        shift = self.fine_shift(frame)
        return (0, 0) if shift is None else (round(shift[0]), round(shift[1]))

    def fine_shift(self, frame: Image) -> tuple[float, float] | None:
        """How far (working pixels, x and y, to a fraction of one) the frame moved from
        the empty tray, as :meth:`shift` tells it; None when nothing tells."""
        small = _shrunk(self.tray.working(frame))
        alignment = self._alignment
        smooth, detail = _smooth_and_detail(small)
        return alignment.translation(alignment.matches(detail), smooth)

    def turn_and_size(self, frame: Image) -> tuple[float, float]:
        """By how many degrees the frame turned from the empty tray (counterclockwise on
        screen), and how many times larger the tray looks, where the felt's texture tells;
        (0, 1) when neither changed or it cannot tell."""
        alignment = self._alignment
        turn = alignment.turn(alignment.matches(self._frame_detail(frame)))
        if turn is None:
            return 0.0, 1.0
        degrees = -float(np.degrees(np.arctan2(turn[1, 0], turn[0, 0])))
        return degrees, float(np.hypot(turn[0, 0], turn[1, 0]))

    def aligned(self, frame: Image) -> Image:
        """The frame, at the working scale, moved and turned back onto the empty tray (see
        :meth:`shift` and :meth:`turn_and_size`); what would come from beyond the picture's
        border is the empty tray's."""
        working = self.tray.working(frame)
        small = _shrunk(working)
        smooth, detail = _smooth_and_detail(small)
        motion = self._alignment.motion(detail, smooth)
        return working if motion is None else self._alignment.put_back(working, motion)

    def _frame_detail(self, frame: Image) -> NDArray[np.float32]:
        return _detail(_shrunk(self.tray.working(frame)))

    def relit(self, frame: Image) -> Image:
        """The frame as the empty tray's light and exposure would show it: each channel
        scaled so that the felt (the floor's median colour: implements cover little of it)
        has the empty tray's colour. Colours are read against the profile's, and a room
        grown darker would otherwise turn a marked face plain. Where the light changed over
        a large part of the tray only (a player's shade), the frame is then relit pixel by
        pixel as well (``vision.light``)."""
        working = self.tray.working(frame)
        small = _shrunk(working)
        return self._relit(working, small, _detail(small))[0]

    def _relit(
        self, frame: Image, small: Image, detail: NDArray[np.float32]
    ) -> tuple[Image, NDArray[np.float64] | None, LightField | None]:
        """The frame relit (see :meth:`relit`), from itself at analysis size (``small``)
        and its fine texture there (``detail``); with the gains and the light field it
        was relit by (None: none was needed)."""
        gains = self._gains(small)
        field = self._uneven.field(small, gains, lambda: self._texture_kept(detail))
        lit = _lit(frame, gains, field)
        return lit, gains, field

    def _gains(self, small: Image) -> NDArray[np.float64] | None:
        """Each channel's gain that gives the felt the empty tray's colour; None: the light
        did not change."""
        gains = self._felt_colour / np.maximum(self._felt_median(small), 1.0)
        return None if float(np.abs(gains - 1.0).max()) <= RELIGHT_SHARE else gains

    def _felt_median(self, small: Image) -> NDArray[np.float64]:
        step = FELT_SAMPLING
        floor = self._floor[::step, ::step] > 0
        return byte_median(small[::step, ::step][floor])

    def foreground(self, frame: Image, *, turn_back: bool = True) -> Foreground:
        """The implements' blobs, once the frame is moved back onto the empty tray and
        relit as it was (see :meth:`aligned` and :meth:`relit`); the frame so changed
        comes with them, to read the implements from. Everything is at the working scale
        (see :class:`~vision.tray.Tray`).

        Without ``turn_back``, a frame whose tray turned, was resized or moved by a
        fraction of a pixel (see :func:`~vision.align.follows`) is not compared: its
        foreground holds only that motion, for a caller that follows the knocked tray
        instead (``Reader``), which would have turned the frame back for nothing."""
        picture = frame
        frame = self.tray.working(picture, sharp=False)
        small = _shrunk(frame)
        smooth, detail = _smooth_and_detail(small)
        motion = self._alignment.motion(detail, smooth)
        if not turn_back and motion is not None and follows(motion):
            return Foreground(np.zeros(small.shape[:2], np.uint8), (), frame, motion)
        moved = frame if motion is None else self._alignment.put_back(frame, motion)
        if moved is not frame:
            small = _shrunk(moved)
            detail = _detail(small)
        lit, gains, field = self._relit(moved, small, detail)
        if lit is not moved:
            # The small frame relit as the frame was: a quarter of the time of shrinking
            # the frame again. Its texture is left as it was: the texture's tests are
            # correlations, which a change of light (smooth over a few pixels) leaves.
            small = _lit(small, gains, field)
        mask, pale = self._mask(small, detail)
        seen = _seen(mask.shape, None if moved is frame else motion)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        blobs = []
        for contour in contours:
            blob = self._blob(np.asarray(contour, np.int32), seen)
            # An arm reaches in from the picture's border: it is never cut into parts.
            divisible = blob.solidity < SPLIT_SOLIDITY and not blob.touches_border
            parts = self._parts(np.asarray(contour, np.int32), seen) if divisible else []
            blobs.extend(parts or [blob])
        kept = [
            b
            for b in blobs
            if b.area_mm2 >= _least_area(b) and not b.wall_light and not self._deep_shade(b, small)
        ]
        found = tuple(_as_found(b, pale) for b in kept if not self._shade_on_wall(b, kept))
        sharp = self._sharpened(picture, lit, found, motion, gains, field)
        return Foreground(mask, found, sharp, motion)

    def _sharpened(
        self,
        picture: Image,
        frame: Image,
        blobs: tuple[Blob, ...],
        motion: Motion | None,
        gains: NDArray[np.float64] | None,
        field: LightField | None,
    ) -> Image:
        """The frame (rectified fast, moved back and relit) with the blobs and what lies
        round them drawn sharp, to read them from. Where the frame was moved back (rare: a
        knocked tray), the whole of it is drawn again."""
        if self.tray.keystone is None or not blobs:
            return frame
        if motion is not None:
            whole = self._alignment.put_back(self.tray.working(picture), motion)
            return _lit(whole, gains, field)
        margin = round(SHARP_MARGIN_MM * self.tray.px_per_mm)
        boxes = [blob.box.grown(margin) for blob in blobs]
        for box, part in self.tray.sharp_parts(picture, boxes):
            lit = _lit(part, gains, field, box)
            frame[box.y0 : box.y1, box.x0 : box.x1] = lit
        return frame

    def _shade_on_wall(self, blob: Blob, blobs: list[Blob]) -> bool:
        """Whether a blob wholly beyond the floor and smaller than any implement (the border
        cuts it: others are wall light) lies near an implement on the floor: that implement's
        light or shade on the wall (see ``WALL_SHADE_REACH_MM``)."""
        if not (blob.beyond_floor and blob.area_mm2 < SMALLEST_IMPLEMENT_MM2):
            return False
        reach = WALL_SHADE_REACH_MM * self.tray.px_per_mm  # contours are in full-frame pixels
        points = blob.contour.reshape(-1, 2).astype(np.float32)
        return any(
            not other.beyond_floor and _nearest(points, other.contour) <= reach for other in blobs
        )

    def _deep_shade(self, blob: Blob, small: Image) -> bool:
        """Whether a blob is a deep shadow cast apart from its implement (see
        ``SHADE_FELT_SATURATION``); ``small``: the frame at analysis size, relit."""
        felt_hue, felt_saturation, felt_value = self._felt_hsv
        if blob.area_mm2 >= SMALLEST_IMPLEMENT_MM2 or felt_saturation < SHADE_FELT_SATURATION:
            return False
        region = np.zeros(small.shape[:2], np.uint8)
        contour = np.asarray(np.round(blob.contour * ANALYSIS_SCALE), np.int32)
        cv2.drawContours(region, [contour], -1, 255, cv2.FILLED)
        pixels = small[region > 0].astype(np.float64)
        if not len(pixels):
            return False
        hue, saturation, value = _hsv(np.median(pixels, axis=0)[None])[0]
        hue_apart = abs((hue - felt_hue + 180.0) % 360.0 - 180.0)
        shaded = (
            value <= SHADE_DARKNESS * felt_value
            and hue_apart <= SHADE_HUE_DEG
            and saturation >= felt_saturation
        )
        return shaded and _even(small, region)

    def _parts(self, contour: NDArray[np.int32], seen: Seen) -> list[Blob]:
        """Implements that touch only at a corner or an end: the narrow joint is cut.

        Each part is what survives a shrinking by ``SPLIT_MM``, grown back inside the
        outline; nothing is cut when the shrunk outline stays in one piece.
        """
        region = np.zeros(self._outside_px.shape, np.uint8)
        cv2.drawContours(region, [contour], -1, 1, -1)
        size = max(3, round(2 * SPLIT_MM * self._px_per_mm) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        count, labels = cv2.connectedComponents(cv2.erode(region, kernel))
        if count < 3:
            return []
        parts = []
        for label in range(1, count):
            core = (labels == label).astype(np.uint8)
            grown = np.asarray(cv2.dilate(core, kernel), np.uint8) & region
            found, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            parts.append(self._blob(np.asarray(max(found, key=cv2.contourArea), np.int32), seen))
        return parts

    def floor_part(self, blob: Blob) -> Blob | None:
        """The part of a blob that lies on the floor, measured alone (None: no part does)."""
        region = np.zeros_like(self._floor)
        contour = np.asarray(np.round(blob.contour * ANALYSIS_SCALE), np.int32)
        cv2.drawContours(region, [contour], -1, 255, cv2.FILLED)
        found, _ = cv2.findContours(
            region & self._floor, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
        )
        if not found:
            return None
        return self.measure(np.asarray(max(found, key=cv2.contourArea), np.int32))

    def measure(self, contour: Contour) -> Blob:
        """The blob of an outline drawn at analysis size (half the frame)."""
        return self._blob(contour, _seen(self._outside_px.shape, None))

    def _blob(self, contour: Contour, seen: Seen) -> Blob:
        scale = self._px_per_mm
        (_, _), (w, h), angle = cv2.minAreaRect(contour)
        length, width = (w, h) if w >= h else (h, w)
        if w < h:
            angle += 90.0
        area = cv2.contourArea(contour)
        x, y, bw, bh = cv2.boundingRect(contour)
        x0, y0, x1, y1 = seen
        touches = x <= x0 + 1 or y <= y0 + 1 or x + bw >= x1 - 1 or y + bh >= y1 - 1
        points = contour.reshape(-1, 2)
        outside_px = self._outside_px[points[:, 1], points[:, 0]]
        full = 1.0 / ANALYSIS_SCALE
        return Blob(
            contour=(contour * full).astype(np.int32),
            box=Box(int(x * full), int(y * full), int((x + bw) * full), int((y + bh) * full)),
            length_mm=length / scale,
            width_mm=width / scale,
            angle_deg=float(angle % 180.0),
            area_mm2=area / scale**2,
            solidity=_solidity(contour),
            touches_border=touches,
            outside_mm=float(outside_px.max()) / scale,
            beyond_floor=bool(outside_px.min() > 0),
        )


# Where the camera's picture lies in the frame compared (analysis pixels: x0, y0, x1, y1
# past the last): a blob reaching its edge is cut by the picture's border.
Seen = tuple[int, int, int, int]


def _seen(shape: tuple[int, ...], moved_back: Motion | None) -> Seen:
    """The picture's place in a frame of ``shape`` (analysis size), once moved back by
    whole pixels (``moved_back``: the motion undone; None: not moved). The strip the move
    uncovers holds the empty tray: an implement cut by the picture's border, ending at the
    strip, must still touch the border, or a die lying off the tray at the picture's edge
    would be left out of the throw, not refuse it. A frame turned or resized back is not
    told: its picture's place is no rectangle. The reader follows such a frame instead of
    putting it back (its picture keeps its own border); enrolment and the labelled sets'
    tools put it back, and an implement cut by the border may then be seen whole there."""
    height, width = shape[0], shape[1]
    if moved_back is None or turns(moved_back):
        return 0, 0, width, height
    dx, dy = (ANALYSIS_SCALE * v for v in moved_by(moved_back, 0.0, 0.0))
    left, top = max(0, math.ceil(-dx)), max(0, math.ceil(-dy))
    return left, top, min(width, math.floor(width - dx)), min(height, math.floor(height - dy))


# A blob mostly of pale dice (see Segmenter._pale_dice) is one: nothing else found lies
# beside a pale die, and the closing adds only its blurred edge.
PALE_BLOB_SHARE = 0.5


def _as_found(blob: Blob, pale: Mask) -> Blob:
    """The blob, marked ``pale`` when it is mostly pale dice (``pale``: analysis size)."""
    box = blob.box
    x0, y0, x1, y1 = (round(v * ANALYSIS_SCALE) for v in (box.x0, box.y0, box.x1, box.y1))
    around = pale[y0 : y1 + 1, x0 : x1 + 1]
    if not around.any():
        return blob
    region = np.zeros_like(around)  # the blob drawn within its box alone
    contour = np.asarray(np.round(blob.contour * ANALYSIS_SCALE), np.int32)
    cv2.drawContours(region, [contour], -1, 255, cv2.FILLED, offset=(-x0, -y0))
    inside = region > 0
    share = float(np.mean(around[inside] > 0)) if inside.any() else 0.0
    return replace(blob, pale=True) if share > PALE_BLOB_SHARE else blob


def _nearest(points: NDArray[np.float32], contour: Contour) -> float:
    """How far the nearest of ``points`` lies outside ``contour`` (0: on or inside it)."""
    outline = contour.reshape(-1, 1, 2).astype(np.float32)
    inside = (cv2.pointPolygonTest(outline, (float(x), float(y)), True) for x, y in points)
    return max(0.0, -max(inside))


def _hsv(bgr: NDArray[np.float64]) -> NDArray[np.float64]:
    """Colours (n, 3: blue, green, red, 0-255) as hue (degrees), saturation and value (0-1)."""
    as_image = np.asarray(bgr[None] / 255.0, np.float32)
    return np.asarray(cv2.cvtColor(as_image, cv2.COLOR_BGR2HSV)[0], np.float64)


def _even(small: Image, region: Mask) -> bool:
    """Whether a region (255 inside) is evenly dark within its blurred outline, as a
    shadow is and a die with its marks is not (see ``SHADE_EVENNESS``)."""
    inside = cv2.erode(region, np.ones((3, 3), np.uint8)) > 0
    if not inside.any():
        return True
    brightness = small[inside].max(axis=1).astype(np.float64)  # HSV value, 0-255
    middle = float(np.median(brightness))
    brightest = float(np.percentile(brightness, 95))
    return brightest <= max(SHADE_EVENNESS * middle, middle + SHADE_NOISE)


def _halved(mask: Mask) -> Mask:
    """A mask at half its size, a pixel set where most of the four it covers were."""
    halved = cv2.resize(mask, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.threshold(halved, 127, 255, cv2.THRESH_BINARY)[1], np.uint8)


def _small_marks(mask: Mask, largest_px: float) -> Mask:
    """The parts of a mask smaller than ``largest_px`` pixels."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    small = stats[:, cv2.CC_STAT_AREA] < largest_px
    small[0] = False  # the background
    return np.asarray(np.take((small * 255).astype(np.uint8), np.asarray(labels, np.int32)))


def _holds_an_implement(region: Mask, px_per_mm: float) -> bool:
    """Whether a region (1 inside) holds a stick's band along a stick's length, or a die's
    inner circle (its numerals or pips, which changed colour, are holes in it)."""
    region = (_filled(region) > 0).astype(np.uint8)
    if _holds_a_die(region, px_per_mm):
        return True
    return region.sum() >= 0.7 * STICK_MM[0] * STICK_MM[1] * px_per_mm**2 and _holds_a_stick(
        region, px_per_mm
    )


def _pale_die_outline(region: Mask, origin: tuple[int, int]) -> Contour | None:
    """The outline (analysis pixels) of a pale die's region (1 inside, filled, at half the
    analysis size, its corner at ``origin`` there): the die's edges, which stand out from
    the felt, widen what the texture's window finds hidden by half its width all round,
    which is taken off; seen from above, a die lying on the floor is convex, the texture's
    outline is not. None: nothing is left."""
    grown = cv2.resize(region, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    spread = 2 * (TEXTURE_WINDOW // 2) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (spread, spread))
    points = cv2.findNonZero(cv2.erode(grown, kernel))
    if points is None:
        return None
    return np.asarray(cv2.convexHull(points + 2 * np.array(origin, np.int32)), np.int32)


def _found_beside(
    changes: Mask, region: Mask, corner: tuple[int, int], apart: int, mark_px: float
) -> bool:
    """Whether a change (``changes``) larger than a mark (``mark_px`` pixels) lies in
    ``region`` or within ``apart`` pixels of it (``region``: 1 inside, framed by ``apart``
    pixels; its corner at ``corner`` in ``changes``). Changes are measured in a window
    reaching a mark's size beyond the frame: one that reaches the window's edge may be
    larger than it shows there, and counts."""
    reach = max(3, round(float(np.sqrt(mark_px))))
    x0, y0 = corner[0] - reach, corner[1] - reach
    window = np.zeros((region.shape[0] + 2 * reach, region.shape[1] + 2 * reach), np.uint8)
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1 = min(x0 + window.shape[1], changes.shape[1])
    cy1 = min(y0 + window.shape[0], changes.shape[0])
    window[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = changes[cy0:cy1, cx0:cx1]
    if not window.any():
        return False
    _, labels, stats, _ = cv2.connectedComponentsWithStats(window)
    beside = np.zeros_like(window)
    grown = cv2.dilate(region, np.ones((2 * apart + 1, 2 * apart + 1), np.uint8))
    beside[reach : reach + region.shape[0], reach : reach + region.shape[1]] = grown
    height, width = window.shape
    for label in np.unique(labels[beside > 0]):
        if label == 0:
            continue
        left, top, w, h, area = (int(v) for v in stats[label])
        reaches_edge = left == 0 or top == 0 or left + w == width or top + h == height
        if area >= mark_px or reaches_edge:
            return True
    return False


def _holds_a_die(region: Mask, px_per_mm: float) -> bool:
    """Whether a region (1 inside, its holes filled: a die's numerals or pips changed
    colour) holds a die's inner circle and is shaped like a die (see :func:`_die_shaped`)."""
    padded = cv2.copyMakeBorder(region, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    inside = cv2.distanceTransform(padded, cv2.DIST_L2, 3)
    return float(inside.max()) >= DARK_DIE_CORE_MM * px_per_mm and _die_shaped(region, px_per_mm)


def _holds_a_stick(region: Mask, px_per_mm: float) -> bool:
    """Whether a region (1 inside, no holes) holds a band a stick's width less its blurred
    sides (12 mm) along a stick's length less its ends (92 mm)."""
    padded = cv2.copyMakeBorder(region, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    inside = cv2.distanceTransform(padded, cv2.DIST_L2, 3)
    core = inside >= (STICK_MM[1] - 4.0) / 2 * px_per_mm
    points = cv2.findNonZero(core.astype(np.uint8))
    if points is None:
        return False
    (_, _), (cw, ch), _ = cv2.minAreaRect(points)
    return bool(max(cw, ch) >= (STICK_MM[0] - STICK_MM[1] - 12.0) * px_per_mm)


def _moment_rectangle(region: Mask) -> tuple[Contour, tuple[float, float]]:
    """The corners and the sides (length, width) of the rectangle with a region's centre and
    second moments (a filled rectangle's variance along a side is its length squared over
    12)."""
    moments = cv2.moments(region, binaryImage=True)
    area = moments["m00"]
    centre = (moments["m10"] / area, moments["m01"] / area)
    spread = np.array([[moments["mu20"], moments["mu11"]], [moments["mu11"], moments["mu02"]]])
    variances, axes = np.linalg.eigh(spread / area)
    length, width = (float(np.sqrt(12.0 * max(v, 0.0))) for v in variances[::-1])
    angle = float(np.degrees(np.arctan2(axes[1, 1], axes[0, 1])))
    corners = cv2.boxPoints((centre, (length, width), angle))
    return np.asarray(np.round(corners), np.int32), (length, width)


def _die_shaped(region: Mask, px_per_mm: float) -> bool:
    """Convex and no larger than a die seen from above: a shadow that lost the felt's
    texture (dark felt hides it) trails along its implement, ragged and hollow."""
    if region.sum() > DARK_DIE_MAX_MM2 * px_per_mm**2:
        return False
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = np.asarray(max(contours, key=cv2.contourArea), np.int32)
    return _solidity(outline) >= DARK_DIE_SOLIDITY


def _solidity(contour: Contour) -> float:
    """An outline's area over its convex hull's (1 for a convex outline)."""
    hull = cv2.contourArea(cv2.convexHull(contour))
    return float(cv2.contourArea(contour) / hull) if hull > 0 else 0.0


def _lit(
    frame: Image,
    gains: NDArray[np.float64] | None,
    field: LightField | None = None,
    box: Box | None = None,
) -> Image:
    """The frame (or its part in ``box``) in the empty tray's light: each channel times its
    gain (None: as it is), rounded and kept in 0..255 (a 3x3 diagonal matrix: five times
    faster than a look-up table per channel); with a light field, by it as well."""
    if field is not None:
        return field.relit(frame, gains, box)
    if gains is None:
        return frame
    return np.asarray(cv2.transform(frame, np.diag(gains)), np.uint8)


def _least_area(blob: Blob) -> float:
    """The smallest blob kept: an implement cut by the picture's border shows less."""
    return MIN_CUT_BLOB_MM2 if blob.touches_border and blob.beyond_floor else MIN_BLOB_MM2


def _compared(values: NDArray[np.float32], comparison: int, level: float) -> Mask:
    """255 where ``values`` compare with ``level`` as ``comparison`` (``cv2.CMP_GT``...)
    says, else 0: OpenCV makes the mask in a third of numpy's time. The level is given as
    float32, the values' type, as numpy compares them: OpenCV 5.1 compares float32 values
    with a float64 level as float64, and values lying on the level fell on its other side."""
    return np.asarray(cv2.compare(values, np.array([level], np.float32), comparison), np.uint8)


def _shrunk(image: Image) -> Image:
    small = cv2.resize(
        image, None, fx=ANALYSIS_SCALE, fy=ANALYSIS_SCALE, interpolation=cv2.INTER_AREA
    )
    return np.asarray(small, np.uint8)


def _detail(small: Image) -> NDArray[np.float32]:
    """The fine texture of a frame at analysis size: grey level minus its blur."""
    return _smooth_and_detail(small)[1]


def _smooth_and_detail(small: Image) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """A frame at analysis size, grey, as its blur (which its edges are matched on: see
    ``vision.align.EdgeAlignment``) and its fine texture (grey level minus that blur)."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    smooth = np.asarray(cv2.GaussianBlur(grey, (0, 0), 2.0), np.float32)
    return smooth, np.asarray(grey - smooth, np.float32)


def _filled(mask: Mask) -> Mask:
    """The mask with its holes filled: a die's pips or a stick's bands may match the felt."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled
