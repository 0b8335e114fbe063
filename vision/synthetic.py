"""Synthetic throws for tests and dev mode: a tray seen from above, sticks with marked and
plain faces, sticks on edge, the yes/no stick, d4s, pip d6s, hands, overlaps and objects
cut by the picture's border, with labels in the development set's format.

The pictures are simple on purpose (flat colours, soft shadows, noise); they test the
pipeline's logic and its refusals, not its tolerance to real light.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.hand import Hand, hand_of
from vision.polygons import convex_gap
from vision.tray import CAMERA_HEIGHT_MM, Image, lens_height

SIZE = (1200, 900)
PX_PER_MM = 2.48
DRAWN_RESOLUTION = (0.75, 3.0)  # cameras of 0.75 to 3 times SIZE's pixels, the same view
FLOOR_MM = (400.0, 300.0)  # the inside of the tray drawn, unless told otherwise
# Floors that can be drawn (long side, short side): in the picture with their walls, which
# calibration finds (a floor of 480 x 360 mm leaves them out), and with room for a stick.
DRAWN_FLOOR_MM = ((200.0, 150.0), (470.0, 350.0))
FELTS = ((60, 120, 40), (150, 80, 40), (70, 70, 190), (140, 175, 190), (60, 60, 60))
WOOD = (110, 170, 215)
Look = tuple[tuple[int, int, int], tuple[int, int, int] | None, tuple[int, int, int]]
LOOKS: dict[str, Look] = {  # marked face, band colour (None: plain colour), plain face
    "decorated": ((215, 235, 240), (50, 80, 110), WOOD),
    "white-black": ((245, 245, 245), None, (30, 30, 30)),
}
# Sticks of a look the shipped profile never learned, drawn only when asked for by name.
OTHER_LOOKS: dict[str, Look] = {
    "red-wood": ((40, 40, 200), None, WOOD),  # marked face painted red
    "black-wood": ((30, 30, 30), None, WOOD),  # marked face blackened: each face a known one
    "brick-green": ((62, 79, 187), None, (73, 129, 70)),  # both faces near bare wood's
}
DIE_COLOURS = ((40, 40, 200), (235, 235, 235), (150, 60, 30), (30, 30, 30))
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
CARD_MM = 30.0  # printed corner marker cards
SCENE_KITS = ("sticks4", "sticks3", "ur", "ur-nostick", "modern", "binary-d4")
TROUBLES = ("on-edge", "off-tray", "hand", "touching", "cocked")
STICK_SIZE_MM = (120.0, 16.0)
YESNO_SIZE_MM = (150.0, 20.0)
D4_EDGE_MM = (25.0, 30.0)  # the development set's d4s; players' own may be smaller
D6_SIDE_MM = (15.0, 18.0)  # the development set's d6s; players' own may be 12 mm, or 19 and more
# A lamp's reflection on a glossy d6's top face (``scene(d6_glare=True)``): how wide (its
# standard deviation, in the face's sides) and how much of the way to white it lightens
# the face at its brightest. Dev 0049's red die shows one about half its face wide.
GLARE_SPREAD = (0.25, 0.5)
GLARE_STRENGTH = (0.3, 0.65)
CLEAN_GAP_MM = 2.0  # nearer, the development set calls implements "touching"


@dataclass(frozen=True)
class SyntheticScene:
    frame: Image
    empty: Image
    label: dict[str, object]

    @property
    def objects(self) -> list[dict[str, Any]]:
        objects = self.label["objects"]
        assert isinstance(objects, list)
        return objects


class _Canvas:
    def __init__(
        self,
        rng: Random,
        tray_seed: int | None = None,
        markers: bool = False,
        felt: tuple[int, int, int] | None = None,
        d4_edge_mm: tuple[float, float] = D4_EDGE_MM,
        d6_side_mm: tuple[float, float] = D6_SIDE_MM,
        d4_font: str = "sans",
        floor_mm: tuple[float, float] = FLOOR_MM,
        resolution: float = 1.0,
        d4_hand: Hand | None = None,
        dice_of_felt: bool = False,
        *,
        d6_glare: bool = False,
        grounded_shadows: bool = True,
        camera_height_mm: float = CAMERA_HEIGHT_MM,
    ) -> None:
        self.rng = rng
        self.camera_height_mm = camera_height_mm  # the dice's perspective
        self.d6_glare = d6_glare
        self.d4_hand = d4_hand
        self.dice_of_felt = dice_of_felt
        self.resolution = resolution  # picture pixels per pixel of the development set's
        self.px_per_mm = PX_PER_MM * resolution
        self.size = (round(SIZE[0] * resolution), round(SIZE[1] * resolution))
        self.markers = markers
        self.d4_edge_mm = d4_edge_mm
        self.d6_side_mm = d6_side_mm
        self.d4_font = d4_font
        self.floor_mm = floor_mm
        self.origin = (
            (self.size[0] - floor_mm[0] * self.px_per_mm) / 2,
            (self.size[1] - floor_mm[1] * self.px_per_mm) / 2,
        )
        if tray_seed is None:
            drawn = rng.choice(FELTS)  # drawn even when chosen: the rest of the scene stays
            self.felt = felt or drawn
            self.image = self._empty_tray(rng)
        else:  # one tray for many throws, drawn once
            self.felt, tray = _shared_tray(tray_seed, markers, felt, floor_mm, resolution)
            self.image = tray.copy()
        self.shadows = np.zeros(self.image.shape[:2], np.float32)
        # Where the implements lie, kept for shadows cast from their outlines alone.
        self.outlines = np.zeros(self.image.shape[:2], np.uint8) if grounded_shadows else None
        self.set_edge_mm: float | None = None  # the binary d4s' edge, once one is drawn

    def die_body(self) -> tuple[int, int, int]:
        """A die's colour: one of DIE_COLOURS, or the felt's (one is drawn all the same,
        as the scene drawn without ``dice_of_felt`` draws it)."""
        drawn = self.rng.choice(DIE_COLOURS)
        return self.felt if self.dice_of_felt else drawn

    def binary_d4_edge(self, drawn_mm: float) -> float:
        """The edge of the throw's binary d4s: the first one's, as a set's dice are alike."""
        if self.set_edge_mm is None:
            self.set_edge_mm = drawn_mm
        return self.set_edge_mm

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (self.origin[0] + x_mm * self.px_per_mm, self.origin[1] + y_mm * self.px_per_mm)

    def pixels(self, length: float) -> float:
        """A length drawn in the development set's pixels, in this picture's."""
        return length * self.resolution

    def _empty_tray(self, rng: Random) -> Image:
        image = np.full((self.size[1], self.size[0], 3), (150, 190, 210), np.uint8)
        x0, y0 = self.px(-60, -60)
        long_mm, short_mm = self.floor_mm
        x1, y1 = self.px(long_mm + 60, short_mm + 60)
        cv2.rectangle(image, (int(x0), int(y0)), (int(x1), int(y1)), WOOD, -1)
        x0, y0 = self.px(-12, -12)
        x1, y1 = self.px(long_mm + 12, short_mm + 12)
        cv2.rectangle(image, (int(x0), int(y0)), (int(x1), int(y1)), (70, 110, 140), -1)
        x0, y0 = self.px(0, 0)
        x1, y1 = self.px(long_mm, short_mm)
        cv2.rectangle(image, (int(x0), int(y0)), (int(x1), int(y1)), self.felt, -1)
        if self.markers:
            self._marker_cards(image)
        texture = np.random.default_rng(rng.randrange(2**31)).normal(0, 4, image.shape)
        return _clipped_sum(texture, image)

    def _marker_cards(self, image: Image) -> None:
        """The printed corner markers (``vision.markers``), each card in a floor corner."""
        from vision.markers import marker_image

        side = round(CARD_MM * self.px_per_mm)
        far_x, far_y = self.floor_mm[0] - CARD_MM, self.floor_mm[1] - CARD_MM
        corners = ((0.0, 0.0), (far_x, 0.0), (far_x, far_y), (0.0, far_y))
        for marker_id, (x_mm, y_mm) in enumerate(corners):
            x, y = (round(v) for v in self.px(x_mm, y_mm))
            card = marker_image(marker_id, side)
            image[y : y + side, x : x + side] = card[..., None]

    def rectangle(
        self, centre: tuple[float, float], size_mm: tuple[float, float], angle: float
    ) -> NDArray[np.int32]:
        cx, cy = self.px(*centre)
        size = (size_mm[0] * self.px_per_mm, size_mm[1] * self.px_per_mm)
        box = cv2.boxPoints(((cx, cy), size, angle))
        return np.asarray(box, np.int32)

    def shadow(self, polygon: NDArray[np.int32]) -> None:
        """The shadow of an implement whose outline is ``polygon``."""
        offset = np.array([round(self.pixels(6)), round(self.pixels(8))], np.int32)
        cv2.fillPoly(self.shadows, [polygon + offset], 1.0)
        self.covers(polygon)

    def covers(self, polygon: NDArray[np.int32]) -> None:
        """Where an implement lies (its shadow's outline, or more: a d6's top face,
        moved by perspective, reaches past its footprint)."""
        if self.outlines is not None:
            cv2.fillPoly(self.outlines, [polygon], 1)

    def finish(self, empty: Image) -> tuple[Image, Image]:
        soft = cv2.GaussianBlur(self.shadows, (0, 0), self.pixels(4))
        # Shadows fall on the felt beside an implement, not on its lit top: where any
        # channel differs from the empty tray's (the channels' differences summed).
        lit = cv2.transform(cv2.absdiff(self.image, empty), np.ones((1, 3))) > 0
        if self.outlines is not None:
            # ... within its outline: its blurred edge also changes the felt a pixel or
            # two beyond it, which would stay unshadowed, a band that outlines it.
            lit &= self.outlines > 0
        soft[lit] = 0.0
        frame = self.image.astype(np.float32)
        frame *= 1 - 0.35 * soft[..., None]
        noise = np.random.default_rng(self.rng.randrange(2**31)).normal(0, 2, frame.shape)
        return _clipped_sum(noise, frame), empty


def _clipped_sum(noise: NDArray[np.float64], picture: NDArray[Any]) -> Image:
    """``picture`` plus ``noise``, clipped to 0-255 and truncated to bytes, summed in
    ``noise``'s own array rather than in a new array at each step."""
    noise += picture
    np.clip(noise, 0, 255, out=noise)
    return noise.astype(np.uint8)


@lru_cache(maxsize=4)
def _shared_tray(
    tray_seed: int,
    markers: bool,
    felt: tuple[int, int, int] | None,
    floor_mm: tuple[float, float],
    resolution: float,
) -> tuple[tuple[int, int, int], Image]:
    canvas = _Canvas(
        Random(tray_seed), markers=markers, felt=felt, floor_mm=floor_mm, resolution=resolution
    )
    return canvas.felt, canvas.image


def _bbox(polygon: NDArray[np.int32]) -> list[int]:
    x, y, w, h = cv2.boundingRect(polygon)
    return [int(x), int(y), int(x + w), int(y + h)]


def _stick(
    canvas: _Canvas,
    look: str,
    place: tuple[float, float, float],
    face: str,
    size: tuple[float, float] = STICK_SIZE_MM,
) -> list[int]:
    marked, band, plain = {**LOOKS, **OTHER_LOOKS}[look]
    polygon = canvas.rectangle(place[:2], size, place[2])
    canvas.shadow(polygon)
    colour = marked if face == "M" else plain
    if face == "edge":
        polygon = canvas.rectangle(place[:2], (size[0], 6), place[2])
        colour = WOOD
    cv2.fillPoly(canvas.image, [polygon], colour)
    if face == "M" and band is not None:
        _bands(canvas, place, size, band)
    return _bbox(polygon)


def _bands(
    canvas: _Canvas,
    place: tuple[float, float, float],
    size: tuple[float, float],
    colour: tuple[int, int, int],
) -> None:
    angle = np.radians(place[2])
    step = size[0] / 12
    for k in range(1, 12, 2):
        offset = -size[0] / 2 + (k + 0.5) * step
        centre = (place[0] + offset * np.cos(angle), place[1] + offset * np.sin(angle))
        cv2.fillPoly(
            canvas.image, [canvas.rectangle(centre, (step, size[1] - 2), place[2])], colour
        )


def _yesno(canvas: _Canvas, place: tuple[float, float, float], face: str) -> list[int]:
    size = YESNO_SIZE_MM
    polygon = canvas.rectangle(place[:2], size, place[2])
    canvas.shadow(polygon)
    if face == "edge":
        polygon = canvas.rectangle(place[:2], (size[0], 7), place[2])
    cv2.fillPoly(canvas.image, [polygon], (40, 40, 190) if face == "M" else WOOD)
    if face == "M":
        centre = tuple(int(v) for v in canvas.px(*place[:2]))
        cv2.circle(canvas.image, centre, int(6 * canvas.px_per_mm), (240, 240, 240), -1)
    return _bbox(polygon)


def _d6(canvas: _Canvas, place: tuple[float, float, float], value: int, cocked: bool) -> list[int]:
    """A d6 as a camera above the picture's centre sees it: the top face moved away from the
    centre by perspective, and between it and the footprint the sides facing the lens,
    shaded, with their pips squeezed. Makes differ: pips spaced 25-31 % of a side apart,
    2.4-3.2 mm across on a die of 16.5 mm (in proportion on others), sometimes pale on a
    coloured die; a rounded edge of the top face may catch the light as a thin glint."""
    rng = canvas.rng
    body = canvas.die_body()
    pip = (240, 240, 240) if sum(body) < 400 else (25, 25, 25)
    side = rng.uniform(*canvas.d6_side_mm)
    size = (side * 1.6, side) if cocked else (side, side)
    polygon = canvas.rectangle(place[:2], size, place[2])
    canvas.shadow(polygon)
    if cocked:
        cv2.fillPoly(canvas.image, [polygon], body)
        return _bbox(polygon)
    cx, cy = canvas.px(*place[:2])
    factor = side / (canvas.camera_height_mm - side)
    mm_factor = factor / canvas.px_per_mm
    lift = ((cx - canvas.size[0] / 2) * mm_factor, (cy - canvas.size[1] / 2) * mm_factor)
    top_centre = (place[0] + lift[0], place[1] + lift[1])
    top = canvas.rectangle(top_centre, size, place[2])
    outline = np.asarray(cv2.convexHull(np.vstack([polygon, top])), np.int32)
    canvas.covers(outline)
    cv2.fillPoly(canvas.image, [outline], tuple(int(c * 0.6) for c in body))
    # Squeezed pips on the sides, near the footprint's corners: 3 pixels either side of
    # their centre on a die of 16.5 mm, in proportion on others.
    side_pip = (round(canvas.pixels(3) * side / 16.5), round(canvas.pixels(1)))
    for corner in polygon:
        x, y = (0.75 * corner + 0.25 * np.asarray((cx, cy))).astype(int)
        cv2.ellipse(canvas.image, (int(x), int(y)), side_pip, place[2], 0, 360, pip, -1)
    cv2.fillPoly(canvas.image, [top], body)
    gap = side * rng.uniform(0.25, 0.31)
    radius = rng.uniform(1.2, 1.6) * canvas.px_per_mm * side / 16.5  # larger dice, larger pips
    if max(body) - min(body) > 60 and rng.random() < 0.3:  # pale pips on a coloured die
        pip = (
            (pip[0] + body[0]) // 2,
            (pip[1] + body[1]) // 2,
            (pip[2] + body[2]) // 2,
        )
    angle = np.radians(place[2])
    for u, v in PIPS[value]:
        x = top_centre[0] + gap * (u * np.cos(angle) - v * np.sin(angle))
        y = top_centre[1] + gap * (u * np.sin(angle) + v * np.cos(angle))
        px, py = canvas.px(x, y)
        cv2.circle(canvas.image, (int(px), int(py)), round(radius), pip, -1)
    if rng.random() < 0.3:
        _glint(canvas, top, rng.randrange(4))
    if canvas.d6_glare:
        _glare(canvas, top, Random(f"glare {place}"))
    return _bbox(outline)


def _glare(canvas: _Canvas, top: NDArray[np.int32], rng: Random) -> None:
    """A lamp reflected by a glossy die's top face (see :func:`reflected`), drawn from its
    own ``rng``, so that a scene with glare differs from the scene without by the glare
    alone."""
    at = (rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3))
    spread = rng.uniform(*GLARE_SPREAD)
    reflected(canvas.image, top, at, spread, rng.uniform(*GLARE_STRENGTH))


def reflected(
    image: Image,
    face: NDArray[np.int32],
    at: tuple[float, float],
    spread: float,
    strength: float,
) -> None:
    """A soft patch of light drawn over the polygon ``face``, body and marks alike: a lamp
    reflected by a glossy face, which fades its marks' contrast where it is brightest.
    ``at``: the brightest point, in the face's sides from its centre; ``spread``: the
    patch's standard deviation, in sides; ``strength``: how much of the way to white it
    lightens the face at its brightest."""
    x0, y0 = face.min(axis=0)
    x1, y1 = face.max(axis=0) + 1
    inside = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(inside, [face - np.array([x0, y0])], 1.0)
    side = float(np.sqrt(inside.sum()))
    centre = face.mean(axis=0) - (x0, y0) + [side * at[0], side * at[1]]
    ys, xs = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(np.float32)
    distance = np.hypot(xs - centre[0], ys - centre[1]) / (side * spread)
    light = strength * np.exp(-0.5 * distance**2) * inside
    patch = image[y0:y1, x0:x1].astype(np.float32)
    patch += light[..., None] * (255.0 - patch)
    image[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)


def _glint(canvas: _Canvas, top: NDArray[np.int32], edge: int) -> None:
    """Light caught by the rounded edge of a die's top face: a thin light line along it."""
    a, b = top[edge].astype(np.float64), top[(edge + 1) % 4].astype(np.float64)
    middle = top.mean(axis=0)
    inward = 0.08 * (middle - (a + b) / 2)
    start, end = a + inward + 0.12 * (b - a), b + inward - 0.12 * (b - a)
    cv2.line(
        canvas.image,
        (round(start[0]), round(start[1])),
        (round(end[0]), round(end[1])),
        (235, 235, 235),
        round(canvas.pixels(2)),
    )


# The fonts a d4's numerals are painted in (OpenCV's font, stroke in texture pixels), by
# family: the shipped profile learned "sans" (and the development set's dice); the others
# measure how it reads dice it never saw. (OpenCV's other Hershey fonts and its italic flag
# draw the digits of "sans".)
# OpenCV 5 draws every Hershey font as one sans-serif family (its script and light as
# "sans", thinner or not): "stroke" is drawn by the generator itself, the same under every
# OpenCV, in thin strokes as OpenCV 4's Hershey font draws them (a flat-topped 3, a 1 with
# a flag), numerals the shipped glyphs never learned.
STROKE_FONT = -1
D4_FONTS = {
    "sans": ((cv2.FONT_HERSHEY_SIMPLEX, 2), (cv2.FONT_HERSHEY_DUPLEX, 2)),
    "script": ((cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 2), (cv2.FONT_HERSHEY_SCRIPT_COMPLEX, 2)),
    "light": ((cv2.FONT_HERSHEY_SIMPLEX, 1), (cv2.FONT_HERSHEY_DUPLEX, 1)),
    "stroke": ((STROKE_FONT, 2), (STROKE_FONT, 3)),
}
# The stroke font's numerals as polylines in a box one unit tall and 0.6 wide (y down).
_STROKES: dict[str, tuple[tuple[tuple[float, float], ...], ...]] = {
    "1": (((0.15, 0.2), (0.35, 0.08), (0.4, 0.0), (0.4, 1.0)),),
    "2": (
        ((0.02, 0.24), (0.06, 0.1), (0.17, 0.02), (0.3, 0.0), (0.43, 0.02), (0.54, 0.1)),
        ((0.54, 0.1), (0.58, 0.24), (0.54, 0.38), (0.02, 1.0), (0.6, 1.0)),
    ),
    "3": (
        ((0.04, 0.0), (0.56, 0.0), (0.26, 0.38), (0.36, 0.38), (0.48, 0.43), (0.56, 0.53)),
        ((0.56, 0.53), (0.6, 0.68), (0.56, 0.84), (0.45, 0.96), (0.3, 1.0), (0.14, 0.97)),
        ((0.14, 0.97), (0.02, 0.88)),
    ),
    "4": (((0.44, 1.0), (0.44, 0.0), (0.0, 0.68), (0.62, 0.68)),),
}
D4_TEXTURE = 144  # pixels of a face's side when its numerals are painted
D4_LIGHT = np.array([-0.4, -0.5, 0.77])  # direction towards the light (x right, y down, z up)


def _d4(
    canvas: _Canvas,
    place: tuple[float, float, float],
    cocked: bool,
    value: int = 1,
    geometry: dict[str, object] | None = None,
    tip: str | None = None,
) -> list[int]:
    """A d4 as a camera above the picture's centre sees it: the base on the floor, the top
    point lifted by perspective, each visible face (an affine image of the upright face)
    shaded by its slope to the light, with the top-read numerals painted on it: near each
    corner that corner's value, its top towards the corner.

    A binary d4 (``tip`` given: ``M`` its marked tip up, ``P`` not) has no numerals but
    two of its four tips painted: the top one and one corner of the base, or two corners
    of the base."""
    rng = canvas.rng
    edge = rng.uniform(*canvas.d4_edge_mm)  # drawn for every die: the rest stays the same
    if tip is not None:
        edge = canvas.binary_d4_edge(edge)
    if cocked:
        return _cocked_d4(canvas, place, edge)
    base, apex, centre = _d4_corners(canvas, place, edge)
    if geometry is not None:  # where the corners are drawn, for tests of the d4's geometry
        geometry["top"] = [round(float(v), 2) for v in apex]
        geometry["base"] = [[round(float(v), 2) for v in corner] for corner in base]
    outline = np.asarray(cv2.convexHull(np.asarray([*base, apex], np.float32)), np.float64)
    hull = np.round(outline.reshape(-1, 2)).astype(np.int32)
    canvas.shadow(hull)
    body = canvas.die_body()
    ink = (25, 25, 25) if sum(body) > 400 else (235, 235, 235)
    font = rng.choice(D4_FONTS[canvas.d4_font])
    others = [v for v in range(1, 5) if v != value]
    rng.shuffle(others)  # either hand, turned any way
    if canvas.d4_hand is not None:
        others = _of_hand(value, others, base, canvas.d4_hand)
    if geometry is not None and tip is None:
        geometry["base_values"] = list(others)  # the value at each of ``base``
    painted = _painted_tips(rng, tip) if tip is not None else None

    def face(k: int, same: bool, light: float) -> NDArray[np.float32]:
        """Face k (from base corner k to the next) as drawn upright, ``same``: turning
        as the upright face does."""
        ends = (k, (k + 1) % 3) if same else ((k + 1) % 3, k)
        if painted is None:
            return _d4_face(body, ink, font, (value, others[ends[0]], others[ends[1]]), light)
        marks = (painted[0], painted[1 + ends[0]], painted[1 + ends[1]])
        return _binary_d4_face(body, ink, marks, light)

    _paint_d4(canvas, hull, (apex, base, centre), face)
    return _bbox(hull)


def _of_hand(
    value: int, others: list[int], base: list[NDArray[np.float64]], hand: Hand
) -> list[int]:
    """The base corners' values (``others``, one per corner of ``base``) numbered as
    ``hand``: two of them swapped when they run the other way."""
    # Rows grow downwards: a positive turn runs clockwise on screen, as seen from above.
    clockwise = _turn(*base) > 0
    listed = others if clockwise else others[::-1]
    if hand_of(value, (listed[0], listed[1], listed[2])) is hand:
        return others
    return [others[0], others[2], others[1]]


def _cocked_d4(canvas: _Canvas, place: tuple[float, float, float], edge: float) -> list[int]:
    """A d4 resting on an edge, as a blank square of its colour."""
    angle = np.radians(place[2])
    points = []
    for k in range(4):
        a = angle + np.pi / 2 * k
        points.append(
            canvas.px(place[0] + edge * 0.6 * np.cos(a), place[1] + edge * 0.6 * np.sin(a))
        )
    polygon = np.asarray(points, np.int32)
    canvas.shadow(polygon)
    cv2.fillPoly(canvas.image, [polygon], canvas.die_body())
    return _bbox(polygon)


def _d4_corners(
    canvas: _Canvas, place: tuple[float, float, float], edge: float
) -> tuple[list[NDArray[np.float64]], NDArray[np.float64], NDArray[np.float64]]:
    """A d4's base corners, its top point lifted by perspective and its base's centre, in
    picture pixels."""
    angle = np.radians(place[2])
    radius = edge / np.sqrt(3)
    base = [
        np.asarray(canvas.px(place[0] + radius * np.cos(a), place[1] + radius * np.sin(a)))
        for a in angle + np.array([0.0, 2 * np.pi / 3, 4 * np.pi / 3])
    ]
    centre = np.asarray(canvas.px(*place[:2]))
    height = edge * np.sqrt(2 / 3)
    apex = centre + (centre - np.asarray(canvas.size, np.float64) / 2) * height / (
        canvas.camera_height_mm - height
    )
    return base, apex, centre


def _paint_d4(
    canvas: _Canvas,
    hull: NDArray[np.int32],
    corners: tuple[NDArray[np.float64], list[NDArray[np.float64]], NDArray[np.float64]],
    face: Callable[[int, bool, float], NDArray[np.float32]],
) -> None:
    """The d4's visible faces (``face(k, same, light)``, see :func:`_d4`) pasted into the
    picture within ``hull``, with the camera's slight blur along their outline."""
    apex, base, centre = corners
    x0, y0, x1, y1 = _bbox(hull)
    x0, y0 = max(0, x0 - 4), max(0, y0 - 4)
    region = canvas.image[y0 : y1 + 4, x0 : x1 + 4]
    origin = np.array([x0, y0], np.float64)
    layer = np.zeros(region.shape, np.float32)
    cover = np.zeros(region.shape[:2], np.float32)
    upright = np.sign(_turn(*_upright_face()))
    for k in range(3):
        a, b = base[k], base[(k + 1) % 3]
        if _face_hidden(apex, a, b, centre):
            continue
        same = bool(np.sign(_turn(apex, a, b)) == upright)
        first, second = (a, b) if same else (b, a)
        texture = face(k, same, _face_light(apex, first, second))
        _paste_face(layer, cover, texture, (apex - origin, first - origin, second - origin))
    soft = cv2.GaussianBlur(cover, (0, 0), 0.6)[..., None]
    blurred = cv2.GaussianBlur(layer, (0, 0), 0.6)
    mixed = region.astype(np.float32) * (1 - soft) + blurred
    region[...] = np.clip(mixed, 0, 255).astype(np.uint8)


def _turn(a: NDArray[np.float64], b: NDArray[np.float64], c: NDArray[np.float64]) -> float:
    return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def _face_hidden(
    apex: NDArray[np.float64],
    a: NDArray[np.float64],
    b: NDArray[np.float64],
    centre: NDArray[np.float64],
) -> bool:
    """A face is hidden when the top point appears beyond its base edge (seen from the back)."""

    def side(p: NDArray[np.float64]) -> float:
        return float((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))

    return side(apex) * side(centre) <= 0


def _face_light(apex: NDArray[np.float64], a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    """How lit a face is: its slope (70.5 degrees) turned towards or away from the light."""
    middle = (a + b) / 2
    outward = middle - apex
    outward = outward / max(float(np.hypot(*outward)), 1e-9)
    normal = np.array(
        [
            outward[0] * np.sin(np.radians(70.5)),
            outward[1] * np.sin(np.radians(70.5)),
            np.cos(np.radians(70.5)),
        ]
    )
    light = D4_LIGHT / np.linalg.norm(D4_LIGHT)
    return float(0.55 + 0.45 * max(0.0, normal @ light))


def _d4_face(
    body: tuple[int, int, int],
    ink: tuple[int, int, int],
    font: tuple[int, int],
    values: tuple[int, int, int],
    light: float,
) -> NDArray[np.float32]:
    """One upright face (top point up) with its three numerals, as painted."""
    e = D4_TEXTURE
    texture = np.zeros((e, e, 3), np.float32)
    texture[...] = np.asarray(body, np.float32)
    corners = _upright_face()
    centre = corners.mean(axis=0)
    for corner, shown in zip(corners, values, strict=True):
        at = corner + 0.47 * (centre - corner)
        _face_numeral(texture, at, corner, str(shown), ink, font)
    return texture * light


def _painted_tips(rng: Random, tip: str) -> tuple[bool, bool, bool, bool]:
    """Which tips are painted: the top one, then the base's three corners; two in all."""
    base = [True, False, False] if tip == "M" else [True, True, False]
    rng.shuffle(base)
    return (tip == "M", base[0], base[1], base[2])


def _binary_d4_face(
    body: tuple[int, int, int],
    paint: tuple[int, int, int],
    marks: tuple[bool, bool, bool],
    light: float,
) -> NDArray[np.float32]:
    """One upright face of a binary d4 (top point up): its painted corners, a third of
    the way along its edges."""
    e = D4_TEXTURE
    painted = np.zeros((e, e), np.float32)
    corners = _upright_face()
    for index, marked in enumerate(marks):
        if not marked:
            continue
        corner = corners[index]
        near = [corner + 0.3 * (corners[other] - corner) for other in range(3) if other != index]
        polygon = np.round(np.asarray([corner, *near]) * 16).astype(np.int32)
        cv2.fillConvexPoly(painted, polygon, 1.0, cv2.LINE_AA, 4)
    weight = painted[..., None]
    colours = np.asarray(body, np.float32) * (1 - weight) + np.asarray(paint, np.float32) * weight
    return np.asarray(colours * light, np.float32)


def _upright_face() -> NDArray[np.float64]:
    e = float(D4_TEXTURE)
    height = e * np.sqrt(3) / 2
    top = (e / 2, (e - height) / 2)
    return np.asarray([top, (0.0, top[1] + height), (e, top[1] + height)], np.float64)


def _face_numeral(
    texture: NDArray[np.float32],
    at: NDArray[np.float64],
    towards: NDArray[np.float64],
    text: str,
    ink: tuple[int, int, int],
    font: tuple[int, int],
) -> None:
    """A numeral about a fifth of the edge tall at ``at``, its top turned towards ``towards``;
    ``font``: one of D4_FONTS'."""
    size = 64
    stamp = np.zeros((size, size), np.uint8)
    face, stroke = font
    if face == STROKE_FONT:
        tall = _stroked(stamp, text, stroke)
    else:
        (width, tall), _ = cv2.getTextSize(text, face, 1.0, stroke)
        origin = ((size - width) // 2, (size + tall) // 2)
        cv2.putText(stamp, text, origin, face, 1.0, 255, stroke, cv2.LINE_AA)
    up = towards - at
    turn = float(np.degrees(np.arctan2(up[0], -up[1])))
    scale = 0.19 * D4_TEXTURE / tall
    matrix = cv2.getRotationMatrix2D((size / 2, size / 2), -turn, scale)
    matrix[0, 2] += at[0] - size / 2
    matrix[1, 2] += at[1] - size / 2
    e = texture.shape[0]
    weight = cv2.warpAffine(stamp, matrix, (e, e)).astype(np.float32)[..., None] / 255
    texture[...] = texture * (1 - weight) + np.asarray(ink, np.float32) * weight


def _stroked(stamp: NDArray[np.uint8], text: str, stroke: int) -> int:
    """``text`` drawn in the stroke font in the middle of ``stamp``; returns its height."""
    tall = 24
    left, top = (stamp.shape[1] - 0.6 * tall) / 2, (stamp.shape[0] - tall) / 2
    shift = 4  # sub-pixel bits, so that the strokes land between pixels as drawn
    for line in _STROKES[text]:
        points = [(left + x * tall, top + y * tall) for x, y in line]
        fixed = np.round(np.asarray(points) * (1 << shift)).astype(np.int32)
        cv2.polylines(stamp, [fixed], False, 255, stroke, cv2.LINE_AA, shift)
    return tall


def _paste_face(
    layer: NDArray[np.float32],
    cover: NDArray[np.float32],
    texture: NDArray[np.float32],
    corners: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
) -> None:
    """The upright face painted onto the picture through its three corners."""
    matrix = cv2.getAffineTransform(
        _upright_face().astype(np.float32), np.asarray(corners, np.float32)
    )
    height, width = cover.shape
    warped = cv2.warpAffine(texture, matrix, (width, height), flags=cv2.INTER_AREA)
    inside = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(
        inside, np.round(np.asarray(corners) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4
    )
    fresh = inside * (1 - cover)
    layer += warped * fresh[..., None]
    cover += fresh


def _hand(canvas: _Canvas) -> list[int]:
    y = canvas.rng.uniform(100, 700)
    corners = [[SIZE[0] + 10, y], [SIZE[0] + 10, y + 160], [650, y + 120], [640, y + 40]]
    polygon = np.array([[canvas.pixels(u), canvas.pixels(v)] for u, v in corners], np.int32)
    canvas.shadow(polygon)
    cv2.fillPoly(canvas.image, [polygon], (120, 150, 200))
    return _bbox(polygon)


PLACING_ATTEMPTS = 50  # throws drawn before a floor is found too small for the kit


class _NoRoomError(Exception):
    """The implements drawn so far leave no room for the next one."""


class _Placer:
    """Random places on the floor, apart from one another unless told otherwise.

    Implements drawn as a clean throw lie more than ``CLEAN_GAP_MM`` apart: the development
    set calls implements within 2 mm of one another ``touching``, a throw that may be read
    or refused, so a clean throw's label must not ask for the reading of one."""

    def __init__(self, rng: Random, floor_mm: tuple[float, float] = FLOOR_MM) -> None:
        self.rng = rng
        self.floor_mm = floor_mm
        self.taken: list[tuple[float, float, float]] = []
        self.outlines: list[NDArray[np.float32]] = []  # floor millimetres

    def place(self, reach_mm: float) -> tuple[float, float, float]:
        for _ in range(200):
            long_mm, short_mm = self.floor_mm
            x = self.rng.uniform(reach_mm + 5, long_mm - reach_mm - 5)
            y = (
                self.rng.uniform(reach_mm + 5, short_mm - reach_mm - 5)
                if reach_mm < 140
                else self.rng.uniform(40, short_mm - 40)
            )
            if all(np.hypot(x - a, y - b) > reach_mm + r + 8 for a, b, r in self.taken):
                self._take((x, y, reach_mm), _disc(x, y, reach_mm))
                return x, y, self.rng.uniform(0, 180)
        raise _NoRoomError

    def narrow(self, size_mm: tuple[float, float]) -> tuple[float, float, float]:
        """Sticks and the yes/no stick need room only along their width when laid parallel."""
        reach_mm = size_mm[0] / 2
        for _ in range(200):
            x = self.rng.uniform(90, self.floor_mm[0] - 90)
            y = self.rng.uniform(30, self.floor_mm[1] - 30)
            if all(abs(y - b) > 32 or abs(x - a) > reach_mm + r + 8 for a, b, r in self.taken):
                # Laid at opposite slants, parallel sticks close in towards one end.
                angle = self.rng.uniform(-12, 12)
                outline = np.asarray(cv2.boxPoints(((x, y), size_mm, angle)), np.float32)
                if all(convex_gap(outline, other) > CLEAN_GAP_MM for other in self.outlines):
                    self._take((x, y, reach_mm), outline)
                    return x, y, angle
        raise _NoRoomError

    def _take(self, place: tuple[float, float, float], outline: NDArray[np.float32]) -> None:
        self.taken.append(place)
        self.outlines.append(outline)


def _disc(x: float, y: float, radius: float) -> NDArray[np.float32]:
    """A regular polygon around a disc, as an outline."""
    turns = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    reach = radius / np.cos(np.pi / 16)
    return np.stack([x + reach * np.cos(turns), y + reach * np.sin(turns)], axis=1).astype(
        np.float32
    )


def scene(
    seed: int,
    kit: str,
    trouble: str | None = None,
    *,
    faces: str | None = None,
    values: tuple[int, ...] | None = None,
    tray_seed: int | None = None,
    look: str | None = None,
    markers: bool = False,
    felt: tuple[int, int, int] | None = None,
    d4_edge_mm: tuple[float, float] = D4_EDGE_MM,
    d6_side_mm: tuple[float, float] = D6_SIDE_MM,
    d4_font: str = "sans",
    floor_mm: tuple[float, float] = FLOOR_MM,
    resolution: float = 1.0,
    d4_hand: Hand | None = None,
    dice_of_felt: bool = False,
    d6_glare: bool = False,
    grounded_shadows: bool = True,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
) -> SyntheticScene:
    """One throw of ``kit``; ``trouble`` (one of TROUBLES) makes it one to refuse;
    ``markers`` puts the printed corner markers on the floor; ``felt`` (BGR) is the felt's
    colour instead of one of FELTS (``WOOD``: the plain faces of decorated sticks and the
    yes/no stick's "no" face are then seen only by the felt's texture they hide).

    ``faces`` ("MMPP", one letter per stick, or the yes/no stick's) and ``values`` (the d6s,
    or the d4) choose what the implements show instead of drawing it; scenes with the same
    ``tray_seed`` share one empty tray, as the throws of one game under one camera do;
    ``look`` (one of LOOKS or OTHER_LOOKS) is the set of sticks; ``d4_edge_mm`` and
    ``d6_side_mm`` the ranges the d4s' edges and the d6s' sides are drawn from; ``d4_font``
    the family of D4_FONTS the d4s' numerals are painted in; ``floor_mm`` the inside of the
    tray, long side first (``DRAWN_FLOOR_MM``: 200 x 150 to 470 x 350 mm; a kit with no
    room on the floor, four sticks on the smallest, is a ValueError); ``resolution`` how
    many times the development set's pixels the camera has (``DRAWN_RESOLUTION``: 2 draws
    2400 x 1800 pictures of the same view, each camera pixel blurred as much); ``d4_hand``
    the hand of every d4's numbering (``Hand``: a set's dice share one), else either at random;
    ``dice_of_felt`` paints every die in the felt's colour (seen by its shading, its marks
    and the texture it hides); ``d6_glare`` puts a lamp's reflection on every d6's top
    face (see ``GLARE_SPREAD``); ``grounded_shadows`` casts each shadow from the
    implement's own outline, as an implement resting on the floor casts it (False draws
    them as the generator did before docs/vision-rounds.md's round 41, for its figures: a
    band of unshadowed felt a pixel or two wide outlines each implement, where its blurred
    edge changed the felt);
    ``camera_height_mm`` the lens above the felt, for the dice's perspective only (the
    picture's scale on the floor stays the development set's: a lens of another angle).
    """
    _check_options(d4_font, floor_mm, look, resolution, camera_height_mm)

    def drawn(rng: Random) -> SyntheticScene:
        canvas = _Canvas(
            rng,
            tray_seed,
            markers,
            felt,
            d4_edge_mm,
            d6_side_mm,
            d4_font,
            floor_mm,
            resolution,
            d4_hand,
            dice_of_felt,
            d6_glare=d6_glare,
            grounded_shadows=grounded_shadows,
            camera_height_mm=camera_height_mm,
        )
        empty = canvas.image.copy()
        drawn_look = rng.choice(list(LOOKS))  # drawn even when chosen: the rest stays
        throw = _Throw(canvas, _Placer(rng, floor_mm), trouble, faces, values, look or drawn_look)
        objects = throw.implements(kit)
        _make_trouble(canvas, objects, trouble, throw.look, kit)
        label: dict[str, object] = {"kit": kit, "design": throw.look, "expect": "read"}
        if trouble is not None:
            label["expect"] = "refuse"
            label["reasons"] = [trouble]
        label["objects"] = objects
        frame, empty = canvas.finish(empty)
        return SyntheticScene(frame, empty, label)

    # Implements placed one after another may leave no room for the last on a small floor:
    # the throw is then drawn again from another seed. One that fits at once is drawn from
    # ``seed`` itself, as it always was.
    for attempt in range(PLACING_ATTEMPTS):
        try:
            return drawn(Random(seed if attempt == 0 else f"{seed}/{attempt}"))
        except _NoRoomError:
            continue
    raise ValueError(
        f"no room for a throw of {kit} on a floor of {floor_mm[0]:g} x {floor_mm[1]:g} mm "
        f"in {PLACING_ATTEMPTS} tries: draw a larger floor"
    )


def _check_options(
    d4_font: str,
    floor_mm: tuple[float, float],
    look: str | None,
    resolution: float,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
) -> None:
    """ValueError for a font, a floor, a look, a resolution or a camera height
    :func:`scene` cannot draw."""
    if d4_font not in D4_FONTS:
        raise ValueError(f"no d4 font {d4_font!r}: one of {', '.join(D4_FONTS)}")
    low, high = DRAWN_RESOLUTION
    if not low <= resolution <= high:
        raise ValueError(
            f"a resolution of {resolution:g} cannot be drawn: {low:g} to {high:g} times the "
            f"development set's {SIZE[0]}x{SIZE[1]}"
        )
    check_drawable(floor_mm)
    lens_height(camera_height_mm)
    if look is not None and look not in LOOKS and look not in OTHER_LOOKS:
        raise ValueError(f"no stick look {look!r}: one of {', '.join([*LOOKS, *OTHER_LOOKS])}")


@dataclass
class _Throw:
    """The implements of one throw, drawn one kind after another (in a fixed order: a
    seed draws the same scene), with the faces and values asked for, if any."""

    canvas: _Canvas
    placer: _Placer
    trouble: str | None
    faces: str | None
    values: tuple[int, ...] | None
    look: str

    def implements(self, kit: str) -> list[dict[str, object]]:
        objects = self._sticks({"sticks4": 4, "sticks3": 3}.get(kit, 0))
        if kit in ("ur", "ur-nostick"):
            objects.append(self._d4())
        if kit == "binary-d4":
            objects.extend(self._binary_d4(index) for index in range(4))
        if kit == "ur":
            objects.append(self._yesno())
        if kit == "modern":
            objects.extend(self._d6(index) for index in range(2))
        return objects

    def _face(self, index: int) -> str:
        face = self.canvas.rng.choice("MP")
        return face if self.faces is None else self.faces[index]

    def _value(self, index: int, sides: int) -> int:
        value = self.canvas.rng.randint(1, sides)
        return value if self.values is None else self.values[index]

    def _sticks(self, count: int) -> list[dict[str, object]]:
        objects: list[dict[str, object]] = []
        for index in range(count):
            face = self._face(index)
            if self.trouble == "on-edge" and index == 0:
                face = "edge"
            place = self.placer.narrow(STICK_SIZE_MM)
            box = _stick(self.canvas, self.look, place, face)
            objects.append({"kind": "stick", "face": face, "bbox": box})
        return objects

    def _d4(self) -> dict[str, object]:
        value = self._value(0, 4)
        geometry: dict[str, object] = {}
        cocked = self.trouble == "cocked"
        box = _d4(self.canvas, self.placer.place(20), cocked, value, geometry)
        return {"kind": "d4", "value": value, "bbox": box, **geometry}

    def _binary_d4(self, index: int) -> dict[str, object]:
        face = self._face(index)
        cocked = self.trouble == "cocked" and index == 0
        geometry: dict[str, object] = {}
        box = _d4(self.canvas, self.placer.place(20), cocked, geometry=geometry, tip=face)
        return {"kind": "d4", "face": face, "bbox": box, **geometry}

    def _yesno(self) -> dict[str, object]:
        face = "edge" if self.trouble == "on-edge" else self.canvas.rng.choice("MP")
        if self.faces is not None and face != "edge":
            face = self.faces[0]
        box = _yesno(self.canvas, self.placer.narrow(YESNO_SIZE_MM), face)
        return {"kind": "yesno", "face": face, "bbox": box}

    def _d6(self, index: int) -> dict[str, object]:
        # The d6 and its shadow, with room to tilt its top face.
        reach = max(15.0, self.canvas.d6_side_mm[1] - 3)
        value = self._value(index, 6)
        cocked = self.trouble == "cocked" and index == 0
        box = _d6(self.canvas, self.placer.place(reach), value, cocked)
        return {"kind": "d6", "value": value, "bbox": box}


def _make_trouble(
    canvas: _Canvas, objects: list[dict[str, object]], trouble: str | None, look: str, kit: str
) -> None:
    """What makes the throw one to refuse, drawn over it (``on-edge`` and ``cocked`` were
    drawn with the implements)."""
    if trouble == "touching":
        _touching(canvas, objects, look)
    if trouble == "off-tray":
        _cut_by_border(canvas, objects, look, kit)
    if trouble == "hand":
        _hand(canvas)


def check_drawable(floor_mm: tuple[float, float]) -> None:
    """ValueError unless a tray of ``floor_mm`` inside (long side first) can be drawn."""
    smallest, largest = DRAWN_FLOOR_MM
    if not all(low <= v <= high for low, v, high in zip(smallest, floor_mm, largest, strict=True)):
        raise ValueError(
            "a floor of {:g} x {:g} mm cannot be drawn: {:g} x {:g} to {:g} x {:g} mm".format(
                *floor_mm, *smallest, *largest
            )
        )


def _touching(canvas: _Canvas, objects: list[dict[str, object]], look: str) -> None:
    """One more stick laid across the first implement: it hides part of it."""
    first = objects[0]["bbox"]
    assert isinstance(first, list)
    centre_px = ((first[0] + first[2]) / 2, (first[1] + first[3]) / 2)
    centre = (
        (centre_px[0] - canvas.origin[0]) / canvas.px_per_mm,
        (centre_px[1] - canvas.origin[1]) / canvas.px_per_mm,
    )
    box = _stick(canvas, look, (centre[0], centre[1], 90.0), "P")
    objects.append({"kind": "stick", "face": "P", "bbox": box})


def _cut_by_border(canvas: _Canvas, objects: list[dict[str, object]], look: str, kit: str) -> None:
    """One implement, of the kit's kind, half out of the picture."""
    x = -0.2 * PX_PER_MM - canvas.origin[0] / canvas.px_per_mm
    place = (x, canvas.floor_mm[1] / 2, 0.0)
    if kit.startswith("sticks"):
        box = _stick(canvas, look, place, "M")
        objects.append({"kind": "stick", "face": "M", "bbox": box, "cut": True})
    elif kit == "modern":
        box = _d6(canvas, place, 3, False)
        objects.append({"kind": "d6", "value": 3, "bbox": box, "cut": True})
    elif kit == "binary-d4":
        box = _d4(canvas, place, False, tip="M")
        objects.append({"kind": "d4", "face": "M", "bbox": box, "cut": True})
    else:
        box = _d4(canvas, place, False)
        objects.append({"kind": "d4", "value": 2, "bbox": box, "cut": True})


def small_stream(
    frame: Image, size: tuple[int, int] = (160, 120), levels: tuple[float, float] = (16, 235)
) -> Image:
    """The brightness a camera's low-resolution YUV stream gives of ``frame`` (BGR): its Y,
    BT.601 weights, from ``levels[0]`` (black) to ``levels[1]`` (white), the video range
    unless told otherwise."""
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.float64)
    luma = small @ np.array([0.114, 0.587, 0.299])
    low, high = levels
    return np.asarray(np.round(low + luma * (high - low) / 255), np.uint8)


def write_set(
    folder: Path,
    count: int,
    seed: int = 0,
    trouble_share: float = 0.3,
    d4_edge_mm: tuple[float, float] = D4_EDGE_MM,
    d6_side_mm: tuple[float, float] = D6_SIDE_MM,
    d4_font: str = "sans",
    floor_mm: tuple[float, float] = FLOOR_MM,
    kits: tuple[str, ...] = SCENE_KITS,
    resolution: float = 1.0,
    d4_hand: Hand | None = None,
    dice_of_felt: bool = False,
    d6_glare: bool = False,
    grounded_shadows: bool = True,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
) -> Path:
    """A labelled folder in the development set's format, for ``companion vision evaluate``:
    throws of ``kits``, each drawn at random (see :func:`scene` for the options)."""
    rng = Random(seed)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "trays").mkdir(parents=True, exist_ok=True)
    lines = []
    for index in range(count):
        kit = rng.choice(kits)
        trouble = rng.choice(TROUBLES) if rng.random() < trouble_share else None
        if trouble == "cocked" and kit.startswith("sticks"):
            trouble = "on-edge"
        if trouble == "on-edge" and kit in ("modern", "ur-nostick", "binary-d4"):
            trouble = "cocked"
        made = scene(
            rng.randrange(2**31),
            kit,
            trouble,
            d4_edge_mm=d4_edge_mm,
            d6_side_mm=d6_side_mm,
            d4_font=d4_font,
            floor_mm=floor_mm,
            resolution=resolution,
            d4_hand=d4_hand,
            dice_of_felt=dice_of_felt,
            d6_glare=d6_glare,
            grounded_shadows=grounded_shadows,
            camera_height_mm=camera_height_mm,
        )
        name = f"{index:05d}.png"
        cv2.imwrite(str(folder / "images" / name), made.frame)
        cv2.imwrite(str(folder / "trays" / name), made.empty)
        record = {"image": f"images/{name}", "tray": f"trays/{name}", **made.label}
        if floor_mm != FLOOR_MM:
            record["floor_mm"] = list(floor_mm)
        record["camera_height_mm"] = camera_height_mm  # drawn from it: nothing to measure
        lines.append(json.dumps(record))
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
