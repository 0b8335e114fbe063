"""What changes between calibration and a throw besides the throw: a tray nudged by a throw
or a camera that shook moves the picture a few pixels, and the room's light or the
camera's exposure changes its colours. Both are undone before the picture is compared
with the empty tray and its colours are read."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.align import EdgeAlignment
from vision.guided import flat_examples
from vision.kit import kit_named
from vision.observation import Kind, Reason
from vision.profile import default_profile
from vision.reader import Reader
from vision.segment import Segmenter, _compared, byte_median, channel_median
from vision.settle import Scene
from vision.synthetic import scene
from vision.tray import Image, calibrate
from vision.watcher import ThrowWatcher


def _moved(image: Image, dx: int, dy: int) -> Image:
    """The picture as the camera sees it once the tray moved (dx, dy) pixels; what comes
    in at the border repeats the border."""
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    size = (image.shape[1], image.shape[0])
    return np.asarray(cv2.warpAffine(image, shift, size, borderMode=cv2.BORDER_REPLICATE), np.uint8)


def _assert_read_alike(reader: Reader, frame: Image, changed: Image, kit: str) -> None:
    """The changed picture reads as the picture itself does, which reads without refusal."""
    still = reader.read(frame, kit_named(kit))
    assert still.implements and not still.refusals
    read = reader.read(changed, kit_named(kit))
    assert not read.refusals
    assert [(i.kind, i.face, i.value) for i in read.implements] == [
        (i.kind, i.face, i.value) for i in still.implements
    ]


@pytest.mark.parametrize(("seed", "kit"), [(1, "sticks4"), (2, "modern"), (8, "ur")])
@pytest.mark.parametrize(("dx", "dy"), [(1, 0), (3, -2), (-7, 5)])
def test_a_throw_moved_a_few_pixels_is_read_as_if_it_had_not_moved(
    seed: int, kit: str, dx: int, dy: int
) -> None:
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    moved = _moved(made.frame, dx, dy)
    assert reader.segmenter.shift(moved) == (dx, dy)
    _assert_read_alike(reader, made.frame, moved, kit)


def test_a_moved_throws_boxes_are_where_it_lies_in_the_picture() -> None:
    made = scene(1, "sticks4")
    reader = Reader(calibrate(made.empty), default_profile())
    still = reader.read(made.frame, kit_named("sticks4")).implements
    moved = reader.read(_moved(made.frame, -7, 5), kit_named("sticks4")).implements
    assert [i.box.moved(-7, 5) for i in still] == [i.box for i in moved]


def test_what_comes_in_at_the_border_is_the_empty_trays() -> None:
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    back = segmenter.aligned(_moved(made.frame, 6, 0))
    assert np.array_equal(back[:, -6:], made.empty[:, -6:])
    assert np.array_equal(back[:, :-6], made.frame[:, :-6])


def test_an_unmoved_picture_is_left_as_it_is() -> None:
    made = scene(2, "modern")
    segmenter = Segmenter(calibrate(made.empty))
    assert segmenter.shift(made.frame) == (0, 0)
    assert segmenter.aligned(made.frame) is made.frame


def _turned(image: Image, degrees: float, size: float = 1.0) -> Image:
    """The picture as the camera sees it once the tray turned about the picture's middle
    (counterclockwise on screen) and looks ``size`` times as large; Lanczos interpolation,
    the least blurring."""
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, size)
    turned = cv2.warpAffine(
        image, turn, (width, height), flags=cv2.INTER_LANCZOS4, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(turned, np.uint8)


@pytest.mark.parametrize(("seed", "kit"), [(1, "sticks4"), (2, "modern"), (8, "ur")])
@pytest.mark.parametrize("degrees", [0.5, -1.5])
def test_a_throw_turned_by_a_knock_is_read_as_if_it_had_not_turned(
    seed: int, kit: str, degrees: float
) -> None:
    """Moved back by whole pixels only, the rim's edges of a tray turned by half a degree
    stood out as implements leaning on it, and every such throw was refused."""
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    turned = _turned(made.frame, degrees)
    assert reader.segmenter.turn_and_size(turned) == pytest.approx((degrees, 1.0), abs=0.05)
    _assert_read_alike(reader, made.frame, turned, kit)


@pytest.mark.parametrize(("seed", "kit"), [(1, "sticks4"), (2, "modern"), (8, "ur")])
@pytest.mark.parametrize("size", [1.01, 0.99])
def test_a_throw_seen_from_a_camera_bumped_nearer_or_further_is_read_alike(
    seed: int, kit: str, size: float
) -> None:
    """One per cent larger or smaller, the rim's edges stood out as a turn's did, and
    every throw was refused."""
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    resized = _turned(made.frame, 0.0, size)
    degrees, found = reader.segmenter.turn_and_size(resized)
    assert degrees == pytest.approx(0.0, abs=0.05) and found == pytest.approx(size, abs=0.001)
    _assert_read_alike(reader, made.frame, resized, kit)


def test_the_reader_follows_a_knocked_tray_and_its_return() -> None:
    """Once a frame shows the tray turned, the next frames are read against the tray as it
    lies (its empty picture turned once), not turned back one by one; a frame of the tray
    where it was calibrated brings the calibration back."""
    made = scene(8, "ur")
    reader = Reader(calibrate(made.empty), default_profile())
    turned = _turned(made.frame, 0.7)
    assert not reader.read(turned, kit_named("ur")).refusals
    assert reader.tray is not reader.calibrated
    assert reader.segmenter.turn_and_size(turned) == (0.0, 1.0)
    assert not reader.read(made.frame, kit_named("ur")).refusals
    assert reader.tray is reader.calibrated


def test_a_knocked_tray_picked_up_is_empty_to_the_watcher() -> None:
    """A throw that knocked the tray is read; once its implements are picked up, the tray
    as it now lies is empty, not one more throw to read (and refuse)."""
    made = scene(8, "ur")
    reader = Reader(calibrate(made.empty), default_profile())
    watcher = ThrowWatcher(reader, kit_named("ur"), still_frames=2, averaged=2)
    thrown, picked_up = _turned(made.frame, 0.7), _turned(made.empty, 0.7)
    reported = [watcher.offer(frame) for frame in [made.empty, *[thrown] * 5, *[picked_up] * 5]]
    readings = [seen for seen in reported if seen is not None]
    assert len(readings) == 1 and not readings[0].refusals
    assert watcher.scene is Scene.EMPTY


def test_a_turned_throws_boxes_are_where_it_lies_in_the_picture() -> None:
    """Placed by how far the picture's middle moved: within a few pixels of where the turn
    took each implement."""
    made = scene(1, "sticks4")
    reader = Reader(calibrate(made.empty), default_profile())
    still = reader.read(made.frame, kit_named("sticks4")).implements
    turned = reader.read(_turned(made.frame, 1.0), kit_named("sticks4")).implements
    turn = cv2.getRotationMatrix2D((made.frame.shape[1] / 2, made.frame.shape[0] / 2), 1.0, 1.0)
    for before, after in zip(still, turned, strict=True):
        centre = turn @ np.array(
            [(before.box.x0 + before.box.x1) / 2, (before.box.y0 + before.box.y1) / 2, 1.0]
        )
        assert abs((after.box.x0 + after.box.x1) / 2 - centre[0]) <= 4
        assert abs((after.box.y0 + after.box.y1) / 2 - centre[1]) <= 4


def test_an_unturned_picture_tells_no_turn() -> None:
    made = scene(2, "modern")
    segmenter = Segmenter(calibrate(made.empty))
    assert segmenter.turn_and_size(made.frame) == (0.0, 1.0)
    assert segmenter.turn_and_size(_moved(made.frame, 3, -2)) == (0.0, 1.0)


def test_a_felt_without_texture_is_aligned_by_the_trays_edges() -> None:
    """Nothing on the felt to match: the floor's outline and the walls tell the move,
    to a fraction of a pixel; a turn they do not tell."""
    made = scene(1, "sticks4")
    plain = np.asarray(cv2.GaussianBlur(made.empty, (0, 0), 6), np.uint8)
    noise = np.random.default_rng(5)

    def noisy(image: Image) -> Image:
        return np.clip(image + noise.normal(0, 2, image.shape), 0, 255).astype(np.uint8)

    segmenter = Segmenter(calibrate(noisy(plain)))
    assert segmenter.shift(noisy(_moved(plain, 3, -2))) == (3, -2)
    found = segmenter.fine_shift(noisy(_moved_finely(plain, 1.4, -0.3)))
    assert found == pytest.approx((1.4, -0.3), abs=0.1)
    assert segmenter.turn_and_size(noisy(_turned(plain, 1.0, 1.01))) == (0.0, 1.0)


def test_edges_along_one_direction_tell_no_shift() -> None:
    """Walls as dark as the felt on two sides: the edges left cannot tell a move along
    themselves, and the picture is compared as it is rather than moved at random."""
    made = scene(1, "sticks4")
    tray = calibrate(made.empty)
    grey = np.full(made.empty.shape[:2], 120, np.float32)
    top, bottom = (round(float(y)) for y in (tray.floor[:, 1].min(), tray.floor[:, 1].max()))
    grey[:top] = grey[bottom:] = 40
    edges = EdgeAlignment(grey, tray.floor, tray.px_per_mm)
    assert edges.shift(np.roll(grey, (1, 2), axis=(0, 1))) is None


def test_a_darker_room_is_not_taken_for_a_move() -> None:
    """Every edge changes in proportion to its levels: a gain, not a move."""
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    for gain in (0.7, 1.3):
        darker = np.clip(made.frame * np.float32(gain), 0, 255).astype(np.uint8)
        assert segmenter.fine_shift(darker) == pytest.approx((0.0, 0.0), abs=0.05)


def test_a_throw_moved_by_a_fraction_of_a_pixel_is_read_as_if_it_had_not_moved() -> None:
    """A fraction of a pixel blurs the felt's fine texture away and leaves thin changes
    along the floor's outline: the reader moves its empty tray to the picture instead."""
    made = scene(3, "sticks4")
    reader = Reader(calibrate(made.empty), default_profile())
    moved = _moved_finely(made.frame, 0.5, -0.5)
    _assert_read_alike(reader, made.frame, moved, "sticks4")
    assert reader.tray is not reader.calibrated


def _moved_finely(image: Image, dx: float, dy: float) -> Image:
    """Moved by fractions of a pixel (Lanczos), the border repeated."""
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    size = (image.shape[1], image.shape[0])
    moved = cv2.warpAffine(
        image, shift, size, flags=cv2.INTER_LANCZOS4, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(moved, np.uint8)


def _lit(image: Image, gains: tuple[float, float, float]) -> Image:
    scaled = image.astype(np.float32) * np.asarray(gains, np.float32)
    return np.asarray(np.clip(scaled, 0, 255), np.uint8)


@pytest.mark.parametrize(("seed", "kit"), [(1, "sticks4"), (2, "modern"), (8, "ur")])
@pytest.mark.parametrize("gains", [(0.7, 0.7, 0.7), (0.85, 0.95, 1.1)])
def test_a_throw_under_other_light_is_read_as_under_the_calibrations(
    seed: int, kit: str, gains: tuple[float, float, float]
) -> None:
    """A room grown darker, or a lamp of another colour: the felt tells by how much, and
    the picture is scaled back channel by channel before its colours are read."""
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    _assert_read_alike(reader, made.frame, _lit(made.frame, gains), kit)


def test_the_felt_is_scaled_back_to_the_empty_trays_colour() -> None:
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    assert segmenter.relit(made.empty) is made.empty
    darker = segmenter.relit(_lit(made.frame, (0.6, 0.8, 0.9)))
    floor = cv2.resize(segmenter._floor, (darker.shape[1], darker.shape[0])) > 0
    felt = np.median(darker[floor], axis=0)
    assert np.abs(felt - np.median(made.empty[floor], axis=0)).max() <= 2.0


def test_faces_are_enrolled_as_they_are_read_under_other_light() -> None:
    """Enrolment sees the picture as the reader does: a stick shown in a darker room
    teaches the features it has in the calibration's light."""
    made = scene(1, "sticks4")
    segmenter = Segmenter(calibrate(made.empty))
    shown = flat_examples(made.frame, segmenter, Kind.STICK, "M", "test")
    darker = flat_examples(_lit(made.frame, (0.7, 0.7, 0.7)), segmenter, Kind.STICK, "M", "test")
    assert len(shown) == len(darker) == 4
    for seen, dimmed in zip(shown, darker, strict=True):
        # Lightness, the colour's two axes, and its hue (which fades out on a pale face).
        assert np.allclose(seen.features.as_array()[:3], dimmed.features.as_array()[:3], atol=1.5)
        assert abs(seen.features.values[-1] - dimmed.features.values[-1]) < 5.0


@pytest.mark.parametrize("count", [1, 2, 7, 1000, 17001])
def test_the_felts_median_from_histograms_is_numpys_median(count: int) -> None:
    pixels = np.random.default_rng(count).integers(0, 256, (count, 3)).astype(np.uint8)
    assert np.array_equal(byte_median(pixels), np.median(pixels, axis=0))


@pytest.mark.parametrize("count", [1, 2, 3, 8, 1000, 1001, 17000])
@pytest.mark.parametrize("ties", [False, True])
def test_the_channels_median_is_numpys_median(count: int, ties: bool) -> None:
    values = np.random.default_rng(count).normal(0.0, 1.0, (count, 3))
    pixels = (np.round(values * 2) if ties else values).astype(np.float32)
    expected = np.median(pixels, axis=0).astype(np.float32)
    assert np.array_equal(channel_median(pixels), expected)
    assert np.array_equal(channel_median(pixels[::2]), np.median(pixels[::2], axis=0))


@pytest.mark.parametrize(
    ("comparison", "numpys"),
    [(cv2.CMP_GT, np.greater), (cv2.CMP_LT, np.less)],
)
@pytest.mark.parametrize("level", [0.07, -0.15, float(np.log(0.3))])
def test_the_masks_of_a_comparison_are_numpys(comparison: int, numpys: Any, level: float) -> None:
    # Levels of the foreground's tests, against values of float32 that lie on them too.
    values = np.random.default_rng(7).normal(0.0, 0.5, (90, 120)).astype(np.float32)
    values[::7, ::5] = np.float32(level)
    expected = numpys(values, level).astype(np.uint8) * 255
    assert np.array_equal(_compared(values, comparison, level), expected)


@pytest.mark.parametrize("move", [(-9, 7), (-9, 0), (-12, -5), (-7, 7)])
def test_a_die_cut_by_the_pictures_border_refuses_a_frame_moved_back(
    move: tuple[int, int],
) -> None:
    # The frame is moved back onto the empty tray by whole pixels, and the strip this
    # uncovers holds the empty tray: the die cut by the picture's left border must still
    # touch it, or the throw is read without it.
    from benchmarks.vision_drift import shifted

    for seed in (0, 1):
        made = scene(seed, "ur-nostick", "off-tray")
        assert min(item["bbox"][0] for item in made.objects) < 0  # cut by the border
        reader = Reader(calibrate(made.empty), default_profile())
        observation = reader.read(shifted(*move)(made.frame), kit_named("ur-nostick"))
        assert Reason.OFF_TRAY in {refusal.reason for refusal in observation.refusals}
