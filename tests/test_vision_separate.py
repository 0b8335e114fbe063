"""Segmentation on painted scenes: sticks joined by a shadow are parted and read, sticks on
one another stay refused, a wall's light is not an implement, mistake pictures are legible."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.evaluate import _draw_headline, _wrapped
from vision.features import face_features, stick_strip
from vision.observation import Kind, Observation, Reason
from vision.profile import Example, Profile, enrol
from vision.reader import Reader
from vision.segment import Segmenter
from vision.separate import (
    NEAR_MM,
    _distinct,
    _edge_angles,
    _explained,
    _Fits,
    _fits,
    _placed_apart,
    _search_size,
)
from vision.shapes import Shape, classify
from vision.synthetic import FLOOR_MM, LOOKS, PX_PER_MM, SIZE, scene
from vision.tray import ANALYSIS_SCALE, WORKING_PX_PER_MM, Image, Tray, calibrate

LOOK = "decorated"  # plain faces of bare wood: lighter than any shadow
ORIGIN = ((SIZE[0] - FLOOR_MM[0] * PX_PER_MM) / 2, (SIZE[1] - FLOOR_MM[1] * PX_PER_MM) / 2)
Place = tuple[float, float, float]  # centre on the floor (mm) and angle (degrees)


def _px(x_mm: float, y_mm: float) -> tuple[float, float]:
    return ORIGIN[0] + x_mm * PX_PER_MM, ORIGIN[1] + y_mm * PX_PER_MM


def _rectangle(place: Place, size_mm: tuple[float, float]) -> np.ndarray:
    centre = _px(place[0], place[1])
    size = (size_mm[0] * PX_PER_MM, size_mm[1] * PX_PER_MM)
    return np.asarray(np.round(cv2.boxPoints((centre, size, place[2]))), np.int32)


@lru_cache(maxsize=8)
def _empty_tray(seed: int) -> Image:
    empty = scene(seed, "sticks3").empty
    empty.setflags(write=False)
    return empty


class Painter:
    """A throw painted by hand on a generated empty tray: sticks, deep shadows, wall light."""

    def __init__(self, seed: int = 4) -> None:
        self.empty = _empty_tray(seed)
        self.image = self.empty.astype(np.float32)
        h, w = self.empty.shape[:2]
        self.felt = np.median(self.empty[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3], axis=(0, 1))

    def stick(self, place: Place, face: str, look: str = LOOK) -> None:
        marked, band, plain = LOOKS[look]
        colour = marked if face == "M" else plain
        cv2.fillConvexPoly(self.image, _rectangle(place, (120, 16)), colour)
        if face == "M" and band is not None:
            angle = np.radians(place[2])
            for k in range(1, 12, 2):  # dark bands across the marked face, 10 mm apart
                offset = -60 + (k + 0.5) * 10
                at = (place[0] + offset * np.cos(angle), place[1] + offset * np.sin(angle))
                cv2.fillConvexPoly(self.image, _rectangle((*at, place[2]), (10, 14)), band)

    def deep_shadow(self, place: Place, size_mm: tuple[float, float]) -> None:
        """Felt darkened to a quarter, its texture lost: as the renders' shadows beside a
        stick lit from low, deeper than the foreground's 30 % and joined to the stick."""
        shade = np.zeros(self.empty.shape[:2], np.float32)
        cv2.fillConvexPoly(shade, _rectangle(place, size_mm), 1.0)
        soft = cv2.GaussianBlur(shade, (0, 0), 1.5)[..., None]
        self.image = np.asarray(self.image * (1 - soft) + self.felt * 0.25 * soft, np.float32)

    def shade(self, place: Place, size_mm: tuple[float, float], depth: float) -> None:
        """A soft shadow: the felt darkened by ``depth``, its texture kept."""
        shade = np.zeros(self.empty.shape[:2], np.float32)
        cv2.fillConvexPoly(shade, _rectangle(place, size_mm), 1.0)
        soft = cv2.GaussianBlur(shade, (0, 0), 3.0)[..., None]
        self.image = np.asarray(self.image * (1 - depth * soft), np.float32)

    def patch(self, centre_px: tuple[int, int], side_mm: float, colour: tuple[int, ...]) -> None:
        half = round(side_mm * PX_PER_MM / 2)
        x, y = centre_px
        self.image[y - half : y + half, x - half : x + half] = colour

    def frame(self) -> Image:
        noise = np.random.default_rng(5).normal(0, 2, self.image.shape)
        return np.clip(self.image + noise, 0, 255).astype(np.uint8)

    def tray(self) -> Tray:
        return calibrate(self.empty)


def _examples() -> Iterator[Example]:
    for seed, faces in ((11, "MP"), (12, "PM"), (13, "MM"), (14, "PP")):
        painter = Painter(seed)
        painter.stick((110, 80, 10), faces[0])
        painter.stick((280, 200, 100), faces[1])
        frame, tray = painter.frame(), painter.tray()
        for blob in Segmenter(tray).foreground(frame).blobs:
            face = faces[0] if blob.centre[0] < SIZE[0] / 2 else faces[1]
            features = face_features(stick_strip(frame, blob, tray.px_per_mm))
            yield Example(Kind.STICK, face, LOOK, features)


@pytest.fixture(scope="module")
def profile() -> Profile:
    return enrol("painted", _examples())


def _read(painter: Painter, profile: Profile) -> Observation:
    return Reader(painter.tray(), profile).read(painter.frame())


def _shapes(painter: Painter) -> list[Shape]:
    return [classify(b).shape for b in Segmenter(painter.tray()).foreground(painter.frame()).blobs]


def _faces(observation: Observation) -> list[str]:
    sticks = sorted(observation.of_kind(Kind.STICK), key=lambda item: item.box.x0)
    return [str(item.face) for item in sticks]


def _joined_by_a_shadow(painter: Painter, shadow_mm: float, gap_mm: float) -> None:
    """A plain stick lying along x, its deep shadow along its upper side, and a marked stick
    standing on that shadow's far edge, ``gap_mm`` from the first stick."""
    painter.stick((170, 180, 0), "P")
    painter.deep_shadow((170, 180 - 8 - shadow_mm / 2, 0), (118, shadow_mm))
    painter.stick((200, 180 - 8 - gap_mm - 60, 80), "M")


def test_two_sticks_joined_only_by_a_shadow_are_parted_and_read(profile: Profile) -> None:
    painter = Painter()
    _joined_by_a_shadow(painter, shadow_mm=8, gap_mm=8)
    assert _shapes(painter) == [Shape.MERGED]  # the shadow joins them into one blob
    observation = _read(painter, profile)
    assert not observation.refused, observation.summary()
    assert _faces(observation) == ["P", "M"]


def test_a_stick_widened_by_a_deep_shadow_is_cut_down_to_its_face(profile: Profile) -> None:
    painter = Painter()
    _joined_by_a_shadow(painter, shadow_mm=12, gap_mm=12)  # its part: over 26 mm wide
    observation = _read(painter, profile)
    assert not observation.refused, observation.summary()
    plain = min(observation.of_kind(Kind.STICK), key=lambda item: item.box.x0)
    top, bottom = _px(0, 180 - 8)[1], _px(0, 180 + 8)[1]
    assert top - 5 <= plain.box.y0 and plain.box.y1 <= bottom + 5  # the stick, not its shadow
    assert plain.face == "P"


def test_a_shadow_wider_than_any_is_not_cut_away(profile: Profile) -> None:
    painter = Painter()
    _joined_by_a_shadow(painter, shadow_mm=18, gap_mm=18)  # or a second stick beside it
    assert _read(painter, profile).refused


@pytest.mark.parametrize(
    "second",
    [
        (170, 180, 90),  # across the middle of the first
        (150, 180, 30),  # across it, at a slant
        (116, 130, 80),  # its end lying across the first one's end
    ],
)
def test_sticks_lying_on_one_another_stay_refused(second: Place, profile: Profile) -> None:
    painter = Painter()
    painter.stick((170, 180, 0), "P")
    painter.stick(second, "M")
    observation = _read(painter, profile)
    assert observation.refused
    assert {r.reason for r in observation.refusals} <= {Reason.OVERLAP, Reason.UNKNOWN_OBJECT}


@pytest.mark.parametrize("gap_mm", [0.0, 1.0, 3.0])
def test_sticks_touching_end_to_side_are_read_right_or_refused(
    gap_mm: float, profile: Profile
) -> None:
    painter = Painter()
    painter.stick((170, 180, 0), "P")
    painter.stick((200, 180 - 8 - gap_mm - 60, 90), "M")  # its end at the first one's side
    observation = _read(painter, profile)
    assert observation.refused or _faces(observation) == ["P", "M"]


SEARCH_PX_PER_MM = WORKING_PX_PER_MM * ANALYSIS_SCALE  # where blobs are parted


def _outline(*rects: tuple[float, float, float, float, float]) -> NDArray[np.uint8]:
    """A blob's outline at the analysis frame's scale: rectangles (centre x and y, length
    and width in mm, angle in degrees) filled together."""
    region = np.zeros((300, 300), np.uint8)
    for x, y, length, width, angle in rects:
        centre = (x * SEARCH_PX_PER_MM, y * SEARCH_PX_PER_MM)
        size = (length * SEARCH_PX_PER_MM, width * SEARCH_PX_PER_MM)
        corners = cv2.boxPoints((centre, size, angle))
        cv2.fillConvexPoly(region, np.round(corners).astype(np.int32), 1)
    return region


def _sticks_found(region: NDArray[np.uint8]) -> list[_Fits]:
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    angles = _edge_angles(np.asarray(contours[0], np.int32), SEARCH_PX_PER_MM)
    return _distinct(_fits(_search_size(region), angles, SEARCH_PX_PER_MM))


L_SHAPED = (
    (87.0, 170.0, 136.0, 17.0, 0.0),  # a stick and 16 mm of its shadow beyond its far end
    (150.0, 95.0, 124.0, 17.0, 90.0),  # a stick standing on the first one's near end
    (150.0, 158.0, 26.0, 10.0, 0.0),  # the shadow at their junction
)


def test_two_sticks_and_their_junctions_shadow_are_explained_by_where_they_fit() -> None:
    """Each stick's rectangle is placed apart from the other, to its far end; its near end
    and the shadow at the junction lie within the places it fits at. (Dev 0046, two sticks
    in an L, went from 19.2 mm to 21.5 mm off the rectangles placed apart when copied
    through a lens a little soft and bending, and was refused.)"""
    region = _outline(*L_SHAPED)
    sticks = _sticks_found(region)
    assert len(sticks) == 2
    placed = np.zeros_like(region)
    for rect in _placed_apart(sticks):
        cv2.fillConvexPoly(placed, np.round(cv2.boxPoints(rect)).astype(np.int32), 1)
    farthest = cv2.distanceTransform(1 - placed, cv2.DIST_L2, 3)[region > 0].max()
    assert farthest > NEAR_MM * SEARCH_PX_PER_MM  # what the placed rectangles alone leave
    assert _explained(region, sticks, SEARCH_PX_PER_MM)


def test_a_die_against_a_stick_is_not_explained_by_the_sticks() -> None:
    region = _outline(*L_SHAPED, (90.0, 190.0, 25.0, 25.0, 0.0))
    sticks = _sticks_found(region)
    assert len(sticks) == 2
    assert not _explained(region, sticks, SEARCH_PX_PER_MM)


def test_a_small_light_on_the_wall_is_not_an_implement(profile: Profile) -> None:
    painter = Painter()
    painter.stick((150, 150, 20), "M")
    wall = (round(ORIGIN[0] + FLOOR_MM[0] * PX_PER_MM + 6 * PX_PER_MM), 400)
    painter.patch(wall, 12, tuple(int(c * 1.6) for c in painter.empty[wall[1], wall[0]]))
    observation = _read(painter, profile)
    assert not observation.refused, observation.summary()


def test_a_die_sized_object_beyond_the_floor_is_refused(profile: Profile) -> None:
    painter = Painter()
    painter.stick((150, 150, 20), "M")
    rim = (round(ORIGIN[0] + FLOOR_MM[0] * PX_PER_MM + 30 * PX_PER_MM), 400)
    painter.patch(rim, 17, (240, 240, 240))
    observation = _read(painter, profile)
    assert {r.reason for r in observation.refusals} & {Reason.OFF_TRAY, Reason.ON_RIM}


def test_a_stick_whole_on_the_floor_is_read_without_its_light_on_the_wall(
    profile: Profile,
) -> None:
    painter = Painter()
    painter.stick((150, FLOOR_MM[1] - 60 - 1, 90), "M")  # its end 1 mm from the wall
    below = (round(_px(150, 0)[0]), round(_px(0, FLOOR_MM[1] + 6)[1]))
    glow = tuple(int(min(255, c * 1.5)) for c in painter.empty[below[1], below[0]])
    painter.patch(below, 12, glow)  # the wall lit by the stick, joined to it: over 225 mm²
    painter.patch((below[0] - 24, below[1]), 12, glow)
    painter.stick((250, 120, 20), "P")
    observation = _read(painter, profile)
    assert not observation.refused, observation.summary()
    assert _faces(observation) == ["M", "P"]


def _tint_beyond_the_bottom_wall(painter: Painter, x_mm: float) -> None:
    """The wall below the floor shaded from 6 mm past the floor's edge to the picture's
    border, 6 mm wide (under 225 mm² of it in the picture), its blue falling most: in dev
    0149 a stick keeps the blue felt's light off the wall so."""
    place = (x_mm, FLOOR_MM[1] + 6 + 15, 90)
    wall = painter.empty[round(_px(0, FLOOR_MM[1] + 10)[1]), round(_px(x_mm, 0)[0])]
    colour = (float(wall[0]) * 0.65, float(wall[1]) * 0.8, float(wall[2]) * 0.95)  # b, g, r
    cv2.fillConvexPoly(painter.image, _rectangle(place, (30, 6)), colour)


def test_a_stick_s_shade_on_the_wall_cut_by_the_border_is_not_an_implement(
    profile: Profile,
) -> None:
    painter = Painter()
    painter.stick((150, FLOOR_MM[1] - 60 - 1, 90), "M")  # its end 1 mm from the wall
    _tint_beyond_the_bottom_wall(painter, 150)  # 7 mm from the stick's end
    segmenter = Segmenter(painter.tray())
    assert len(segmenter.foreground(painter.frame()).blobs) == 1
    observation = _read(painter, profile)
    assert not observation.refused, observation.summary()
    assert _faces(observation) == ["M"]


def test_a_small_thing_cut_by_the_border_beyond_the_floor_is_refused(profile: Profile) -> None:
    painter = Painter()
    painter.stick((150, FLOOR_MM[1] - 60 - 1, 90), "M")
    _tint_beyond_the_bottom_wall(painter, 300)  # far from the stick: maybe an implement
    observation = _read(painter, profile)
    assert Reason.OFF_TRAY in {r.reason for r in observation.refusals}


def test_a_stick_reaching_over_the_wall_stays_refused(profile: Profile) -> None:
    painter = Painter()
    painter.stick((150, FLOOR_MM[1] - 60 + 14, 90), "M")  # 14 mm of it beyond the floor
    painter.stick((250, 120, 20), "P")
    observation = _read(painter, profile)
    assert {r.reason for r in observation.refusals} & {Reason.ON_RIM, Reason.OFF_TRAY}


GREY_FELT_SEED = 5  # a generated tray with the dark grey felt, (60, 60, 60)


def _stick_blobs(painter: Painter) -> list[tuple[float, float]]:
    blobs = Segmenter(painter.tray()).foreground(painter.frame()).blobs
    return [(b.length_mm, b.width_mm) for b in blobs]


def test_a_black_stick_on_a_dark_grey_felt_is_found() -> None:
    painter = Painter(GREY_FELT_SEED)
    assert tuple(painter.felt) == (60, 60, 60)
    painter.shade((172, 152, 30), (120, 16), 0.35)
    painter.stick((170, 150, 30), "P", "white-black")  # a darkening that keeps the hue
    (length, width), *others = _stick_blobs(painter)
    assert not others
    assert 115 <= length <= 130 and 15 <= width <= 24


def test_a_shadow_of_a_stick_s_size_on_a_dark_grey_felt_is_no_implement() -> None:
    painter = Painter(GREY_FELT_SEED)
    painter.shade((170, 150, 30), (124, 20), 0.5)  # as dark as the stick, texture kept
    assert _stick_blobs(painter) == []


def test_mistake_headline_is_wrapped_to_the_picture() -> None:
    text = "expect read | refused: " + "an implement leans on the rim: throw again; " * 4
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, 0.5
    lines = _wrapped(text, 400, font, scale)
    assert len(lines) > 1
    assert " ".join(lines) == " ".join(text.split())
    assert all(cv2.getTextSize(line, font, scale, 1)[0][0] <= 400 for line in lines)
    picture = np.full((200, 420, 3), 128, np.uint8)
    _draw_headline(picture, text)
    assert (picture[2, :] == 0).all()  # a dark band behind the text
    assert picture[: 20 * len(lines)].max() >= 250  # white text on it (anti-aliased)
