"""The unseen-sticks benchmark reads every throw it draws and leaves the generator as it was."""

from __future__ import annotations

import sys
from pathlib import Path
from random import Random

import pytest

from benchmarks.unseen_sticks import main, measure, random_look
from vision.profile import default_profile
from vision.synthetic import OTHER_LOOKS


def test_random_sets_are_colours_and_sometimes_bands() -> None:
    looks = [random_look(Random(seed)) for seed in range(20)]
    assert all(0 <= value < 256 for marked, _, plain in looks for value in (*marked, *plain))
    assert 0 < sum(bands is not None for _, bands, _ in looks) < len(looks)


def test_every_throw_is_counted_once_and_the_sets_are_forgotten() -> None:
    before = dict(OTHER_LOOKS)
    counts = measure(2, 2, seed=3, profile=default_profile())
    assert sum(counts.values()) == 4
    assert set(counts) <= {"right", "refused", "wrong", "wrong, one face shown"}
    assert before == OTHER_LOOKS


def test_a_profile_that_cannot_be_read_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["unseen_sticks", "--sets", "1", "--profile", str(tmp_path / "none.json")]
    monkeypatch.setattr(sys, "argv", arguments)
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 2
    assert "none.json cannot be read" in capsys.readouterr().err
