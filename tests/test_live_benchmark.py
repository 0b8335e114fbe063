"""The live benchmark: a labelled folder filmed with noise and read by the live loop."""

from __future__ import annotations

from pathlib import Path

from benchmarks.live import NEVER_GIVEN, Filmed, measure
from vision.dataset import load_scenes
from vision.profile import default_profile
from vision.synthetic import write_set
from vision.tray import calibrate, read_image


def test_a_folder_filmed_is_read_and_scored_like_its_pictures(tmp_path: Path) -> None:
    folder = write_set(tmp_path / "set", 2, seed=11, trouble_share=0.0, kits=("sticks4",))
    report, never_given = measure(folder, noise=3.0, frames=30)
    assert never_given == [] and sum(report.scenes.values()) == 2
    assert report.silent_errors == 0 and report.scenes[("read", "correct")] >= 1


def test_a_throw_not_given_within_its_frames_is_counted(tmp_path: Path) -> None:
    folder = write_set(tmp_path / "set", 1, seed=11, trouble_share=0.0, kits=("sticks4",))
    [scene] = load_scenes(folder)
    filmed = Filmed(default_profile(), frames=3)  # fewer than the settle check waits
    observation = filmed(read_image(scene.image), calibrate(read_image(scene.tray)), scene)
    assert [refusal.detail for refusal in observation.refusals] == [NEVER_GIVEN]
    assert filmed.never_given == [scene.image.name]
