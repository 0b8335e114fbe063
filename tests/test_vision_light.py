"""Light that changed over part of the tray only since calibration: a player leaning
between the lamp and the tray shades a large part of it. The frame is relit pixel by pixel
where such a shade is found, and only there; an arm over the tray, or an implement of the
felt's own colour, is never taken for light."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.kit import kit_named
from vision.light import LightField, UnevenLight
from vision.profile import default_profile
from vision.reader import Reader
from vision.segment import Segmenter, _detail, _shrunk
from vision.synthetic import scene
from vision.tray import ANALYSIS_SCALE, Image, calibrate

EDGE_PX = 40.0  # a shade's soft edge, as a lamp above casts it


def _shaded(image: Image, depth: float, *, left: bool = True, at: float = 0.5) -> Image:
    """The picture darkened by ``depth`` on one side of an upright edge at ``at`` of its
    width, with a soft edge."""
    columns = np.arange(image.shape[1], dtype=np.float32)
    inside = at * image.shape[1] - columns
    shade = 1.0 / (1.0 + np.exp(-(inside if left else -inside) / (EDGE_PX / 4)))
    gain = (1.0 - depth * shade)[None, :, None]
    return np.asarray(np.clip(image * gain + 0.5, 0, 255), np.uint8)


def _reads(reader: Reader, frame: Image, kit: str) -> list[tuple[object, ...]]:
    read = reader.read(frame, kit_named(kit))
    assert not read.refusals, read.refusals
    return [(i.kind, i.face, i.value) for i in read.implements]


@pytest.mark.parametrize(("seed", "kit"), [(1, "sticks4"), (2, "modern"), (8, "ur")])
@pytest.mark.parametrize("left", [True, False])
def test_a_throw_under_a_players_shade_is_read_as_in_even_light(
    seed: int, kit: str, left: bool
) -> None:
    """Half the picture 30 % darker: relit as a whole, the other half looked lighter than
    the empty tray, an object from wall to wall, or its colours dimmed."""
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    expected = _reads(reader, made.frame, kit)
    assert expected
    at = _clear_of(made.objects, made.frame.shape[1])
    assert _reads(reader, _shaded(made.frame, 0.3, left=left, at=at), kit) == expected


def _clear_of(objects: list[dict[str, object]], width: int) -> float:
    """Where an upright edge in the middle third of the picture passes farthest from every
    implement (see "What is missing" in docs/vision.md: an edge across one is refused)."""
    spans = [(float(o["bbox"][0]), float(o["bbox"][2])) for o in objects]  # type: ignore[index]
    places = np.linspace(width / 3, 2 * width / 3, 41)
    room = [min(max(x0 - x, x - x1) for x0, x1 in spans) for x in places]
    return float(places[int(np.argmax(room))]) / width


def _shaded_beyond(image: Image, depth: float, point: tuple[int, int], degrees: float) -> Image:
    """The picture darkened by ``depth`` on one side of a straight edge through ``point``
    (the side ``degrees`` points to, clockwise from the right), with a soft edge."""
    ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]].astype(np.float32)
    angle = np.radians(degrees)
    inside = (xs - point[0]) * np.cos(angle) + (ys - point[1]) * np.sin(angle)
    shade = 1.0 / (1.0 + np.exp(-inside / (EDGE_PX / 4)))
    return np.asarray(np.clip(image * (1.0 - depth * shade)[..., None] + 0.5, 0, 255), np.uint8)


@pytest.mark.parametrize(("seed", "kit"), [(8, "ur"), (3, "sticks3")])
def test_a_shades_edge_is_followed_to_the_pictures_last_rows(seed: int, kit: str) -> None:
    """The cells that tell a shade cover the whole picture: a strip along the bottom and
    right sides, narrower than a cell, once took the last cells' light, and a shade's edge
    crossing it was seen as an implement cut by the picture's border."""
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    expected = _reads(reader, made.frame, kit)
    assert _reads(reader, _shaded_beyond(made.frame, 0.3, (1000, 880), -60.0), kit) == expected


def _field(segmenter: Segmenter, frame: Image) -> LightField | None:
    small = _shrunk(segmenter.tray.working(frame))
    gains = segmenter._gains(small)
    detail = _detail(small)
    return segmenter._uneven.field(small, gains, lambda: segmenter._texture_kept(detail))


def test_a_frame_in_even_light_is_not_relit_pixel_by_pixel() -> None:
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    assert _field(segmenter, made.frame) is None
    assert _field(segmenter, _shaded(made.frame, 0.3)) is not None


def test_the_shade_is_relit_to_the_empty_trays_light() -> None:
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    relit = segmenter.relit(_shaded(made.empty, 0.3))
    floor = cv2.resize(segmenter._floor, (relit.shape[1], relit.shape[0])) > 0
    change = np.abs(relit.astype(np.float32) - made.empty.astype(np.float32)).max(axis=2)
    # Within a few grey levels, the soft edge too: felt lighter by 16 % is an object.
    assert float(np.percentile(change[floor], 99)) <= 8.0


def test_an_arm_over_the_tray_is_not_taken_for_a_shade() -> None:
    """An arm covers a shade's area and is lighter or darker than the felt as a shade is,
    but hides the felt's texture: relit away, it would no longer be refused."""
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    frame = made.frame.copy()
    arm = np.array([[1200, 250], [1200, 650], [500, 560], [500, 340]], np.int32)
    cv2.fillPoly(frame, [arm], (90, 120, 170))
    assert _field(segmenter, frame) is None
    read = Reader(segmenter.tray, default_profile()).read(frame, kit_named("sticks4"))
    assert read.refusals


def test_an_implement_of_the_felts_colour_does_not_tell_the_light() -> None:
    """A bare-wood stick on a felt of its wood, in the shade: its own pixels are within
    the shade's levels, but hide the felt's texture. Had they told the light, the stick
    would be relit to the felt's brightness and go unseen: the yes/no stick unseen reads
    as not thrown."""
    rng = np.random.default_rng(3)
    texture = cv2.GaussianBlur(rng.normal(0.0, 12.0, (450, 600)).astype(np.float32), (0, 0), 1.2)
    felt = np.clip(150.0 + texture, 0, 255)
    empty = np.dstack([felt * 0.8, felt * 0.95, felt]).astype(np.uint8)
    frame = empty.copy()
    frame[150:300, 150:170] = (np.asarray([0.8, 0.95, 1.0]) * 150 * 1.07).astype(np.uint8)
    frame = _shaded(frame, 0.3, at=0.6)
    floor = np.full(empty.shape[:2], 255, np.uint8)
    uneven = UnevenLight(empty, floor, px_per_mm=1.225)
    kept = np.full(frame.shape[:2], 0.8, np.float32)  # the felt's texture shows ...
    kept[150:300, 150:170] = 0.0  # ... but where the stick hides it
    field = uneven.field(frame, None, lambda: kept)
    assert field is not None
    # Analysis pixels to the field's.
    at = field.scale / ANALYSIS_SCALE
    shade_level = float(
        np.median(field.log_ratio[int(150 * at) : int(300 * at), int(100 * at) : int(140 * at)])
    )
    assert shade_level == pytest.approx(np.log(0.7), abs=0.03)
    # The stick's middle is lit as the felt round it, not as the stick (7 % lighter).
    assert float(field.log_ratio[int(225 * at), int(160 * at)]) == pytest.approx(
        shade_level, abs=0.025
    )


def test_the_light_under_an_implement_follows_a_shades_edge_across_it() -> None:
    """A stick 20 mm wide with its shadow, a shade's edge crossing it at a shallow angle:
    the light under it is told by the felt on either side, where the edge lies otherwise.
    Smoothed averages of that felt were 0.15 (log) off under much of the stick (95th
    percentile), 0.06 now."""
    rng = np.random.default_rng(5)
    texture = cv2.GaussianBlur(rng.normal(0.0, 12.0, (450, 600)).astype(np.float32), (0, 0), 1.2)
    empty = np.dstack([np.clip(140.0 + texture, 0, 255)] * 3).astype(np.uint8)
    stick = np.zeros(empty.shape[:2], np.uint8)
    cv2.fillPoly(stick, [np.array([[210, 212], [390, 212], [390, 237], [210, 237]])], 255)
    shadow = np.asarray(cv2.dilate(stick, np.ones((9, 9), np.uint8)), np.uint8) & ~stick
    frame = empty.copy()
    frame[stick > 0] = 60
    frame[shadow > 0] = (frame[shadow > 0] * 0.6).astype(np.uint8)
    ys, xs = np.mgrid[0:450, 0:600].astype(np.float32)
    turned = np.radians(10.0)  # the edge crosses the stick along its length
    inside = (ys - 225.0) * np.cos(turned) - (xs - 300.0) * np.sin(turned)
    lit = 1.0 - 0.45 / (1.0 + np.exp(-inside / (EDGE_PX / 4)))
    frame = np.clip(frame * lit[..., None] + 0.5, 0, 255).astype(np.uint8)
    kept = np.full(frame.shape[:2], 0.8, np.float32)
    kept[(stick | shadow) > 0] = 0.0  # a stick and its deep shadow hide the felt
    floor = np.full(empty.shape[:2], 255, np.uint8)
    field = UnevenLight(empty, floor, px_per_mm=1.225).field(frame, None, lambda: kept)
    assert field is not None
    at = field.scale / ANALYSIS_SCALE
    size = (round(600 * at), round(450 * at))
    under = cv2.resize(stick, size, interpolation=cv2.INTER_AREA) > 254
    truth = cv2.resize(np.log(lit).astype(np.float32), size, interpolation=cv2.INTER_AREA)
    height, width = field.log_ratio.shape
    off = np.abs(field.log_ratio - truth[:height, :width])[under[:height, :width]]
    assert float(np.percentile(off, 95)) <= 0.08
