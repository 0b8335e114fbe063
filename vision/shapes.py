"""What a blob is, from its size and outline on the floor: an implement lying flat, one on
its edge or cocked, several touching, a hand, or something else.

Sizes are the implements' (sticks 120 x 16 x 6 mm, the yes/no stick 150 x 20 x 7 mm, d4
edge 17-30 mm, d6 12-25 mm) plus what the camera adds: the sides of an implement away
from the camera's axis, and a blur of a millimetre or two.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

from vision.observation import Kind
from vision.segment import STICK_MM, Blob

STICK_LENGTH = (100.0, 142.0)
STICK_FLAT_WIDTH = (14.5, 26.0)
STICK_EDGE_WIDTH = 12.0  # narrower than this, a stick shows its edge
YESNO_MM = (150.0, 20.0)  # the yes/no stick's length and width
YESNO_LENGTH = (142.0, 182.0)
YESNO_FLAT_WIDTH = (17.5, 32.0)
YESNO_EDGE_WIDTH = 14.5
DIE_MAX_LENGTH = 46.0
# The outline: the top face and, by perspective, the sides facing the lens (a die of 25 mm
# near the floor's edge: 27 mm of top face and 14 mm of side); generated dice of 12-14 mm
# show outlines 11 mm wide and more, but for a rare one of 10.9 mm.
D6_SIDE = (11.0, 42.0)
# Long side / short side (about 1.5 for a die of 25 mm at the floor's edge); whether the
# top face is square is checked later. A die resting on an edge may look longer still.
D6_SQUARENESS = 1.5
D6_FILL = 0.7  # area / bounding rotated rectangle
# Not a d4 either: a shadow or a side of the felt's shade can cut a corner off a d6's
# outline; the pips are then looked for, and a die without a square top face is refused.
D6_CUT_FILL = 0.62
# A d4's outline is its base triangle, a millimetre shorter than its edge for the blur on
# its corners: the development set's d4s have edges of 25-30 mm, a player's may be smaller
# (generated, 20-25 mm: outlines of 19.2 mm and more). Below 16 mm (edges under about 17 mm)
# the numerals are too small to trust: with 14 mm, a generated d4 of 16 mm was read wrong.
D4_SIDE = (16.0, 44.0)
D4_TRIANGLE_FILL = 0.82  # area / smallest enclosing triangle
HAND_AREA = 5000.0  # mm²: more than any two implements side by side


class Shape(StrEnum):
    FLAT = "flat"
    ON_EDGE = "on-edge"
    COCKED = "cocked"
    AMBIGUOUS = "ambiguous"
    MERGED = "merged"
    HAND = "hand"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class ShapeCall:
    shape: Shape
    kind: Kind | None = None


def classify(blob: Blob) -> ShapeCall:
    if blob.area_mm2 > HAND_AREA:
        return ShapeCall(Shape.HAND if blob.touches_border else Shape.MERGED)
    length, width = blob.length_mm, blob.width_mm
    if STICK_LENGTH[0] <= length < STICK_LENGTH[1]:
        return _long(Kind.STICK, width, STICK_FLAT_WIDTH, STICK_EDGE_WIDTH)
    if YESNO_LENGTH[0] <= length < YESNO_LENGTH[1]:
        return _long(Kind.YESNO, width, YESNO_FLAT_WIDTH, YESNO_EDGE_WIDTH)
    if length > YESNO_LENGTH[1]:
        return ShapeCall(Shape.MERGED)
    if length <= DIE_MAX_LENGTH:
        return _die(blob)
    return ShapeCall(Shape.UNKNOWN)


def lies_whole(blob: Blob) -> bool:
    """A stick or the yes/no stick lying flat, as long as the implement: none of it hidden
    or elsewhere (2 mm less for blur), and not a longer implement cut short (12 mm more for
    the sides seen in perspective and a shadow at an end)."""
    call = classify(blob)
    if call.shape is not Shape.FLAT or call.kind not in (Kind.STICK, Kind.YESNO):
        return False
    nominal = STICK_MM[0] if call.kind is Kind.STICK else YESNO_MM[0]
    return nominal - 2.0 <= blob.length_mm <= nominal + 12.0


def _long(kind: Kind, width: float, flat: tuple[float, float], edge: float) -> ShapeCall:
    if flat[0] <= width <= flat[1]:
        return ShapeCall(Shape.FLAT, kind)
    if width < edge:
        return ShapeCall(Shape.ON_EDGE, kind)
    if width > flat[1]:
        return ShapeCall(Shape.MERGED, kind)
    return ShapeCall(Shape.AMBIGUOUS, kind)


def triangle_fill(blob: Blob) -> float:
    area, _ = cv2.minEnclosingTriangle(blob.contour.astype(np.float32))
    contour_area = cv2.contourArea(blob.contour)
    return float(contour_area / area) if area > 0 else 0.0


def _die(blob: Blob) -> ShapeCall:
    length, width = blob.length_mm, blob.width_mm
    rect_fill = blob.area_mm2 / (length * width) if length * width > 0 else 0.0
    d6_sized = D6_SIDE[0] <= width and length <= D6_SIDE[1] and length / width <= D6_SQUARENESS
    if d6_sized and rect_fill >= D6_FILL:
        return ShapeCall(Shape.FLAT, Kind.D6)
    if D4_SIDE[0] <= length <= D4_SIDE[1] and triangle_fill(blob) >= D4_TRIANGLE_FILL:
        return ShapeCall(Shape.FLAT, Kind.D4)
    if d6_sized and rect_fill >= D6_CUT_FILL:
        return ShapeCall(Shape.FLAT, Kind.D6)
    if width >= D6_SIDE[0]:
        return ShapeCall(Shape.COCKED)
    return ShapeCall(Shape.UNKNOWN)
