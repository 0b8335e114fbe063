"""Counting the pips on the top face of a six-sided die.

Pips are small round marks that contrast with the die's body. Pips on the side faces, seen
at a slant, look flattened; only round ones of one size count, so a side face seen beside
the top face adds nothing. A count is trusted only when the pips are alike, lie on the
places a die puts them (a grid of three by three, spaced as a die's), and the face shows
nothing like a pip where that layout leaves it bare: a pip missed, or a mark that is not
a pip, is seen there and the die is refused. A face lit unevenly (a glossy die reflects
the lamp) is counted again with its body's shading taken out, and two counts that differ
are no reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.segment import Blob, channel_median
from vision.tray import CAMERA_HEIGHT_MM, Image, Tray

# A pip's width: 2 mm at least, and at most 5 mm or, on a larger die, 0.3 of its side (blur
# included). Wider, a mark is pips run together, or into a glint, and is parted.
PIP_DIAMETER_MM = (2.0, 5.0)
PIP_LARGEST_SHARE = 0.3
# A small die (12 mm is common) has pips of about 1.5-2 mm, a few pixels across: 1.3 mm at
# least, and the opening that keeps what is as wide as a pip (5 pixels, about 2 mm, on
# larger dice) is 3 pixels wide. Small: under 14 mm as read from its outline, which reads
# a die of 15-18 mm 1-2 mm short at times (its squeezed side pips then passed for pips).
SMALL_DIE_MM = 14.0
SMALL_PIP_MM = 1.3
PIP_CORE_PX = (3, 5)  # small dice, others
FACE_COLOUR_DISTANCE = 18.0  # Lab units from the top face's median colour
TOP_SLACK_MM = 1.5  # the top face may reach this far past where perspective puts it
SEED_INSET_MM = 2.5  # the top face's first guess, shrunk by this much, gives its colour
# The dice's sides: a common die is 16 mm, a large one 19 mm, a jumbo one up to 25 mm; below
# 15 mm the pips are a few pixels wide, and such dice are refused more often.
D6_SIDE_MM = (12.0, 26.0)
TOP_FACE_SIDE_MM = (12.0, 30.0)  # nearer the lens than the floor, less a rounded edge
TOP_FACE_SQUARENESS = 1.25
CORE_INSET_MM = 1.5  # the face's core: this far inside the region of the face's colour
PIP_REACH_MM = 2.0  # how far past the region of the face's colour a pip's centre may lie
PIPS_OFF_CENTRE = 0.14  # largest distance from the pips' mean to the face's centre, in sides
PIP_ROUNDNESS = 0.55  # short axis / long axis
# Blur runs a pip into its neighbour or into a glint along the face's edge: a mark too large
# for one pip is opened by a disc this wide (narrower than a pip, wider than a glint), and
# the round parts left are pips to try when the marks alone make no layout.
SPLIT_OPENING_MM = 2.5
PIP_CONTRAST = 30.0  # Lab colour distance (lightness 0-255) between a pip and the body
# A lamp's reflection on the top face is taken out before pips are looked for (``evened``):
# the body's colour is averaged over this spread (a reflection spreads over a quarter of
# the face or more), leaving out what differs from the median of a window this wide (about
# twice a pip) by this share of a pip's contrast; pixels where the body's weight is under
# EVEN_NEAR are too far from the face to be evened.
EVEN_SIGMA_MM = 2.5
EVEN_WINDOW_MM = 6.0
EVEN_MARK_SHARE = 0.5
EVEN_NEAR = 0.05
# A face whose colour covers this share of it or more, read as seen, is read so: the region
# of a die's colour covered 0.48 of its face or more for 95 % of the dev set's d6s read
# (0.86 on generated matt dice), 0.34 on the glossy 6 read as 2. A face read with less,
# or refused, is counted evened too.
WHOLE_FACE_SHARE = 0.6
PIP_SIZE_SPREAD = 2.6  # largest / smallest pip area
LAYOUT_TOLERANCE = 0.15  # largest difference of normalised distances between pips
SPOT_SHARE = 0.7  # contrast is compared averaged over a disc of this share of a pip's radius
# A round mark of the other paint (lighter where the pips are dark) in the bare square, half
# as contrasting as the pips: pale pips faded past PIP_CONTRAST beside darker marks of the
# rounded corners that passed for a 2 (generated dice compressed hard). 0.7 still let one
# such 4 through; 0.5 changed no other reading of the dev set, its copies or generated sets.
OTHER_PAINT_SHARE = 0.5
BARE_SHARE = 0.4  # where the face is bare, nothing contrasts this much (share of a pip's)
PLACE_BARE_SHARE = 0.3  # on an empty place of the grid, lighter or darker
CENTRE_BARE_SHARE = 0.12  # on the empty centre (a 2, 4 or 6), lighter or darker
# A reflection this light (Lab lightness, 0-255, over a few pips' breadth) on a die whose
# sides are this dark clips what lies under it: a face counted only once evened is refused
# (round 35). Glossy dice generated: white ones' sides 88-195, black ones' 14; the dev
# set's black 0136 tilted, 1.
WASHED_OUT_L = 225.0
DARK_SIDES_L = 60.0
SIDES_SEEN_MM2 = 3.0
# A lone pip's grid is assumed this many face sides apart. The side is the region of the
# face's colour, or the die's top as its outline tells when that is smaller: a black die's
# sides, as dark as its top, widen the region (generated seed 41, scene 54: 19.9 mm for a
# die of 17), and the corner places then fall on a side's pips along the top's edge.
ONE_PIP_PITCH = 0.28
BARE_REACH = 1.2  # the bare square around the layout's centre, in pitches: covers every place
# A lone pip's bare part: a disc of this radius (face sides), since its grid's turn is only
# assumed. A 5's corner pips lie 0.4 of a side out, and a blurred face's region of colour,
# which gives the side, is smaller than the face.
ONE_PIP_BARE_REACH = 0.45
ROUND_SPOT_FILL = 0.55  # a spot fills this share of its enclosing circle: a line does not
PIP_HALO_MM = 0.8  # a pip's blurred rim, left out of the bare part
# The faintest pip has at least this share of the strongest's contrast: the shaded corners
# of a small die's sides (0.56 of its pip's) made a 1 look like a 3; a die's own pips
# measured 0.73 or more on every set.
SAME_PAINT = 0.65
# From one pip to the next along a side: 3.3-9.5 mm for dice of 15-25 mm; at least 0.22 of
# the side on a smaller die (a die of 12 mm puts its pips about 3-3.7 mm apart).
PIP_PITCH_MM = (3.3, 9.5)
PIP_PITCH_SMALLEST_SHARE = 0.22
ON_PLACE = 0.35  # largest distance of a pip from its place on the grid, in pitches
SQUARE_CORNERS = 0.9  # how well the corner pips' directions agree on one square (0-1)
MAX_CANDIDATES = 9
# Marks outside the face's core that may be left out as not its pips: a side seen at a
# slant shows up to three along the top face's edge.
MAX_LEFT_OUT = 3
TOP_PIP_ROUNDNESS = 0.8  # ... unless they are this round
TOP_PIP_SIZE = 1.3  # ... and within this factor of the kept pips' sizes
LAYOUTS: dict[int, list[tuple[int, int]]] = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
_QUARTER_TURNS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # (cos, sin)
_PLACES = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
_PLACE_STEPS = np.asarray(_PLACES, np.float64)

Point = tuple[float, float]
Mask = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class PipCount:
    value: int | None
    confidence: float
    lying_flat: bool = True  # False: no square top face of the die's size was seen


@dataclass(frozen=True, slots=True)
class _Mark:
    area: float  # pixels
    centre: Point
    roundness: float = 1.0  # short side of its box over the long side


@dataclass(frozen=True, slots=True)
class _Face:
    """The top face as found, and the pips' contrast against its body."""

    region: Mask  # the region of the face's colour, made convex
    core: Mask  # well inside it, where a shaded edge is not
    top: Mask  # well inside where perspective puts the top face (the outline less the sides)
    contrast: NDArray[np.float32]  # signed colour distance from the body
    px_per_mm: float
    pitch_mm: tuple[float, float]  # the pips' spacing on this die, at least and at most
    xs: NDArray[np.float32]  # each pixel's column
    ys: NDArray[np.float32]  # each pixel's row
    top_side_px: float  # the die's top face as its outline tells (``die_side``), seen nearer


@dataclass(frozen=True, slots=True)
class _Grid:
    """The nine places a die puts pips: ``centre + pitch * (i, j)`` turned by ``angle``."""

    centre: Point
    angle: float  # radians
    pitch: float  # pixels; for a lone pip, assumed from the face's size
    half_side: float  # pixels: the square around the centre that is checked for bare face
    known_angle: bool = True  # False (a lone pip): a disc of radius half_side is checked

    places: NDArray[np.float64] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The nine places (pixels), in the order of ``_PLACES``."""
        c, s = np.cos(self.angle), np.sin(self.angle)
        turned = _PLACE_STEPS @ np.array([[c, s], [-s, c]])
        places = np.asarray(self.centre, np.float64) + self.pitch * turned
        object.__setattr__(self, "places", np.asarray(places, np.float64))


def die_side(blob: Blob, tray: Tray) -> float:
    """A d6's side (mm), from its outline alone: a cube is as tall as it is wide, and the
    top face is the outline less the sides that the lift for the die's height uncovers
    (see ``top_face``). A top face found with a height too low keeps some of the sides and
    comes out larger than that height seen from nearer the lens; too high, smaller. The
    side is the height of the sizes' range where the two agree best."""
    outline = _outline(blob)
    lens_mm = tray.camera_height_mm

    def misfit(side: float) -> float:
        top = top_face(outline, tray.lift(*blob.centre, side))
        seen_mm = float(np.sqrt(np.count_nonzero(top))) / tray.px_per_mm
        return abs(seen_mm - side * lens_mm / (lens_mm - side))

    sides = np.arange(D6_SIDE_MM[0], D6_SIDE_MM[1] + 0.5, 1.0)
    return min((float(side) for side in sides), key=misfit)


def _outline(blob: Blob) -> Mask:
    """The blob's outline, filled, in a crop of its box (from the box's corner, or the
    frame's when the box starts beyond it, as ``count_pips`` crops the frame)."""
    x0, y0 = max(0, blob.box.x0), max(0, blob.box.y0)
    outline = np.zeros((max(0, blob.box.y1 - y0), max(0, blob.box.x1 - x0)), np.uint8)
    cv2.drawContours(outline, [blob.contour - np.array([x0, y0])], -1, 1, -1)
    return outline


def top_face(inside: Mask, lift: tuple[float, float]) -> Mask:
    """The part of an implement's mask that is its top face.

    The outline is the top face and the footprint joined by the sides; the footprint is the
    top face moved back by ``lift`` (see ``Tray.lift``), so the outline moved forward by
    ``lift`` covers the top face and the outline only there.
    """
    shift = np.array([[1, 0, lift[0]], [0, 1, lift[1]]], np.float32)
    moved = cv2.warpAffine(inside, shift, (inside.shape[1], inside.shape[0]))
    return np.asarray(cv2.bitwise_and(inside, moved), np.uint8)


def face_of_one_colour(lab: NDArray[np.float32], inside: Mask, seed: Mask) -> Mask | None:
    """The top face: the region of the seed's colour around it, its marks included.

    Sides are shaded differently from the top, and a shadow joined to the outline is the
    felt's colour, darker: neither has the top face's colour. ``lab``: the crop in Lab.
    """
    if np.count_nonzero(seed) < 9:
        return None
    reference = channel_median(lab[seed > 0])
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


def signed_contrast(lab: NDArray[np.float32], face: Mask) -> NDArray[np.float32]:
    """Each pixel's colour distance (Lab) from the face's body, signed by lightness.

    Pips are white or black; on a coloured body they differ in hue as much as in lightness
    (pale pips on a red die are barely lighter than it), so the whole distance counts.
    """
    difference = lab - channel_median(lab[face > 0])
    distance = np.sqrt((difference**2).sum(axis=2))
    return np.asarray(np.where(difference[..., 0] < 0, -distance, distance), np.float32)


def count_pips(
    frame: Image,
    blob: Blob,
    px_per_mm: float,
    lift: tuple[float, float] = (0.0, 0.0),
    side_mm: float = 16.0,
    *,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
) -> PipCount:
    """The pips on the top face of a d6 whose outline is ``blob`` and whose side is
    ``side_mm`` (see ``die_side``); the top face is the footprint moved by ``lift``, and
    seen as large as a square of that side ``camera_height_mm`` below the lens less the
    die's height. A face refused as seen, or whose colour covers little of it, is counted
    evened too (see :func:`evened` and :func:`_agreed`)."""
    x0, y0, x1, y1 = blob.box.x0, blob.box.y0, blob.box.x1, blob.box.y1
    crop = frame[max(0, y0) : y1, max(0, x0) : x1]
    if crop.size == 0:
        return PipCount(None, 0.0)
    outline = _outline(blob)
    top = top_face(outline, lift)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    die = _Die(
        outline,
        top,
        _eroded(top, CORE_INSET_MM * px_per_mm),
        _PipBounds.of_die(side_mm),
        px_per_mm,
        side_mm * px_per_mm * camera_height_mm / (camera_height_mm - side_mm),
        *np.meshgrid(
            np.arange(crop.shape[1], dtype=np.float32), np.arange(crop.shape[0], dtype=np.float32)
        ),
    )
    as_seen, share = _count_on(lab, die)
    if as_seen.value is not None and share >= WHOLE_FACE_SHARE:
        return as_seen
    count = _agreed(as_seen, _count_on(evened(lab, top, px_per_mm), die)[0])
    if as_seen.value is None and count.value is not None and _washed_out(lab, die):
        return PipCount(None, 0.0)
    return count


def _washed_out(lab: NDArray[np.float32], die: _Die) -> bool:
    """Whether a reflection turns part of a dark die's top face near white, where evening
    cannot bring back what it clipped: a pip there is lost, and the face evened alone is
    not to be trusted. A glossy black 3 seen through a tilted camera, its face white but
    for two dark corners, was read 2 from them. A white die's face is that light anyway,
    and its dark pips stay: its sides, light too, tell it. A die whose sides do not show
    (below the lens) cannot tell which it is, and is taken as washed out: a white die
    there, counted only once evened, is refused."""
    inside = die.top_core > 0
    if not inside.any():
        return False
    window = max(3, round(EVEN_WINDOW_MM * die.px_per_mm) | 1)
    lightness = np.clip(lab[..., 0], 0, 255).astype(np.uint8)
    if float(cv2.medianBlur(lightness, window)[inside].max()) < WASHED_OUT_L:
        return False
    # The sides: the outline beyond the top face and its blurred rim (2 pixels).
    beside = np.asarray(cv2.dilate(die.top, np.ones((5, 5), np.uint8)), np.uint8)
    sides = (die.outline > 0) & (beside == 0)
    if np.count_nonzero(sides) < SIDES_SEEN_MM2 * die.px_per_mm**2:
        return True
    return float(np.median(lightness[sides])) < DARK_SIDES_L


@dataclass(frozen=True, slots=True)
class _Die:
    """What a d6's outline tells before its top face is looked at."""

    outline: Mask  # filled, in the crop
    top: Mask  # where perspective puts the top face (see ``top_face``)
    top_core: Mask  # the top face less CORE_INSET_MM all round
    bounds: _PipBounds
    px_per_mm: float
    top_side_px: float  # the top face's side as the outline tells it, seen nearer
    xs: NDArray[np.float32]  # each pixel's column in the crop
    ys: NDArray[np.float32]  # each pixel's row


def _count_on(lab: NDArray[np.float32], die: _Die) -> tuple[PipCount, float]:
    """The pips counted on the crop (Lab) as given, and how much of the top face the
    region of its colour covers (a share of the face's area as the outline tells it)."""
    region = _top_region(lab, die.outline, die.top, die.px_per_mm)
    if region is None:
        return PipCount(None, 0.0, lying_flat=False), 0.0
    share = np.count_nonzero(region) / die.top_side_px**2
    core = _eroded(region, CORE_INSET_MM * die.px_per_mm)
    if share < WHOLE_FACE_SHARE:
        # The region stops short of the face (a reflection, a shade): its core is not the
        # face's, and the top face as the outline puts it is core too. A glossy black 5,
        # its region 0.49 of its face, left out its three bright corner pips and read 1.
        core = np.maximum(core, die.top_core)
    face = _Face(
        region,
        core,
        die.top_core,
        signed_contrast(lab, region),
        die.px_per_mm,
        die.bounds.pitch_mm,
        die.xs,
        die.ys,
        die.top_side_px,
    )
    counts, confidences = _counts(face, die.outline, die.bounds)
    if len(counts) != 1:
        flat = bool(counts) or _square_face(region, die.px_per_mm)
        return PipCount(None, 0.0, lying_flat=flat), share
    return PipCount(counts.pop(), min(confidences)), share


def _agreed(as_seen: PipCount, evened: PipCount) -> PipCount:
    """The count of the face as seen and the count of the face evened (see ``evened``),
    when the face as seen is refused or its colour covers less than WHOLE_FACE_SHARE of
    it: either, when the other tells none; none when they differ. A reflection that shrank
    the region of the face's colour to its middle let a 6's outer pips pass for marks to
    leave out, and two of them made a 2 (generated, ``scene(d6_glare=True)``); evened,
    the face showed its six, and the two counts differing, the die was refused."""
    if as_seen.value is None and evened.value is None:
        return PipCount(None, 0.0, lying_flat=as_seen.lying_flat or evened.lying_flat)
    if evened.value is None:
        return as_seen
    if as_seen.value is None:
        return evened
    if as_seen.value != evened.value:
        return PipCount(None, 0.0)
    return min(as_seen, evened, key=lambda count: count.confidence)


def evened(lab: NDArray[np.float32], top: Mask, px_per_mm: float) -> NDArray[np.float32]:
    """The crop (Lab) with the top face's body made one colour: a glossy die reflects the
    lamp as a soft patch of light over part of its top face, body and pips alike, and the
    region of one colour around the face's centre then stops at the patch's edge, far
    short of the face's pips. The body's colour at each pixel is the average of the body
    around it (the face less what looks like a pip at a pip's scale), and the crop less
    it, plus the body's median, is what a face lit evenly would show. Away from the top
    face the crop is as it was."""
    inside = top > 0
    if np.count_nonzero(inside) < 9:
        return lab
    window = max(3, round(EVEN_WINDOW_MM * px_per_mm) | 1)
    local = np.dstack(
        [cv2.medianBlur(np.clip(lab[..., c], 0, 255).astype(np.uint8), window) for c in range(3)]
    ).astype(np.float32)
    pip_like = np.sqrt(((lab - local) ** 2).sum(axis=2)) > EVEN_MARK_SHARE * PIP_CONTRAST
    halo = max(3, round(2 * PIP_HALO_MM * px_per_mm) | 1)
    pip_like = cv2.dilate(pip_like.astype(np.uint8), np.ones((halo, halo), np.uint8)) > 0
    body = (inside & ~pip_like).astype(np.float32)
    if np.count_nonzero(body) < 9:
        return lab
    sigma = EVEN_SIGMA_MM * px_per_mm
    weight = np.asarray(cv2.GaussianBlur(body, (0, 0), sigma), np.float32)
    sums = np.asarray(cv2.GaussianBlur(lab * body[..., None], (0, 0), sigma), np.float32)
    near = weight > EVEN_NEAR
    shading = sums[near] / weight[near, None] - channel_median(lab[body > 0])
    flat = lab.copy()
    flat[near] -= shading
    return flat


@dataclass(frozen=True, slots=True)
class _PipBounds:
    """A die's pips: their width and the spacing between them (mm), and the opening (pixels)
    that keeps what is as wide as a pip, so that thin lines of shade along the edges do not
    join the pips near them."""

    pip_mm: tuple[float, float]
    pitch_mm: tuple[float, float]
    core: int

    @classmethod
    def of_die(cls, side_mm: float) -> _PipBounds:
        small = side_mm < SMALL_DIE_MM
        return cls(
            (
                SMALL_PIP_MM if small else PIP_DIAMETER_MM[0],
                max(PIP_DIAMETER_MM[1], PIP_LARGEST_SHARE * side_mm),
            ),
            (min(PIP_PITCH_MM[0], PIP_PITCH_SMALLEST_SHARE * side_mm), PIP_PITCH_MM[1]),
            PIP_CORE_PX[0] if small else PIP_CORE_PX[1],
        )


def _counts(face: _Face, outline: Mask, bounds: _PipBounds) -> tuple[set[int], list[float]]:
    """Every count of pips whose layout holds on the face, and each layout's confidence.
    Pips are lighter than the body or darker: both are tried, and a count stands only when
    it is the one count that holds."""
    # Pips near the face's edges sit where the region of the face's colour stops short
    # (the rounded, differently shaded border): a pip's reach around it is taken in, and
    # so is the top face as the outline puts it. A region shrunk by blur and a bent lens
    # to the third of a 5 around two of its corner pips left the other two out, and the
    # centre, those two and a side's pip made a 4.
    reach = max(3, round(2 * PIP_REACH_MM * face.px_per_mm) | 1)
    shape = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    near = np.asarray(cv2.dilate(face.region, shape), np.uint8) | face.top
    counts: set[int] = set()
    confidences: list[float] = []
    for polarity in (1.0, -1.0):
        marks, parted = _round_marks(
            _marks(polarity * face.contrast, outline, bounds.core),
            face.px_per_mm,
            near,
            bounds.pip_mm,
        )
        found = _layouts(marks, face, polarity)
        if not found and parted:
            found = _layouts(marks + parted, face, polarity)
        for centres, confidence in found:
            counts.add(len(centres))
            confidences.append(confidence)
    return counts, confidences


def _top_region(
    lab: NDArray[np.float32], outline: Mask, top: Mask, px_per_mm: float
) -> Mask | None:
    seed_size = max(3, round(SEED_INSET_MM * px_per_mm) | 1)
    seed = cv2.erode(top, np.ones((seed_size, seed_size), np.uint8))
    # Sides as dark as the top (a black die) must not widen it: the top face lies where
    # perspective puts it, give or take a shadow's or a rounded edge's width.
    slack = max(3, round(2 * TOP_SLACK_MM * px_per_mm) | 1)
    where = np.asarray(cv2.dilate(top, np.ones((slack, slack), np.uint8)), np.uint8) & outline
    return face_of_one_colour(lab, where, np.asarray(seed, np.uint8))


def _eroded(mask: Mask, by_px: float) -> Mask:
    size = max(3, round(2 * by_px) | 1)
    return np.asarray(cv2.erode(mask, np.ones((size, size), np.uint8)), np.uint8)


def _marks(contrast: NDArray[np.float32], outline: Mask, core_px: int) -> Mask:
    """What contrasts as a pip does, opened by a disc ``core_px`` across."""
    marks = ((contrast > PIP_CONTRAST) & (outline > 0)).astype(np.uint8)
    pip_core = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (core_px, core_px))
    return np.asarray(cv2.morphologyEx(marks, cv2.MORPH_OPEN, pip_core), np.uint8)


def _round_marks(
    marks: Mask, px_per_mm: float, near: Mask, pip_mm: tuple[float, float]
) -> tuple[list[_Mark], list[_Mark]]:
    """Round marks of a pip's size centred near the top face; and the round parts of those
    too large for one pip, once opened by ``SPLIT_OPENING_MM``: pips that blur ran together
    or into a glint."""
    low, high = (float(np.pi / 4 * (d * px_per_mm) ** 2) for d in pip_mm)
    areas = (low, high)
    found, too_large = _pip_marks(marks, areas, near)
    if not too_large.any():
        return found, []
    size = max(3, round(SPLIT_OPENING_MM * px_per_mm) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    opened = np.asarray(cv2.morphologyEx(too_large, cv2.MORPH_OPEN, disc), np.uint8)
    parted, _ = _pip_marks(opened, areas, near)
    return found, parted


def _pip_marks(marks: Mask, areas: tuple[float, float], near: Mask) -> tuple[list[_Mark], Mask]:
    """The marks of a pip's area and roundness whose centre lies in ``near``, and the
    marks too large for one pip."""
    _, labels, stats, centroids = cv2.connectedComponentsWithStats(marks)
    found = []
    for index in range(1, len(stats)):
        x, y = float(centroids[index][0]), float(centroids[index][1])
        w, h, area = (int(v) for v in stats[index, 2:5])
        roundness = min(w, h) / max(w, h)
        if areas[0] <= area <= areas[1] and roundness >= PIP_ROUNDNESS and _at(near, (x, y)):
            found.append(_Mark(float(area), (x, y), roundness))
    large = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] > areas[1])
    too_large = np.isin(labels, large[large > 0]).astype(np.uint8)  # label 0: the background
    return found, too_large


def _at(mask: Mask, point: Point) -> bool:
    x = min(max(round(point[0]), 0), mask.shape[1] - 1)
    y = min(max(round(point[1]), 0), mask.shape[0] - 1)
    return bool(mask[y, x])


def _layouts(marks: list[_Mark], face: _Face, polarity: float) -> list[tuple[list[Point], float]]:
    """Each layout these marks make that passes every check, with the fewest marks left
    out, and the one with every mark that may be left out left out (see
    :func:`_core_layout`). Marks outside the face's core (a side's pip, a shaded edge) may
    be left out; one where the face must be bare cannot, as the bare face is checked."""
    if not marks or len(marks) > MAX_CANDIDATES:
        return []
    outer = [index for index, mark in enumerate(marks) if not _at(face.core, mark.centre)]
    for left_out in range(min(MAX_LEFT_OUT, len(outer)) + 1):
        found = []
        for dropped in combinations(outer, left_out):
            kept = [mark for index, mark in enumerate(marks) if index not in dropped]
            if any(_top_pip_like(marks[index], kept, face) for index in dropped):
                continue
            reading = _checked_layout(kept, face, polarity)
            if reading is not None:
                found.append(reading)
        if found:
            return found + _core_layout(marks, outer, face, polarity)
    return []


def _core_layout(
    marks: list[_Mark], outer: list[int], face: _Face, polarity: float
) -> list[tuple[list[Point], float]]:
    """The layout of the marks once every outer mark that may be left out is: when it holds
    too, with another count, the marks tell two values. A white die's 1, blurred into the
    felt, showed dark marks at two corners of its border, and the pip with them made a 3."""
    core = [mark for index, mark in enumerate(marks) if index not in outer]
    kept = core + [marks[i] for i in outer if _top_pip_like(marks[i], core, face)]
    if not core or len(kept) == len(marks):
        return []
    reading = _checked_layout(kept, face, polarity)
    return [] if reading is None else [reading]


def _top_pip_like(mark: _Mark, pips: list[_Mark], face: _Face) -> bool:
    """A mark where perspective puts the top face, as round as a pip seen from above and
    of the pips' size: a pip of the top face near its border, not a side's (on the side's
    band of the outline) nor a shaded edge's, so it is no mark to leave out. A blurred 6
    read as a 2 left out its two bottom pips, of the size and roundness of the two kept:
    blur had shrunk the region of the face's colour, and they lay outside it."""
    areas = [pip.area for pip in pips]
    if not areas or not _at(face.top, mark.centre):
        return False
    alike = min(areas) / TOP_PIP_SIZE <= mark.area <= max(areas) * TOP_PIP_SIZE
    return alike and mark.roundness >= TOP_PIP_ROUNDNESS


def _checked_layout(
    marks: list[_Mark], face: _Face, polarity: float
) -> tuple[list[Point], float] | None:
    """The marks as the pips of the top face, with a confidence, or None when anything
    does not hold: one size, a die's layout, spaced as a die's pips are, centred on a
    square face of the die's size, and nothing like a pip where the face must be bare."""
    if not 1 <= len(marks) <= 6:
        return None
    areas = [mark.area for mark in marks]
    centres = [mark.centre for mark in marks]
    if max(areas) / min(areas) > PIP_SIZE_SPREAD:
        return None
    misfit = layout_misfit(centres)
    if misfit > LAYOUT_TOLERANCE:
        return None
    grid = _fitted_grid(centres) if len(centres) > 1 else None
    if len(centres) > 1 and (grid is None or not _on_layout(centres, grid, face)):
        return None
    whole = _with_pips(face.region, areas, centres)
    side_px = float(np.sqrt(np.count_nonzero(whole)))
    if not _square_face(whole, face.px_per_mm) or not _centred(centres, whole, side_px):
        return None
    lone = grid or _lone_pip_grid(centres[0], whole, side_px, face.top_side_px)
    bare = _bare_share(marks, lone, face, polarity)
    if bare is None or bare >= 1.0:
        return None
    confidence = (1.0 - 0.5 * misfit / LAYOUT_TOLERANCE) * (1.0 - 0.5 * bare)
    return centres, float(confidence)


def _with_pips(face: Mask, areas: list[float], centres: list[Point]) -> Mask:
    """The top face with its pips: the convex hull of both."""
    whole = face.copy()
    for area, (x, y) in zip(areas, centres, strict=True):
        cv2.circle(whole, (round(x), round(y)), int(np.sqrt(area / np.pi)) + 1, 1, -1)
    contours, _ = cv2.findContours(whole, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.vstack(contours))
    filled = np.zeros_like(face)
    cv2.fillConvexPoly(filled, hull, 1)
    return filled


def _centred(centres: list[Point], face: Mask, side_px: float) -> bool:
    """Every layout is symmetric about the face's centre: pips off it mean one was missed."""
    ys, xs = np.nonzero(face)
    mean = np.mean(np.asarray(centres, np.float64), axis=0)
    offset = float(np.hypot(mean[0] - xs.mean(), mean[1] - ys.mean()))
    return offset <= PIPS_OFF_CENTRE * side_px


def _square_face(face: Mask, px_per_mm: float) -> bool:
    """A die's top face: a square of the die's size, seen from above."""
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (w, h), _ = cv2.minAreaRect(contours[0])
    long_side, short_side = max(w, h) / px_per_mm, min(w, h) / px_per_mm
    return (
        TOP_FACE_SIDE_MM[0] <= short_side
        and long_side <= TOP_FACE_SIDE_MM[1]
        and long_side / max(short_side, 1e-6) <= TOP_FACE_SQUARENESS
    )


def _lone_pip_grid(centre: Point, whole: Mask, side_px: float, top_side_px: float) -> _Grid:
    """A lone pip tells nothing of the grid: it is assumed turned as the face is, spaced
    for the face (``side_px``: the region of its colour) or the die's top, the smaller;
    the bare part checked is a disc, which does not depend on that guess."""
    contours, _ = cv2.findContours(whole, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (_, _), degrees = cv2.minAreaRect(contours[0])
    pitch = ONE_PIP_PITCH * min(side_px, top_side_px)
    reach = ONE_PIP_BARE_REACH * side_px
    return _Grid(centre, float(np.radians(degrees)), pitch, reach, known_angle=False)


def _fitted_grid(centres: list[Point]) -> _Grid | None:
    """The die's grid of places, fitted to two pips or more."""
    points = np.asarray(centres, np.float64)
    centre = points.mean(axis=0)
    offsets = points - centre
    radii = np.hypot(offsets[:, 0], offsets[:, 1])
    corners = radii > 0.85 * radii.max()  # a 6's middle pips lie at 0.71 of the corners'
    # The corner pips lie on the diagonals: their directions, less 45 degrees, agree
    # modulo a quarter turn.
    directions = np.arctan2(offsets[corners, 1], offsets[corners, 0]) - np.pi / 4
    turn = complex(np.exp(4j * directions).mean())
    if abs(turn) < SQUARE_CORNERS:
        return None
    pitch = float(radii[corners].mean() / np.sqrt(2))
    middle = (float(centre[0]), float(centre[1]))
    return _Grid(middle, float(np.angle(turn) / 4), pitch, BARE_REACH * pitch)


def _nearest_place(grid: _Grid, point: Point) -> tuple[tuple[int, int], float]:
    """The grid's place nearest a point, and how far it is (pixels)."""
    gaps = np.hypot(grid.places[:, 0] - point[0], grid.places[:, 1] - point[1])
    nearest = int(gaps.argmin())
    return _PLACES[nearest], float(gaps[nearest])


def _on_layout(centres: list[Point], grid: _Grid, face: _Face) -> bool:
    """Pips spaced as a die's, each on one of the grid's places, the places taken those of
    the layout for their number."""
    if len(centres) == 1:
        return True  # its grid was not measured but assumed
    if not face.pitch_mm[0] <= grid.pitch / face.px_per_mm <= face.pitch_mm[1]:
        return False
    taken = set()
    for centre in centres:
        place, gap = _nearest_place(grid, centre)
        if gap > ON_PLACE * grid.pitch:
            return False
        taken.add(place)
    layout = LAYOUTS[len(centres)]
    return any(
        taken == {(i * c - j * s, i * s + j * c) for i, j in layout} for c, s in _QUARTER_TURNS
    )


def _bare_share(marks: list[_Mark], grid: _Grid, face: _Face, polarity: float) -> float | None:
    """How much like a pip the face looks where it must be bare, as a share of the
    greatest allowed (1 or more: refuse); None when the pips are not of one paint.

    Contrast is averaged over a disc smaller than a pip: a pip missed keeps its contrast,
    noise loses most of its. On the die's empty places, where a pip missed would be,
    anything lighter or darker is looked for (a glint may hide a pip), most strictly at
    the centre, whose pip alone turns a 3 into a 2 and a 5 into a 4. Elsewhere in the
    square the layout covers, a spot of the pips' polarity counts when it is round: a
    glint along a rounded edge is a thin line; so does a round spot of the other polarity
    half as contrasting, where pips of the other paint may have faded. Beyond that square
    lie only the face's border and, on a die whose sides are as dark as its top, a side
    and its pips.
    """
    radius = SPOT_SHARE * float(np.sqrt(np.median([mark.area for mark in marks]) / np.pi))
    size = 2 * max(1, round(radius)) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)).astype(np.float32)
    spots = np.asarray(cv2.filter2D(polarity * face.contrast, -1, disc / disc.sum()), np.float32)
    peaks = [_spot(spots, mark.centre, 1) for mark in marks]
    faintest = min(peaks)
    if faintest <= 0 or faintest < SAME_PAINT * max(peaks):
        return None
    worst = 0.0
    taken = {_nearest_place(grid, mark.centre)[0] for mark in marks}
    # On the places, only the face's own colour region counts: a glint along the rounded
    # edge, just outside it, is no pip.
    inside = np.asarray(face.contrast * (face.region > 0), np.float32)
    magnitude = np.abs(np.asarray(cv2.filter2D(inside, -1, disc / disc.sum()), np.float32))
    for place, at in zip(_PLACES, grid.places, strict=True):
        if place not in taken:
            allowed = CENTRE_BARE_SHARE if place == (0, 0) else PLACE_BARE_SHARE
            seen = _spot(magnitude, (at[0], at[1]), 1 if len(marks) > 1 else 2)
            worst = max(worst, seen / faintest / allowed)
    clear = np.ones(spots.shape, np.bool_)
    halo = PIP_HALO_MM * face.px_per_mm + size // 2
    for mark in marks:
        reach = np.sqrt(mark.area / np.pi) + halo
        clear &= np.hypot(face.xs - mark.centre[0], face.ys - mark.centre[1]) > reach
    bare = _square(grid, face.xs, face.ys) & clear
    for sign, share in ((1.0, BARE_SHARE), (-1.0, OTHER_PAINT_SHARE)):  # the pips' paint, other
        signed = np.asarray(sign * spots, np.float32)
        strong = ((signed > share * faintest) & clear).astype(np.uint8)
        worst = max(worst, _round_spot(strong, bare, signed) / faintest / share)
    return worst


def _round_spot(strong: Mask, bare: NDArray[np.bool_], spots: NDArray[np.float32]) -> float:
    """The greatest contrast over the round parts of ``strong`` that reach where the face
    must be bare (0 when there is none). Each part is judged whole, as a glint along an
    edge is a line even where only its end reaches in."""
    _, labels = cv2.connectedComponents(strong)
    greatest = 0.0
    for label in np.unique(labels[bare & (strong > 0)]):
        ys, xs = np.nonzero(labels == label)
        points = np.stack([xs, ys], axis=1).astype(np.float32)
        (_, _), enclosing = cv2.minEnclosingCircle(points)
        if len(xs) >= ROUND_SPOT_FILL * np.pi * (enclosing + 0.5) ** 2:
            greatest = max(greatest, float(spots[ys, xs].max()))
    return greatest


def _spot(image: NDArray[np.float32], at: Point, reach: int) -> float:
    """The greatest value within ``reach`` pixels of a point (0 outside the image)."""
    x, y = round(at[0]), round(at[1])
    window = image[
        max(0, y - reach) : max(0, y + reach + 1), max(0, x - reach) : max(0, x + reach + 1)
    ]
    return float(window.max()) if window.size else 0.0


def _square(grid: _Grid, xs: NDArray[np.float32], ys: NDArray[np.float32]) -> NDArray[np.bool_]:
    """The part of the face the layout covers: a square around the grid's centre, or a
    disc when the grid's turn is not known."""
    dx, dy = xs - grid.centre[0], ys - grid.centre[1]
    if not grid.known_angle:
        return np.asarray(np.hypot(dx, dy) <= grid.half_side, np.bool_)
    c, s = np.cos(grid.angle), np.sin(grid.angle)
    across = np.abs(dx * c + dy * s)
    along = np.abs(dy * c - dx * s)
    return np.asarray((across <= grid.half_side) & (along <= grid.half_side), np.bool_)


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
