"""A camera with more pixels than the working picture: the d4's numerals are read from its
own picture, the die found at the working scale placed there point for point."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.align import Motion
from vision.dataset import d4s_in
from vision.kit import kit_named
from vision.numerals import Glyph
from vision.observation import Reason
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import scene
from vision.tetra import Tetra, canonical_triangle, fit_tetra, numeral_view, rectified_patch
from vision.tray import Image, Tray, calibrate

SMALL_D4_MM = (16.0, 18.0)


def _smooth_picture(width: int, height: int) -> Image:
    """Waves of colour some 80 pixels long: interpolated anywhere, they stay what they are,
    and half a pixel off is seen."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    channels = [
        128 + 60 * np.sin(xs / 12.0) * np.cos(ys / 17.0),
        128 + 60 * np.sin((xs + ys) / 19.0),
        128 + 60 * np.cos(xs / 14.0 - ys / 10.0),
    ]
    return np.asarray(np.clip(np.stack(channels, axis=2), 0, 255), np.uint8)


def _sampled(picture: Image, points: np.ndarray) -> np.ndarray:
    """The picture's colours at fractional points (n, 2), bilinear."""
    xs = np.asarray(points[:, 0], np.float32).reshape(1, -1)
    ys = np.asarray(points[:, 1], np.float32).reshape(1, -1)
    sampled = cv2.remap(picture.astype(np.float32), xs, ys, cv2.INTER_LINEAR)
    return np.asarray(sampled.reshape(-1, 3), np.float64)


def _tray(picture: Image, px_per_mm: float, keystone: np.ndarray | None) -> Tray:
    height, width = picture.shape[:2]
    floor = np.array([[40, 30], [width - 40, 30], [width - 40, height - 30], [40, height - 30]])
    return Tray.from_picture(picture, floor.astype(np.float32), px_per_mm, 380.0, keystone=keystone)


KEYSTONE = np.array([[1.0, 0.02, -6.0], [-0.015, 0.99, 4.0], [1.5e-5, -1e-5, 1.0]])


@pytest.mark.parametrize(
    ("size", "px_per_mm", "keystone"),
    [
        ((2400, 1800), 4.9, None),
        ((1800, 1350), 3.7, None),
        ((1280, 960), 2.65, None),
        ((2400, 1800), 4.9, KEYSTONE),
        ((800, 600), 1.63, KEYSTONE),
        ((1200, 900), 2.45, KEYSTONE),
    ],
    ids=[
        "twice",
        "one-and-a-half",
        "a-little-more",
        "twice-tilted",
        "two-thirds-tilted",
        "working-tilted",
    ],
)
def test_a_point_of_the_working_picture_is_found_in_the_cameras(
    size: tuple[int, int], px_per_mm: float, keystone: np.ndarray | None
) -> None:
    picture = _smooth_picture(*size)
    tray = _tray(picture, px_per_mm, keystone)
    working = tray.working(picture).astype(np.float64)
    width, height = tray.size
    ys, xs = np.mgrid[60 : height - 60 : 37, 60 : width - 60 : 41]
    points = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    expected = working[ys.ravel(), xs.ravel()]
    placed = tray.to_picture(points)
    error = np.abs(_sampled(picture, placed) - expected).mean()
    assert error < 0.6
    for off in ([0.5, 0.0], [0.0, 0.5]):  # half a pixel of the camera's
        assert np.abs(_sampled(picture, placed + off) - expected).mean() > 2 * error


def _knocked(picture: Image, motion: Motion) -> Image:
    """The picture as the camera sees it once the tray moved by ``motion`` (2 x 3)."""
    size = (picture.shape[1], picture.shape[0])
    moved = cv2.warpAffine(
        picture, motion, size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(moved, np.uint8)


@pytest.mark.parametrize(
    "motion",
    [
        np.array([[1.0, 0.0, 3.0], [0.0, 1.0, -2.0]]),
        cv2.getRotationMatrix2D((600.0, 450.0), 0.8, 1.0),
    ],
    ids=["moved", "turned"],
)
def test_a_point_of_the_frame_moved_back_is_found_where_it_was_taken(motion: Motion) -> None:
    made = scene(8, "ur")
    knocked = _knocked(made.frame, motion)
    foreground = Reader(calibrate(made.empty), default_profile()).segmenter.foreground(knocked)
    assert foreground.motion is not None
    ys, xs = np.mgrid[150:750:23, 150:1050:29]
    points = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    expected = foreground.frame[ys.ravel(), xs.ravel()].astype(np.float64)
    taken = foreground.as_taken(points)
    error = np.abs(_sampled(knocked, taken) - expected).mean()
    for off in ([1.0, 0.0], [0.0, 1.0]):  # a pixel off: the felt's grain no longer matches
        assert np.abs(_sampled(knocked, taken + off) - expected).mean() > 1.5 * error


def test_a_die_placed_in_the_cameras_picture_has_its_drawn_corners() -> None:
    made = scene(6, "ur-nostick", d4_edge_mm=SMALL_D4_MM, resolution=2.0)
    tray = calibrate(made.empty)
    reader = Reader(tray, default_profile())
    foreground = reader.segmenter.foreground(made.frame)
    (blob,) = foreground.blobs
    tetra = fit_tetra(foreground.frame, blob, tray)
    picture, placed = numeral_view(made.frame, foreground, tray, tetra)
    assert picture is made.frame
    (truth,) = made.objects
    millimetre = tray.px_per_mm / tray.scale  # the camera's pixels
    assert np.hypot(*(placed.apex - np.asarray(truth["top"]))) < millimetre
    for corner in np.asarray(truth["base"]):
        assert np.min(np.hypot(*(placed.base - corner).T)) < millimetre
    assert placed.edge == pytest.approx(tetra.edge / tray.scale, rel=0.01)


def test_at_the_working_scale_the_numerals_are_read_on_the_frame() -> None:
    made = scene(6, "ur-nostick")
    tray = calibrate(made.empty)
    foreground = Reader(tray, default_profile()).segmenter.foreground(made.frame)
    tetra = Tetra(np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 8.0]]), np.array([5.0, 3.0]))
    assert tray.scale == 1.0
    assert numeral_view(made.frame, foreground, tray, tetra) == (foreground.frame, tetra)


def test_a_small_d4_unclear_at_the_working_scale_is_read_from_more_pixels(
    synthetic_d4_glyphs: tuple[Glyph, ...],
) -> None:
    """Numerals of 8-10 working pixels are refused; the same throw taken with twice the
    pixels is read, and right, by a reader asked to read numerals there (glyphs learned
    from the running OpenCV's drawing: its versions draw the generator's fonts apart)."""
    profile = Profile("d4", default_profile().prototypes, synthetic_d4_glyphs)
    kit = kit_named("ur-nostick")
    small = scene(1, "ur-nostick", d4_edge_mm=SMALL_D4_MM)
    refused = Reader(calibrate(small.empty), profile).read(small.frame, kit)
    assert [refusal.reason for refusal in refused.refusals] == [Reason.UNCLEAR]
    sharp = scene(1, "ur-nostick", d4_edge_mm=SMALL_D4_MM, resolution=2.0)
    tray = calibrate(sharp.empty)
    read = Reader(tray, profile, detail_numerals=True).read(sharp.frame, kit)
    assert not read.refusals
    assert [implement.value for implement in read.implements] == [sharp.objects[0]["value"]]
    by_default = Reader(tray, profile).read(sharp.frame, kit)  # the working frame's numerals
    assert [refusal.reason for refusal in by_default.refusals] == [Reason.UNCLEAR]


def test_enrolment_learns_the_numerals_where_the_reader_reads_them() -> None:
    made = scene(6, "ur-nostick", d4_edge_mm=SMALL_D4_MM, resolution=2.0)
    tray = calibrate(made.empty)
    (numerals,) = d4s_in(made.frame, tray, detail_numerals=True)
    (working,) = d4s_in(made.frame, tray)
    assert working.edge == pytest.approx(numerals.edge * tray.scale, rel=0.01)
    edge_mm = numerals.edge / (tray.px_per_mm / tray.scale)
    assert SMALL_D4_MM[0] - 1 <= edge_mm <= SMALL_D4_MM[1] + 1


def test_a_patch_finer_than_the_pictures_pixels_averages_them() -> None:
    """A face seen with three picture pixels to a patch pixel: a pattern of single pixels
    averages to grey, where sampling each patch pixel's centre alone would alias it."""
    checks = (np.indices((300, 300)).sum(axis=0) % 2 * 200).astype(np.float32)
    corners = canonical_triangle().astype(np.float64) * 3.0 + 20.0
    patch, blur = rectified_patch(checks, (corners[0], corners[1], corners[2]), (36, 30), 30, 24)
    assert patch.std() < 8.0
    assert patch.mean() == pytest.approx(100.0, abs=8.0)
    assert np.allclose(blur, np.eye(2) * (24 / 30 / 3) ** 2, rtol=1e-3)


@pytest.mark.parametrize(
    ("size", "working"), [((2400, 1800), (1200, 900)), ((2401, 1801), (1200, 900))]
)
def test_a_picture_of_twice_the_pixels_is_halved_by_whole_blocks(
    size: tuple[int, int], working: tuple[int, int]
) -> None:
    """Shrunk by a whole factor, the picture is averaged in blocks of 2 x 2 pixels (a
    tenth of the time of any other factor); an odd last column or row is left out."""
    picture = _smooth_picture(*size)
    tray = _tray(picture, 4.9, None)
    assert tray.scale == 0.5 and tray.size == working
    blocks = picture[: 2 * working[1], : 2 * working[0]].astype(np.float64)
    means = blocks.reshape(working[1], 2, working[0], 2, 3).mean(axis=(1, 3))
    assert np.abs(tray.working(picture) - means).max() <= 0.5 + 1e-9
