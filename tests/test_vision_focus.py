"""The camera's focus: a frame blurrier than the empty tray calibrated is told, and refused."""

from __future__ import annotations

from functools import partial

import cv2
import numpy as np
import pytest

from benchmarks.vision_drift import tilted
from vision.focus import FocusCheck
from vision.observation import Reason
from vision.profile import default_profile
from vision.reader import Reader
from vision.synthetic import scene
from vision.tray import Image, calibrate


def _blurred(frame: Image, sigma: float) -> Image:
    return np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), np.uint8)


def _noisy(frame: Image, level: float, seed: int = 0) -> Image:
    noise = np.random.default_rng(seed).normal(0, level, frame.shape)
    return np.asarray(np.clip(frame + noise, 0, 255), np.uint8)


def _extra_blur(reader: Reader, frame: Image) -> float | None:
    foreground = reader.segmenter.foreground(frame)
    return reader.focus.extra_blur(foreground.frame, foreground.mask)


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader(calibrate(scene(4, "ur").empty), default_profile())


def test_a_frame_as_sharp_as_the_empty_tray_is_not_blurred(reader: Reader) -> None:
    extra = _extra_blur(reader, scene(4, "ur").frame)
    assert extra is not None and abs(extra) < 0.3


@pytest.mark.parametrize("sigma", [1.0, 1.5, 2.0])
def test_a_blur_is_measured_in_working_pixels(reader: Reader, sigma: float) -> None:
    extra = _extra_blur(reader, _blurred(scene(4, "ur").frame, sigma))
    assert extra == pytest.approx(sigma, abs=0.2)


def test_noise_is_not_taken_for_blur(reader: Reader) -> None:
    extra = _extra_blur(reader, _noisy(scene(4, "ur").frame, 6))
    assert extra is not None and extra < 0


def test_patches_under_something_are_left_out() -> None:
    """A change covers patches: the blurred ones under it are left out, and what is left
    tells the frame as it is; the changes may be marked on a half-size mask."""
    made = scene(4, "ur")
    tray = calibrate(made.empty)
    check = FocusCheck(tray.empty, tray.floor, tray.px_per_mm)
    frame = made.frame.copy()
    height, width = frame.shape[:2]
    frame[: height // 2] = _blurred(made.frame, 2.0)[: height // 2]  # the top half soft
    top_half = np.zeros((height // 2, width // 2), np.uint8)
    top_half[: height // 4 + 20] = 255  # half size: the top half, and its patches' margins
    assert check.extra_blur(frame, top_half) == pytest.approx(0.0, abs=0.2)
    assert check.extra_blur(frame, np.zeros_like(top_half)) is not None
    assert check.extra_blur(frame, np.full(frame.shape[:2], 255, np.uint8)) is None


def test_a_tray_without_edges_tells_nothing() -> None:
    tray = calibrate(scene(4, "ur").empty)
    flat = np.full_like(tray.empty, 120)
    check = FocusCheck(flat, tray.floor, tray.px_per_mm)
    assert check.extra_blur(flat, np.zeros(flat.shape[:2], np.uint8)) is None


def test_a_tilted_cameras_frame_is_compared_as_sharp_as_its_empty_tray() -> None:
    """A tilted camera's frame is rectified fast (linear), its empty tray sharp (cubic):
    compared whole, the frame measured 0.3-0.5 px blurrier than it is; its parts drawn
    as the empty tray was measure nothing."""
    made = scene(4, "ur")
    drift = tilted(8.0)
    frame, empty = drift.change(made.frame), drift.change(made.empty)
    tray = calibrate(empty)
    assert tray.keystone is not None
    reader = Reader(tray, default_profile())
    foreground = reader.segmenter.foreground(frame)
    fast = reader.focus.extra_blur(foreground.frame, foreground.mask)
    parts = partial(tray.sharp_parts, frame)
    sharp = reader.focus.extra_blur(foreground.frame, foreground.mask, sharp_parts=parts)
    assert fast is not None and sharp is not None
    assert fast > 0.25 and abs(sharp) < 0.15
    blurred = reader.read(_blurred(frame, 1.6))
    assert [r.reason for r in blurred.refusals] == [Reason.BLURRED]
    assert Reason.BLURRED not in {r.reason for r in reader.read(frame).refusals}


@pytest.mark.parametrize(("seed", "kit"), [(4, "ur"), (5, "modern"), (3, "sticks4")])
def test_a_throw_seen_out_of_focus_is_refused_for_the_focus(seed: int, kit: str) -> None:
    made = scene(seed, kit)
    reader = Reader(calibrate(made.empty), default_profile())
    assert Reason.BLURRED not in {r.reason for r in reader.read(made.frame).refusals}
    observation = reader.read(_blurred(made.frame, 1.6))
    assert [r.reason for r in observation.refusals] == [Reason.BLURRED]
    assert not observation.implements
    assert "focus the camera" in observation.summary()


def test_a_frame_a_little_soft_is_read_as_it_is(reader: Reader) -> None:
    made = scene(4, "ur")
    soft = _blurred(made.frame, 0.5)
    assert Reason.BLURRED not in {r.reason for r in reader.read(soft).refusals}


def test_an_empty_tray_out_of_focus_is_told_empty(reader: Reader) -> None:
    observation = reader.read(_blurred(scene(4, "ur").empty, 1.6))
    assert [r.reason for r in observation.refusals] == [Reason.EMPTY]


def test_a_soft_lens_at_calibration_too_is_no_blur() -> None:
    """Frames and empty tray blurred alike (a lens soft from the start): nothing changed
    since calibration, and the throw is read as that camera allows."""
    made = scene(4, "ur")
    reader = Reader(calibrate(_blurred(made.empty, 1.2)), default_profile())
    observation = reader.read(_blurred(made.frame, 1.2))
    assert Reason.BLURRED not in {r.reason for r in observation.refusals}
