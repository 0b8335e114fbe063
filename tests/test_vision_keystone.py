"""A camera tilted from looking straight down: its keystone floor is made a rectangle again
before anything is read; a floor seen square on is read as it always was."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.vision_drift import tilted
from vision.errors import CalibrationError
from vision.keystone import (
    KEYSTONE_SHARE,
    floor_corners,
    keystone_share,
    moved,
    point_below_lens,
    rectifying,
)
from vision.kit import kit_named
from vision.observation import Box
from vision.profile import default_profile
from vision.reader import Reader
from vision.segment import SHARP_MARGIN_MM, Segmenter
from vision.settle import Scene, SettleDetector
from vision.synthetic import SyntheticScene, scene
from vision.tray import Tray, calibrate

TILT = 8.0


def _outline(corners: np.ndarray) -> np.ndarray:
    """Every pixel of the outline of a region with these corners, as OpenCV traces it."""
    mask = np.zeros((900, 1200), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return np.asarray(contours[0].reshape(-1, 2), np.float64)


def test_the_corners_of_a_keystone_are_where_its_sides_meet() -> None:
    drawn = np.array([[180.0, 120.0], [1020.0, 120.0], [1060.0, 800.0], [140.0, 800.0]])
    found = floor_corners(_outline(drawn))
    assert found is not None
    nearest = [np.min(np.hypot(*(drawn - corner).T)) for corner in found]
    assert max(nearest) < 1.5
    assert keystone_share(found) == pytest.approx(40 / 880, abs=0.002)


@pytest.mark.parametrize("degrees", [0.0, 10.0, -35.0])
def test_a_rectangle_however_turned_is_no_keystone(degrees: float) -> None:
    corners = cv2.boxPoints(((600.0, 450.0), (980.0, 740.0), degrees)).astype(np.float64)
    found = floor_corners(_outline(corners))
    assert found is not None
    assert keystone_share(found) < KEYSTONE_SHARE
    assert rectifying(found) is None


def test_a_keystone_is_made_the_rectangle_of_its_mean_sides() -> None:
    corners = np.array([[180.0, 120.0], [1020.0, 120.0], [1060.0, 800.0], [140.0, 800.0]])
    matrix = rectifying(corners)
    assert matrix is not None
    square = moved(corners, matrix)
    sides = [np.hypot(*(square[(i + 1) % 4] - square[i])) for i in range(4)]
    assert sides[0] == pytest.approx(sides[2], abs=0.01)
    assert sides[0] == pytest.approx(880, abs=0.5)  # the mean of 840 and 920
    first, second = square[1] - square[0], square[3] - square[0]
    assert abs(first @ second) < 1e-6 * np.hypot(*first) * np.hypot(*second)  # square corners
    assert np.allclose(square.mean(axis=0), corners.mean(axis=0))


def _tilted(made: SyntheticScene) -> tuple[np.ndarray, np.ndarray, list[Box]]:
    drift = tilted(TILT)
    assert drift.moves is not None
    size = (made.frame.shape[1], made.frame.shape[0])
    boxes = []
    for item in made.objects:
        x0, y0, x1, y1 = item["bbox"]
        corners = drift.moves(np.array([[x0, y0], [x1, y0], [x0, y1], [x1, y1]], float), size)
        low, high = corners.min(axis=0), corners.max(axis=0)
        boxes.append(Box(int(low[0]), int(low[1]), int(high[0]), int(high[1])))
    return drift.change(made.frame), drift.change(made.empty), boxes


def test_a_straight_down_tray_is_not_rectified() -> None:
    assert calibrate(scene(1, "sticks4").empty).keystone is None


# The Ur throw's d4 reads under OpenCV 4.6 too (Raspberry Pi OS), which draws the
# generator's numerals otherwise, in a font the glyphs never learned: of seeds 12-39, 9
# read there (and seed 29 read wrong, as such a font's dice read alone can be), 27 here.
@pytest.mark.parametrize(("seed", "kit"), [(11, "sticks4"), (13, "ur"), (13, "modern")])
def test_a_tilted_cameras_throw_is_read_and_placed_in_its_picture(seed: int, kit: str) -> None:
    made = scene(seed, kit)
    frame, empty, boxes = _tilted(made)
    tray = calibrate(empty)
    assert tray.keystone is not None
    observation = Reader(tray, default_profile()).read(frame, kit_named(kit))
    assert not observation.refused, observation.summary()
    truth = sorted(str(o.get("face", o.get("value"))) for o in made.objects)
    read = sorted(
        {"yes": "M", "no": "P"}.get(item.shown, item.shown) for item in observation.implements
    )
    assert read == truth
    for item in observation.implements:  # each reading lies where the label's box lies
        assert max(item.box.iou(box) for box in boxes) > 0.6


def test_parts_drawn_sharp_are_those_of_the_picture_rectified_sharp() -> None:
    frame, empty, _ = _tilted(scene(11, "sticks4"))
    tray = calibrate(empty)
    sharp, fast = tray.working(frame), tray.working(frame, sharp=False)
    assert np.abs(sharp.astype(int) - fast).max() > 20  # the two interpolations differ
    width, height = tray.size
    boxes = [Box(300, 200, 420, 330), Box(-20, height - 50, 60, height + 30), Box(5, 5, 5, 40)]
    boxes.append(Box(width - 30, 100, width + 40, 160))
    parts = tray.sharp_parts(frame, boxes)
    assert [box for box, _ in parts] == [
        Box(300, 200, 420, 330),
        Box(0, height - 50, 60, height),
        Box(width - 30, 100, width, 160),
    ]
    for box, part in parts:
        whole = sharp[box.y0 : box.y1, box.x0 : box.x1]
        assert part.shape == whole.shape
        assert np.abs(part.astype(int) - whole).max() <= 1
    with pytest.raises(CalibrationError, match="calibrate again with this camera"):
        tray.sharp_parts(frame[:-10], boxes)


def test_the_fast_rectification_is_the_linear_warp_of_the_colour_picture() -> None:
    """Warped in four channels for speed, the picture keeps its three, each where it was."""
    frame, empty, _ = _tilted(scene(11, "sticks4"))
    tray = calibrate(empty)
    assert tray.keystone is not None
    fast = tray.working(frame, sharp=False)
    enlarge = np.diag([tray.scale, tray.scale, 1.0])
    expected = cv2.warpPerspective(
        frame,
        tray.keystone @ enlarge,
        tray.size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    assert fast.shape == expected.shape == (tray.size[1], tray.size[0], 3)
    assert np.array_equal(fast, expected)


def test_a_tilted_frame_is_read_where_the_implements_lie_drawn_sharp() -> None:
    """Implements are found on the picture rectified fast and read where it is drawn sharp
    (their boxes and a margin round them); elsewhere it stays as rectified fast."""
    frame, empty, _ = _tilted(scene(13, "modern"))
    tray = calibrate(empty)
    foreground = Segmenter(tray).foreground(frame)
    assert len(foreground.blobs) == 2
    sharp, fast = tray.working(frame), tray.working(frame, sharp=False)
    inside = np.zeros(sharp.shape[:2], bool)
    for blob in foreground.blobs:
        box = blob.box.grown(round(SHARP_MARGIN_MM * tray.px_per_mm))
        inside[max(box.y0, 0) : box.y1, max(box.x0, 0) : box.x1] = True
    assert np.abs(foreground.frame.astype(int) - sharp)[inside].max() <= 1
    assert np.array_equal(foreground.frame[~inside], fast[~inside])


def test_the_settle_check_sees_a_tilted_empty_tray_empty() -> None:
    """The settle check compares the camera's own small stream with the empty tray framed
    as the camera frames it, not rectified."""
    frame, empty, _ = _tilted(scene(14, "sticks4"))
    tray = calibrate(empty)
    detector = SettleDetector.for_tray(tray.empty_as_framed)
    assert detector.update(empty)[0] is Scene.EMPTY
    assert detector.update(frame)[0] is not Scene.EMPTY
    rectified = SettleDetector.for_tray(tray.empty)
    assert rectified.update(empty)[0] is not Scene.EMPTY


def test_the_keystone_is_kept_with_the_calibration(tmp_path: Path) -> None:
    _, empty, _ = _tilted(scene(15, "sticks4"))
    tray = calibrate(empty)
    tray.save(tmp_path / "tray")
    loaded = Tray.load(tmp_path / "tray")
    assert loaded.keystone is not None and tray.keystone is not None
    assert np.allclose(loaded.keystone, tray.keystone)
    assert np.array_equal(loaded.working(empty), tray.working(empty))


@pytest.mark.parametrize(
    "corrupt",
    [
        [[0.0] * 3] * 3,  # nothing
        [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]],  # not invertible
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -0.01, 1.0]],  # a horizon inside the picture
        [[1.0, 0.0, 0.0], [0.0, 1.0]],  # not 3 x 3
    ],
)
def test_a_corrupt_keystone_is_a_clear_error_when_loaded(
    tmp_path: Path, corrupt: list[list[float]]
) -> None:
    """A saved keystone that takes the pictures nowhere would warp every frame into nothing
    readable, silently: the calibration is refused when loaded, saying why."""
    _, empty, _ = _tilted(scene(15, "sticks4"))
    calibrate(empty).save(tmp_path / "tray")
    record = json.loads((tmp_path / "tray" / "tray.json").read_text(encoding="utf-8"))
    record["keystone"] = corrupt
    (tmp_path / "tray" / "tray.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CalibrationError, match="cannot be read"):
        Tray.load(tmp_path / "tray")


def test_calibrate_says_when_the_camera_looks_at_a_slant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    _, empty, _ = _tilted(scene(16, "sticks4"))
    (tmp_path / "empty").mkdir()
    cv2.imwrite(str(tmp_path / "empty" / "0.png"), empty)
    args = ["vision", "calibrate", "--source", str(tmp_path / "empty"), "--by", "outline"]
    assert main([*args, "--out", str(tmp_path / "tray")]) == 0
    assert "looks at the tray at a slant" in capsys.readouterr().out
    assert Tray.load(tmp_path / "tray").keystone is not None
    cv2.imwrite(str(tmp_path / "empty" / "0.png"), scene(16, "sticks4").empty)
    assert main([*args, "--out", str(tmp_path / "straight")]) == 0
    assert "slant" not in capsys.readouterr().out


def test_the_corner_markers_show_the_keystone_too() -> None:
    from vision.markers import calibrate_with_markers, markers_available

    if not markers_available():
        pytest.skip("this OpenCV has no ArUco markers")
    made = scene(17, "sticks4", markers=True)
    frame, empty, _ = _tilted(made)
    tray = calibrate_with_markers(empty)
    assert tray.keystone is not None
    assert calibrate_with_markers(made.empty).keystone is None
    corners = np.asarray(tray.floor, np.float64)
    sides = [np.hypot(*(corners[(i + 1) % 4] - corners[i])) for i in range(4)]
    assert sides[0] == pytest.approx(sides[2], rel=0.005)  # opposite sides alike again
    observation = Reader(tray, default_profile()).read(frame, kit_named("sticks4"))
    assert not observation.refused, observation.summary()


@pytest.mark.parametrize("degrees", [8.0, -8.0, 4.0])
def test_the_point_below_a_tilted_lens_is_where_verticals_meet(degrees: float) -> None:
    """The copies' camera stands above the picture's middle of before: perspective must
    lift what stands on the floor away from where that point now lies, not from the
    picture's middle."""
    drift = tilted(degrees)
    assert drift.moves is not None
    made = scene(18, "ur")
    tray = calibrate(drift.change(made.empty))
    assert tray.keystone is not None
    (below,) = drift.moves(np.array([[600.0, 450.0]]), (1200, 900))
    (expected,) = moved(np.array([below * tray.scale]), tray.keystone)
    off_mm = np.hypot(*(np.asarray(tray.below_lens) - expected)) / tray.px_per_mm
    assert off_mm < 3.0  # a d4's top point, 22 mm up, then leans from it 0.2 mm wrong
    middle = (tray.size[0] / 2, tray.size[1] / 2)
    assert np.hypot(*(np.asarray(middle) - expected)) / tray.px_per_mm > 20  # far off


def test_a_point_below_the_lens_too_far_off_is_not_believed() -> None:
    """Corners found wrong can make a horizon no camera looking down would see: the
    picture's middle is then kept, as for a camera looking straight down."""
    centre = (600.0, 450.0)
    level = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])
    assert point_below_lens(level, 930.0, centre) == centre
    steep = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 2e-3, 1.0]])  # a horizon 500 px away
    assert point_below_lens(steep, 930.0, centre) == centre
    slight = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 1e-4, 1.0]])
    below = point_below_lens(slight, 930.0, centre)
    assert below[0] == pytest.approx(600.0) and 450 < below[1] < 450 + 930 * 0.58
