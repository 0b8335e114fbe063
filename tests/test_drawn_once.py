"""The suite's scenes drawn once (scene_helpers.drawn_once): each test gets the scene it asked
for, and a copy it may draw on."""

from __future__ import annotations

from typing import Any

import numpy as np
from scene_helpers import drawn_once

from vision import synthetic


def test_a_scene_asked_again_is_the_same_and_drawn_once() -> None:
    drawn: list[tuple[Any, ...]] = []

    def draw(*args: Any, **options: Any) -> synthetic.SyntheticScene:
        drawn.append((args, options))
        return synthetic.SyntheticScene(
            np.full((4, 4, 3), len(drawn), np.uint8), np.zeros((4, 4, 3), np.uint8), {}
        )

    scene = drawn_once(draw, kept=2)
    first = scene(1, "ur", d6_glare=True)
    first.frame[:] = 99  # a test drawing on its frame
    first.label["objects"] = []
    again = scene(1, "ur", d6_glare=True)
    assert len(drawn) == 1
    assert np.all(again.frame == 1) and again.label == {}
    assert np.all(scene(1, "ur").frame == 2)  # other options, another scene
    scene(1, "ur", felt=np.array([1, 2]))
    scene(1, "ur", felt=np.array([1, 2]))
    assert len(drawn) == 4  # an array's repr may not tell it: drawn each time


def test_the_scene_longest_unasked_is_drawn_again() -> None:
    drawn: list[int] = []

    def draw(seed: int) -> synthetic.SyntheticScene:
        drawn.append(seed)
        picture = np.zeros((2, 2, 3), np.uint8)
        return synthetic.SyntheticScene(picture, picture, {})

    scene = drawn_once(draw, kept=2)
    for seed in (1, 2, 1, 3, 1, 2):
        scene(seed)
    assert drawn == [1, 2, 3, 2]


def test_the_suite_draws_through_it() -> None:
    assert synthetic.scene.__qualname__.startswith("drawn_once")
