"""Harder copies of a labelled folder: the same labels, the pictures changed as asked."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchmarks.stress_copies import copies, main
from benchmarks.vision_drift import (
    LENS_ACROSS_DEGREES,
    MOUNT_SIZE,
    TILT_SIZE,
    Drift,
    bent,
    compressed,
    mounted,
    noisy,
    resampled,
    shaded_across,
    through_camera,
    tilted,
)
from vision.dataset import load_scenes
from vision.synthetic import write_set
from vision.tray import read_image


def test_copies_keep_the_labels_and_change_what_the_drift_changes(tmp_path: Path) -> None:
    source = write_set(tmp_path / "source", 4, seed=3)
    out = tmp_path / "copies"
    drifts = {"noise6": noisy(6.0), "jpeg30": compressed(30), "resample0.5": resampled(0.5, 0.5)}
    copies(source, out, drifts)
    originals = load_scenes(source)
    for name in drifts:
        scenes = load_scenes(out / name)
        assert [s.objects for s in scenes] == [s.objects for s in originals]
        assert [s.kit for s in scenes] == [s.kit for s in originals]
    for changed in ("noise6", "jpeg30"):  # frames only
        for scene, original in zip(load_scenes(out / changed), originals, strict=True):
            assert not np.array_equal(read_image(scene.image), read_image(original.image))
            assert np.array_equal(read_image(scene.tray), read_image(original.tray))
    for scene, original in zip(load_scenes(out / "resample0.5"), originals, strict=True):
        assert not np.array_equal(read_image(scene.tray), read_image(original.tray))


def test_copies_keep_only_the_kits_asked_and_every_label_field(tmp_path: Path) -> None:
    source = write_set(tmp_path / "source", 12, seed=5)
    records = [json.loads(line) for line in (source / "labels.jsonl").read_text().splitlines()]
    kit = records[0]["kit"]
    copies(source, tmp_path / "copies", {"jpeg40": compressed(40)}, kits=[kit])
    copied = [
        json.loads(line)
        for line in (tmp_path / "copies" / "jpeg40" / "labels.jsonl").read_text().splitlines()
    ]
    kept = [r for r in records if r["kit"] == kit]
    assert len(copied) == len(kept) < len(records)
    assert [{**r, "image": None, "tray": None} for r in copied] == [
        {**r, "image": None, "tray": None} for r in kept
    ]


def _usage_error(
    arguments: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """What the command says when it stops with a usage error (exit 2)."""
    monkeypatch.setattr(sys, "argv", ["stress_copies", *arguments])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 2
    return capsys.readouterr().err


def test_a_folder_without_labels_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [str(tmp_path), str(tmp_path / "out"), "--noise", "4"]
    assert "labels.jsonl" in _usage_error(arguments, monkeypatch, capsys)


@pytest.mark.parametrize(
    ("drift", "spot"),
    [
        (mounted(6.0), (91, 21)),
        (tilted(6.0), (91, 21)),
        (bent(0.2), (105, 12)),  # near a corner, where a lens bends most
        (bent(-0.2), (105, 12)),
    ],
    ids=["turned", "tilted", "barrel", "pincushion"],
)
def test_a_changed_camera_moves_points_where_it_moves_the_picture(
    drift: Drift, spot: tuple[int, int]
) -> None:
    assert drift.empty_too and drift.moves is not None
    x, y = spot
    picture = np.zeros((90, 120, 3), np.uint8)
    picture[y - 1 : y + 2, x - 1 : x + 2] = 255  # a spot centred on (x, y)
    changed = drift.change(picture)[..., 0].astype(np.float64)
    ys, xs = np.mgrid[0:90, 0:120]
    seen = np.array([(xs * changed).sum(), (ys * changed).sum()]) / changed.sum()
    (expected,) = drift.moves(np.array([[float(x), float(y)]]), (120, 90))
    assert np.hypot(*(seen - expected)) < 0.3
    assert np.hypot(*(expected - (x, y))) > 3  # it did move


def test_a_barrel_lens_shows_the_pictures_corners_not_its_repeated_border() -> None:
    picture = np.zeros((90, 120, 3), np.uint8)
    picture[0, :] = picture[:, 0] = 255  # the border, which repeating would smear inwards
    changed = bent(0.1).change(picture)[..., 0]
    assert changed[0, 0] == 255  # the corner still shows the corner
    assert changed[45, 0] == 0 and changed[0, 60] == 0  # the sides' middles, the felt within
    assert changed[45, 5:].max() == 0  # no streak


def test_a_tilted_camera_sees_the_trays_far_side_smaller() -> None:
    """Rows 350 px above and below the middle are seen in the ratio a pinhole of the
    development set's lens gives, and the point below the lens (the picture's middle
    before) moves off the middle by the tilt's tangent times the shorter focal length."""
    drift = tilted(8.0)
    assert drift.moves is not None
    size = (1200, 900)
    widths = []
    for y in (100.0, 800.0):
        ends = drift.moves(np.array([[100.0, y], [1100.0, y]]), size)
        widths.append(float(np.hypot(*(ends[1] - ends[0]))))
    focal = 600 / np.tan(np.radians(LENS_ACROSS_DEGREES / 2))
    lean = 350 / focal * np.tan(np.radians(8.0))
    assert max(widths) / min(widths) == pytest.approx((1 + lean) / (1 - lean), rel=0.01)
    (below,) = drift.moves(np.array([[600.0, 450.0]]), size)
    off = TILT_SIZE * focal * np.tan(np.radians(8.0))
    assert np.allclose(below, (600, 450 - off), atol=0.5)


def _labels(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]


def test_turned_copies_move_the_labels_boxes_and_corners(tmp_path: Path) -> None:
    source = write_set(tmp_path / "source", 6, seed=3)
    copies(source, tmp_path / "copies", {"turn0": mounted(0.0), "turn8": mounted(8.0)})
    originals = _labels(source)
    centre = np.array([600.0, 450.0])  # generated pictures are 1200 x 900
    for record, original in zip(_labels(tmp_path / "copies" / "turn0"), originals, strict=True):
        for item, before in zip(record["objects"], original["objects"], strict=True):
            corner = centre + MOUNT_SIZE * (np.asarray(before["bbox"][:2]) - centre)
            assert np.abs(np.asarray(item["bbox"][:2]) - corner).max() <= 1
    drift = mounted(8.0)
    assert drift.moves is not None
    corners = 0
    for record, original in zip(_labels(tmp_path / "copies" / "turn8"), originals, strict=True):
        for item, before in zip(record["objects"], original["objects"], strict=True):
            assert item["bbox"] != before["bbox"]
            if "base" in before:
                moved = drift.moves(np.asarray(before["base"], np.float64), (1200, 900))
                assert np.allclose(item["base"], moved, atol=0.01)
                corners += 1
    assert corners


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--turn", "12", "turned by at most 8 degrees"),
        ("--tilt", "12", "tilted by at most 8 degrees"),
        ("--shade", "1.5", "a shade darkens by more than 0 and less than 1"),
        ("--shade", "nan", "a shade darkens by more than 0 and less than 1"),
        ("--bend", "-1", "a lens bending by at most 0.3 either way"),
    ],
)
def test_a_change_out_of_its_range_is_a_usage_error(
    option: str,
    value: str,
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = write_set(tmp_path / "source", 1, seed=3)
    arguments = [str(source), str(tmp_path / "out"), option, value]
    assert said in _usage_error(arguments, monkeypatch, capsys)


def test_a_shaded_copy_darkens_one_side_of_an_edge_the_same_for_the_same_frame() -> None:
    frame = np.full((90, 120, 3), 200, np.uint8)
    frame[::7, ::5] = 180  # frames seed their edge: two frames, two edges
    change = shaded_across(0.3).change
    shaded = change(frame)
    darkened = shaded[..., 0] < frame[..., 0] * 0.75
    assert 0.2 <= float(darkened.mean()) <= 0.8
    assert int(shaded.min()) == round(180 * 0.7)
    assert np.array_equal(change(frame), shaded)


def test_a_camera_copy_changes_every_picture_and_moves_labels_as_its_lens_does(
    tmp_path: Path,
) -> None:
    source = write_set(tmp_path / "source", 3, seed=3)
    copies(source, tmp_path / "copies", {"camera": through_camera(0.1), "bend": bent(0.1)})
    lens = bent(0.1).change
    for scene, original in zip(
        load_scenes(tmp_path / "copies" / "camera"), load_scenes(source), strict=True
    ):
        for taken, before in ((scene.tray, original.tray), (scene.image, original.image)):
            bent_only = lens(read_image(before)).astype(int)
            difference = np.abs(read_image(taken).astype(int) - bent_only)
            assert 0.5 < float(difference.mean()) < 8.0  # blurred, noisier, compressed
    boxes = [[o["bbox"] for o in r["objects"]] for r in _labels(tmp_path / "copies" / "camera")]
    assert boxes == [
        [o["bbox"] for o in r["objects"]] for r in _labels(tmp_path / "copies" / "bend")
    ]
