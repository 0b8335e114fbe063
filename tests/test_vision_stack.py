"""Still frames averaged before reading (vision.stack), and readings of averaged frames
that share none (vision.settle.SettledReading)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.settle import Agreement, SettleDetector, SettledReading
from vision.stack import (
    CALIBRATION_PATIENCE,
    MOST_MOTION_PX,
    STACKED,
    StillStack,
    moved_px,
    still_average,
)
from vision.synthetic import scene
from vision.tray import Image


@pytest.fixture(scope="module")
def made() -> Image:
    return scene(5, "ur").frame


def _noisy(frame: Image, seed: int, sigma: float = 6.0) -> Image:
    noise = np.random.default_rng(seed).normal(0.0, sigma, frame.shape)
    return np.asarray(np.clip(frame + noise, 0, 255), np.uint8)


def _moved(
    frame: Image, dx: float, dy: float, box: tuple[int, int, int, int] | None = None
) -> Image:
    """The picture moved by a fraction of a pixel; with ``box``, only what lies in it."""
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    size = (frame.shape[1], frame.shape[0])
    moved = cv2.warpAffine(
        frame, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if box is None:
        return np.asarray(moved, np.uint8)
    x0, y0, x1, y1 = box
    out = frame.copy()
    out[y0:y1, x0:x1] = moved[y0:y1, x0:x1]
    return out


def stacked(frames: list[Image]) -> Image:
    """What a stack fed with ``frames`` (oldest first) averages."""
    stack = StillStack()
    for frame in frames:
        stack.add(frame)
    return stack.mean()


def _is_mean_of(picture: Image, frames: list[Image]) -> bool:
    """Whether ``picture`` is the frames' mean, rounded."""
    mean = np.mean(np.stack(frames).astype(np.float64), axis=0)
    return bool(np.abs(picture - mean).max() <= 0.5 + 1e-3)


def _error(picture: Image, truth: Image) -> float:
    return float(np.std(picture.astype(np.float64) - truth))


def test_four_still_frames_averaged_halve_the_cameras_noise(made: Image) -> None:
    frames = [_noisy(made, seed) for seed in range(4)]
    single, averaged = _error(frames[-1], made), _error(stacked(frames), made)
    assert averaged == pytest.approx(single / 2, rel=0.15)


def test_noise_alone_is_not_taken_for_motion(made: Image) -> None:
    for seed in range(3):
        assert moved_px(_noisy(made, 2 * seed), _noisy(made, 2 * seed + 1, 10.0)) < MOST_MOTION_PX


@pytest.mark.parametrize("dx, dy", [(0.3, 0.0), (0.0, -0.4), (0.8, 0.6), (2.0, 1.0)])
def test_a_picture_moved_by_a_fraction_of_a_pixel_is_seen_moved(
    made: Image, dx: float, dy: float
) -> None:
    shifted = _moved(made, dx, dy)
    seen = moved_px(_noisy(made, 1), _noisy(shifted, 2))
    assert seen > MOST_MOTION_PX
    if np.hypot(dx, dy) < 1:  # the linear estimate holds for small moves
        assert seen == pytest.approx(np.hypot(dx, dy), rel=0.5)


def test_one_implement_creeping_is_seen_moved(made: Image) -> None:
    x0, y0, x1, y1 = (int(v) for v in scene(5, "ur").objects[0]["bbox"])
    box = (x0 - 4, y0 - 4, x1 + 4, y1 + 4)
    creeping = _moved(made, 0.35, 0.0, box)
    assert moved_px(_noisy(made, 3), _noisy(creeping, 4)) > MOST_MOTION_PX


def test_a_frame_that_moved_starts_the_average_again(made: Image) -> None:
    older = _noisy(_moved(made, 0.6, 0.0), 0)
    still = [_noisy(made, seed) for seed in (1, 2, 3)]
    stack = StillStack()
    for frame in [older, *still]:
        stack.add(frame)
    assert (stack.added, stack.kept) == (4, 3)
    assert _is_mean_of(stack.mean(), still)
    assert not _is_mean_of(stack.mean(), [older, *still])
    assert _is_mean_of(stacked([still[0], older, still[1], still[2]]), still[1:])
    stack.clear()
    stack.add(still[0])
    assert stack.mean() is still[0]
    stack.clear()
    with pytest.raises(ValueError, match="no frame"):
        stack.mean()


def test_a_cameras_empty_tray_is_the_mean_of_its_first_still_frames(made: Image) -> None:
    frames = [_noisy(made, seed) for seed in range(2 * STACKED)]
    taken = iter(frames)
    averaged = still_average(taken)
    assert _is_mean_of(averaged, frames[:STACKED])
    assert next(taken) is frames[STACKED]  # no frame read beyond those averaged
    assert _error(averaged, made) == pytest.approx(_error(frames[0], made) / 2, rel=0.15)


def test_an_empty_tray_that_keeps_moving_is_averaged_from_its_last_still_frames(
    made: Image,
) -> None:
    """A camera that shakes: after as many frames as it waits, the frames still since the
    last move; a stream of one frame, that frame."""
    patience = CALIBRATION_PATIENCE * STACKED
    shaking = [_noisy(_moved(made, 0.6 * (i % 2), 0.0), i) for i in range(patience + 5)]
    taken = iter(shaking)
    averaged = still_average(taken)
    assert _is_mean_of(averaged, shaking[patience - 1 : patience])
    assert next(taken) is shaking[patience]
    assert still_average(iter([made])) is made
    assert _is_mean_of(still_average(iter(shaking[:8]), count=2), shaking[5:6])  # 3 x 2 seen


def test_readings_are_of_averaged_frames_none_shared(made: Image) -> None:
    empty = scene(5, "ur").empty
    frames = [_noisy(made, seed) for seed in range(10)]
    settled: SettledReading[str] = SettledReading(
        SettleDetector.for_tray(empty, still_frames=2), Agreement(needed=2), averaged=3
    )
    read: list[Image] = []

    def reading(frame: Image) -> str:
        read.append(frame)
        return "3+yes"

    given = [settled.offer(frame, reading) for frame in [empty, *frames]]
    # The first frame is seen moving; still from the second: read after three (frames 1-3),
    # then after three more (4-6), and the two readings agree.
    assert [index for index, answer in enumerate(given) if answer] == [7]
    assert len(read) == 2
    assert _is_mean_of(read[0], frames[1:4])
    assert _is_mean_of(read[1], frames[4:7])


def test_a_reading_needs_at_least_one_frame() -> None:
    with pytest.raises(ValueError, match="averaged"):
        SettledReading(
            SettleDetector.for_tray(np.zeros((90, 120, 3), np.uint8)), Agreement(), averaged=0
        )


@pytest.mark.parametrize(("dx", "moved"), [(0.1, False), (0.6, True)])
def test_frames_of_more_pixels_are_compared_at_the_working_scale(dx: float, moved: bool) -> None:
    """A camera of twice the pixels: its frames compared as small as the working picture's
    (a quarter of their size, not half), a move measured in working pixels (half the
    camera's), so that a reading of a larger frame waits no longer for its average."""
    sharp = scene(5, "ur", resolution=2.0).frame
    shifted = _moved(sharp, dx, 0.0)
    seen = moved_px(_noisy(sharp, 1), _noisy(shifted, 2), picture_scale=0.5)
    assert (seen > MOST_MOTION_PX) is moved
    assert seen < dx / 2 + 0.2  # told in the camera's pixels, 0.6 would be seen as 0.7 or more
    stack = StillStack(picture_scale=0.5)
    for frame in (_noisy(sharp, 3), _noisy(shifted, 4)):
        stack.add(frame)
    assert stack.kept == (1 if moved else 2)
