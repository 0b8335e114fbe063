"""Binary tetrahedral dice (the Ur of today): is the marked tip up?

Two of a binary d4's four tips are painted. Seen from above, a die lying on a face shows
its top point and the three corners of its base, so all four tips are in view: the top
one where the visible faces meet, each corner of the base in the faces beside it. Each
tip is compared with the plain middle of the same face (so that the face's own light
cancels out), and with the empty tray at the same place (a tip of the floor's own colour
is not on the die). The die is read only when two tips are painted in every face that
shows them and the other two are bare in some face and painted in none: the top one and
a corner of the base (marked tip up), or two corners of the base (marked tip down). A die
known to lie flat (its outline a d4's own triangle, or its fit the size of the throw's
other dice) may have one tip out of view: the other three tell it. A face
seen at a slant, whose tips are a few pixels wide, is heard on a tip only when no broader
face shows it. Anything else (a fit that slipped, a shadow, a glint) is a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.observation import MARKED, PLAIN
from vision.segment import channel_median
from vision.tetra import CANONICAL_EDGE, LAB_BLACK, Tetra, canonical_triangle
from vision.tray import Image

PAINTED = 2  # tips painted on every die
TIP_SHARE = 0.8  # a tip's region: this close to its corner (barycentric weight)
MIDDLE_SHARE = 0.5  # the plain middle: no corner weighs more than this
PAINT_CONTRAST = 28.0  # Lab distance from the face's middle that shows paint
# and the distance under which a tip is bare: on generated throws (seed 7), 1,687 of the
# 1,714 tips seen under 28 were under 21, a bare tip's shade near its corner or the fit a
# pixel out; the 27 between them stay unclear.
PLAIN_CONTRAST = 21.0
# A tip bare in one face may come closer to paint in another (its corner on the shadow or
# the felt when the fit is a millimetre out) as long as it stays under half the weakest
# painted tip's contrast: paint is alike on every tip of a die. (Generated seeds 7 and 11:
# 0.5 and 0.65 read the same.) A painted tip's contrast is the one of the face that shows
# it best: in another its corner may lie half off the paint. A third tip like paint, but
# under half the paint of the two clearest, is judged as a bare one. (Binary-d4 throws of
# seeds 501 and 502: 26 of 442 clean throws refused before, 20 after, none read wrong.)
PAINT_SHARE = 0.5
# Likewise a bare tip may differ from its face's middle by more than PLAIN_CONTRAST (a
# shade at its corner) when the die's paint stands out far more: it is bare in some face
# while under this share of the weakest painted tip's contrast. (Generated seeds 7, 31 and
# 37: 0.3 to 0.45 read the same, 5 fewer dice refused, none read wrong; 0.25 one more
# refused.)
PLAIN_SHARE = 0.3
# A tip's colour this near (Lab) the empty tray's at the same place is the floor itself:
# the fit put the tip off the die (a blank square called a cocked d4 was read so). The
# same felt in two pictures differs by a few units in a region's median; on generated
# seed 37, 5 and 10 both refused the blank squares, 10 three more clean throws besides.
FLOOR_LIKE = 6.0
# So is a tip whose colour is a blend of the die's and the floor's (see _die_and_floor),
# where the die's outline did not show its triangle: a cocked die, a square, fitted as a
# triangle at its set's size with a corner half on a felt in its shadow, read two such tips
# as paint (generated seed 502, grounded shadows). Dice outlined as triangles are left
# out: their tips mix in the floor too where the fit is a pixel off, and seeds 501-506
# refused 3.8-7.9 % of their clean throws instead of 0-2.3 %.
MIXED_FLOOR_SHARE = 0.2
MIXED_LIGHT = (0.5, 1.1)  # the blend's shade, from black: floor in a die's shadow, or lit
MIXED_RESIDUAL = 8.0
# ... unless the tip hides the felt's fine texture, which the floor round the die keeps: a
# tip painted in the felt's colour (black paint, a dark felt), or a bare tip of a die of the
# felt's colour, is on the die. Correlations of the fine texture (grey level less its blur
# by TEXTURE_BLUR) with the empty tray's, the thresholds of ``vision.segment``'s: the floor
# round the die must keep it this well for the texture to tell (a felt without texture
# keeps the colour rule alone) ...
TEXTURE_SHOWN = 0.5
TEXTURE_HIDDEN = 0.25  # ... and a tip hides it under this
TEXTURE_BLUR = 1.0  # pixels: the fine texture is the grey level less its blur by this
DIE_REACH = 3  # pixels past the fitted die that are not counted as floor round it
THINNEST_FACE = 0.15  # a face's area in the picture over the base's (1/3 seen from above)
# A face under this share is seen at a slant: a tip's region there is a few pixels wide, and
# the picture's blur or a fit a pixel out mixes in the next face, the floor or another
# tip's paint (a bare tip read 35 Lab units from its face's middle). Such a face is heard on
# a tip only when no broader face shows it; and a die lying flat that it leaves unclear is
# judged by its broader faces alone, a tip seen only at a slant counted as out of view.
# Nor does a slanted face put a tip on the floor (black tips on a dark felt, the fit a pixel
# off the truth: the tip's few pixels there took in the felt beside them).
# (Binary-d4 throws of seeds 501-504: 26 of 831 clean throws refused before, 15 after the
# first, 12 after both; none read wrong; 0.3 read the same, 0.2 refused 4 more.)
SLANTED_FACE = 0.25


@dataclass(frozen=True)
class BinaryReading:
    """``face``: MARKED (marked tip up) or PLAIN, or None with the reason in ``detail``."""

    face: str | None
    confidence: float
    detail: str = ""


def read_binary_d4(
    frame: Image, tetra: Tetra, empty: Image, *, flat: bool = False, outlined: bool = True
) -> BinaryReading:
    """The die fitted as ``tetra``: marked tip up or not. ``empty``: the empty tray, where
    a tip painted on the die cannot be. ``flat``: the die is known to lie on a face (its
    outline is a d4's own triangle, or it was fitted at its set's size); a tip out of view
    (its faces seen nearly edge on) is then told by the other three: the die has two
    painted tips. ``outlined``: the die's outline showed its triangle; a die whose outline
    did not (said flat by its fit alone, or not at all) may be a cocked one fitted as a
    triangle, hanging off it: a tip of the die's colour and the floor's mixed is then
    taken for that."""
    # Only the die's own pixels are turned to Lab: the whole frame would cost 3 ms a die.
    x0, y0, x1, y1 = tetra.bounds(2)
    shift = np.array([x0, y0], np.float64)
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    floor = cv2.cvtColor(empty[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    texture = _FloorTexture(frame[y0:y1, x0:x1], empty[y0:y1, x0:x1], tetra, shift)
    contrasts = _TipContrasts()
    for i, j in tetra.faces():
        share = tetra.face_share((i, j))
        if share < THINNEST_FACE:
            continue  # seen nearly edge on: too few pixels to say what is painted
        corners = (tetra.apex - shift, tetra.base[i] - shift, tetra.base[j] - shift)
        face = _by_channel(_rectified(lab, corners))
        floor_face = _by_channel(_rectified(floor, corners))
        body = _region_median(face, "middle")
        for tip, region in zip(("top", str(i), str(j)), ("top", "left", "right"), strict=True):
            colour = _region_median(face, region)
            floor_colour = _region_median(floor_face, region)
            contrast = float(np.linalg.norm(colour - body))
            floor_like = np.linalg.norm(colour - floor_colour) < FLOOR_LIKE
            mixed = not outlined and contrast > PLAIN_CONTRAST
            mixed = mixed and _die_and_floor(colour, body, floor_colour)
            if (floor_like or mixed) and not texture.hidden(corners, _REGIONS[region]):
                if share < SLANTED_FACE:
                    continue  # a few pixels wide: the felt beside the face mixes in
                # The empty tray's own colour and texture, or the die's colour and the
                # floor's mixed: the fit put this tip off the die, or partly.
                return BinaryReading(None, 0.0, f"the d4's {_tip_name(tip)} lies on the floor")
            contrasts.add(tip, contrast, share)
    return contrasts.judged(flat)


def _die_and_floor(
    colour: NDArray[np.float32], body: NDArray[np.float32], floor: NDArray[np.float32]
) -> bool:
    """Whether a tip's colour is the die's body and the floor's (lit or shaded) mixed, as a
    tip whose region the fit put partly off the die is: a blend of the two colours (each
    scaled from black), with the floor's weighing :data:`MIXED_FLOOR_SHARE` at least and
    both :data:`MIXED_LIGHT`, within :data:`MIXED_RESIDUAL` Lab units. A die of the floor's
    colour, or a grey die on a grey felt, makes every blend alike: its lighter tips are
    taken for blends (refused, never read wrong by it)."""
    basis = np.stack([body - LAB_BLACK, floor - LAB_BLACK], axis=1).astype(np.float64)
    seen = (colour - LAB_BLACK).astype(np.float64)
    (die_share, floor_share), *_ = np.linalg.lstsq(basis, seen, rcond=None)
    residual = float(np.linalg.norm(basis @ np.array([die_share, floor_share]) - seen))
    lit = MIXED_LIGHT[0] <= die_share + floor_share <= MIXED_LIGHT[1]
    return bool(
        residual < MIXED_RESIDUAL and die_share >= 0 and floor_share >= MIXED_FLOOR_SHARE and lit
    )


_TIPS = ("top", "0", "1", "2")  # the top point, then the base corners by their index


class _TipContrasts:
    """Each tip's contrasts with its faces' middles: in every face that shows it, and in
    the faces not seen at a slant (``SLANTED_FACE``)."""

    def __init__(self) -> None:
        self.every: dict[str, list[float]] = {tip: [] for tip in _TIPS}
        self.broad: dict[str, list[float]] = {tip: [] for tip in _TIPS}

    def add(self, tip: str, contrast: float, share: float) -> None:
        self.every[tip].append(contrast)
        if share >= SLANTED_FACE:
            self.broad[tip].append(contrast)

    def judged(self, flat: bool) -> BinaryReading:
        """Each tip judged by its broad faces, or by its slanted ones when no broad face
        shows it; a die lying flat left unclear so is judged by its broad faces alone."""
        preferred = {tip: self.broad[tip] or seen for tip, seen in self.every.items()}
        judged = _judged(preferred, hidden_allowed=1 if flat else 0)
        if judged.face is None and flat:
            broad_only = _judged(self.broad, hidden_allowed=1)
            if broad_only.face is not None:
                return broad_only
        return judged


def _judged(contrasts: dict[str, list[float]], hidden_allowed: int = 0) -> BinaryReading:
    """Two tips painted in every face that shows them; the other two bare in at least one
    face and in none as far from the face as paint (a face's corner can fall on the die's
    shadow when the fit is a millimetre out, never on paint). Up to ``hidden_allowed``
    tips may be out of view: a hidden tip is painted when fewer than two painted tips are
    seen."""
    missing = [tip for tip, seen in contrasts.items() if not seen]
    if len(missing) > hidden_allowed:
        return BinaryReading(None, 0.0, f"the d4's {_tip_name(missing[0])} is not in view")
    shown = {tip: seen for tip, seen in contrasts.items() if seen}
    painted = _painted(shown)
    if not PAINTED - len(missing) <= len(painted) <= PAINTED:
        return BinaryReading(None, 0.0, f"{len(painted)} painted tips seen on a binary d4, not 2")
    margins = [min(contrasts[tip]) - PAINT_CONTRAST for tip in painted]
    weakest = min((max(contrasts[tip]) for tip in painted), default=PAINT_CONTRAST)
    like_paint = max(PAINT_CONTRAST, PAINT_SHARE * weakest)
    plain = max(PLAIN_CONTRAST, PLAIN_SHARE * weakest)
    for tip, seen in shown.items():
        if tip in painted:
            continue
        if max(seen) >= like_paint or min(seen) > plain:
            return BinaryReading(None, 0.0, f"the d4's {_tip_name(tip)} is unclear")
        margins.append(plain - min(seen))
    painted += missing[: PAINTED - len(painted)]
    confidence = min(1.0, 0.5 + min(margins) / PAINT_CONTRAST)
    return BinaryReading(MARKED if "top" in painted else PLAIN, confidence)


def _painted(shown: dict[str, list[float]]) -> list[str]:
    """The tips painted in every face that shows them; when more than two are, those far
    under the paint of the two clearest are not (paint is alike on every tip)."""
    painted = [tip for tip, seen in shown.items() if min(seen) >= PAINT_CONTRAST]
    if len(painted) <= PAINTED:
        return painted
    level = sorted((min(shown[tip]) for tip in painted), reverse=True)[PAINTED - 1]
    return [tip for tip in painted if min(shown[tip]) >= PAINT_SHARE * level]


def _tip_name(tip: str) -> str:
    return "top point" if tip == "top" else "base corner"


class _FloorTexture:
    """The fine texture (grey level less its blur) of a die's crop and of the empty tray's,
    worked out only when a tip of the floor's colour asks whether it hides the felt's
    texture (rare: most dice never ask)."""

    def __init__(self, crop: Image, empty: Image, tetra: Tetra, shift: NDArray[np.float64]) -> None:
        self._crop, self._empty = crop, empty
        self._tetra, self._shift = tetra, shift

    @cached_property
    def _fine(self) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        return _fine_texture(self._crop), _fine_texture(self._empty)

    @cached_property
    def _shown(self) -> bool:
        """Whether the floor round the die keeps the felt's texture well enough to tell."""
        seen, empty = self._fine
        round_die = _round_die(self._tetra, self._shift, seen.shape)
        return _correlation(seen[round_die], empty[round_die]) >= TEXTURE_SHOWN

    def hidden(self, corners: tuple[NDArray[np.float64], ...], inside: NDArray[np.bool_]) -> bool:
        """Whether the part ``inside`` the face through ``corners`` (rectified) hides the
        felt's texture, where the floor round the die shows that it would tell."""
        if not self._shown:
            return False
        seen, empty = (_rectified(fine, corners)[inside] for fine in self._fine)
        return _correlation(seen, empty) < TEXTURE_HIDDEN


def _fine_texture(picture: Image) -> NDArray[np.float32]:
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(grey - cv2.GaussianBlur(grey, (0, 0), TEXTURE_BLUR), np.float32)


def _correlation(seen: NDArray[np.float32], empty: NDArray[np.float32]) -> float:
    """The correlation of two fine textures' pixels; near 0 where either has none (the
    powers kept off 0, as ``vision.segment`` does)."""
    count = max(len(seen), 1)
    power = float(np.dot(seen, seen)) * float(np.dot(empty, empty)) / count**2
    return float(np.dot(seen, empty)) / count / float(np.sqrt(power + 1e-3))


def _round_die(
    tetra: Tetra, shift: NDArray[np.float64], shape: tuple[int, ...]
) -> NDArray[np.bool_]:
    """The floor round the fitted die in its crop: the crop less the die and a few
    pixels past it."""
    die = np.zeros(shape[:2], np.uint8)
    corners = np.vstack([tetra.base, tetra.apex[None]]) - shift
    hull = cv2.convexHull(np.round(corners).astype(np.int32))
    cv2.fillConvexPoly(die, hull, 1)
    reach = 2 * DIE_REACH + 1
    return np.asarray(cv2.dilate(die, np.ones((reach, reach), np.uint8)) == 0)


def _rectified(
    picture: NDArray[np.float32], corners: tuple[NDArray[np.float64], ...]
) -> NDArray[np.float32]:
    """The face through ``corners`` (top, lower left, lower right) seen square on."""
    to_face = cv2.getAffineTransform(np.asarray(corners, np.float32), canonical_triangle())
    size = (CANONICAL_EDGE, CANONICAL_EDGE)
    return np.asarray(cv2.warpAffine(picture, to_face, size, flags=cv2.INTER_AREA), np.float32)


def _regions() -> dict[str, NDArray[np.bool_]]:
    """Where the three tips and the plain middle are in the rectified face."""
    corners = canonical_triangle().astype(np.float64)
    ys, xs = np.mgrid[0:CANONICAL_EDGE, 0:CANONICAL_EDGE] + 0.5
    points = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    weights = np.linalg.solve(np.vstack([corners.T, np.ones(3)]), points)  # barycentric
    weights = weights.reshape(3, CANONICAL_EDGE, CANONICAL_EDGE)
    inside = np.all(weights >= 0.04, axis=0)  # off the face's very edges
    regions = {
        name: inside & (weights[index] >= TIP_SHARE)
        for index, name in enumerate(("top", "left", "right"))
    }
    regions["middle"] = inside & np.all(weights <= MIDDLE_SHARE, axis=0)
    return regions


_REGIONS = _regions()
_PLACES = {name: np.flatnonzero(region) for name, region in _REGIONS.items()}  # flat indices


def _by_channel(face: NDArray[np.float32]) -> NDArray[np.float32]:
    """A rectified face's pixels channel by channel (channels, pixels), so that a region's
    pixels are taken out as one block per channel, without a boolean mask and a transpose
    per median (a fifth of a die's reading time)."""
    return np.ascontiguousarray(face.reshape(-1, face.shape[2]).T)


def _region_median(face: NDArray[np.float32], region: str) -> NDArray[np.float32]:
    """Each channel's median over a region of a face held by :func:`_by_channel`."""
    return channel_median(face[:, _PLACES[region]].T)
