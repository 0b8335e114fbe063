"""Harder copies of a labelled folder: the same labels, the pictures changed as asked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.stress_copies import copies, main
from benchmarks.vision_drift import compressed, noisy, resampled
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


def test_a_folder_without_labels_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["stress_copies", str(tmp_path), str(tmp_path / "out"), "--noise", "4"]
    monkeypatch.setattr(sys, "argv", arguments)
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 2
    assert "labels.jsonl" in capsys.readouterr().err
