"""The unseen-sticks benchmark reads every throw it draws and leaves the generator as it was."""

from __future__ import annotations

from random import Random

from benchmarks.unseen_sticks import measure, random_look
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
