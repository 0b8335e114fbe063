"""The d4 fit's benchmark: each generated d4's drawn corners against the fitted ones."""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest

from benchmarks import d4_fit
from benchmarks.d4_fit import SLIPPED_MM, FittedDie, fitted_dice, summary
from vision import tetra
from vision.observation import Box
from vision.synthetic import SyntheticScene, scene


def test_a_binary_d4s_label_holds_its_drawn_corners() -> None:
    d4s = [o for o in scene(5, "binary-d4").objects if o["kind"] == "d4"]
    assert len(d4s) == 4
    for d4 in d4s:
        assert len(d4["top"]) == 2
        assert len(d4["base"]) == 3
        x0, y0, x1, y1 = d4["bbox"]
        for x, y in [d4["top"], *d4["base"]]:
            assert x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1


@pytest.mark.parametrize("kit", ["binary-d4", "ur-nostick"])
def test_fitted_dice_lie_on_their_drawn_corners(kit: str) -> None:
    dice = list(fitted_dice(range(3), (kit,)))
    assert len(dice) >= (9 if kit == "binary-d4" else 3)
    assert {die.kit for die in dice} == {kit}
    assert statistics.median(die.error_mm for die in dice) < 0.8


def _die(error_mm: float, felt_distance: float = 80.0, across: str = "left") -> FittedDie:
    return FittedDie(0, "binary-d4", 0, error_mm, felt_distance, across, "upper")


def test_the_summary_groups_the_dice_and_counts_those_that_slipped() -> None:
    dice = [_die(0.2), _die(0.4), _die(3.0, felt_distance=10.0, across="right")]
    table = summary(dice)
    whole = table["binary-d4"]
    assert whole["dice"] == 3
    assert whole["median_mm"] == pytest.approx(0.4)
    assert whole["p90_mm"] == pytest.approx(3.0)
    assert whole["slipped_share"] == pytest.approx(1 / 3)
    assert table["binary-d4, felt's colour"]["slipped_share"] == 1.0
    assert table["binary-d4, other colour"]["slipped_share"] == 0.0
    assert table["binary-d4, left"]["dice"] == 2
    assert table["binary-d4, right"]["median_mm"] == pytest.approx(3.0)
    assert SLIPPED_MM < 3.0


@pytest.mark.parametrize("seed", [33, 81])
def test_binary_d4s_are_fitted_by_their_outline_where_their_faces_tell_little(seed: int) -> None:
    # Each of these throws has a binary d4 whose fit slipped 3.1-3.5 mm (on the half-size
    # crop) when its outline weighed as little as a numbered d4's: its painted tips left
    # out, its faces' colours hardly placed its corners. (Found with the shadows banded,
    # as the generator drew them before round 41; under shadows that reach the dice, seed
    # 33 has a die that slips for another cause: its fit drawn into the shadow.)
    dice = list(fitted_dice(range(seed, seed + 1), ("binary-d4",), grounded_shadows=False))
    assert len(dice) == 4
    assert max(die.error_mm for die in dice) < SLIPPED_MM


def test_boxes_share_the_pixels_of_their_overlap() -> None:
    a, b = Box(0, 0, 10, 10), Box(5, 8, 20, 30)
    assert a.overlap(b) == b.overlap(a) == 5 * 2
    assert a.overlap(Box(10, 0, 20, 10)) == 0  # side by side: no pixel shared
    assert a.iou(b) == pytest.approx(10 / (100 + 15 * 22 - 10))


def test_a_throw_s_binary_d4s_are_alike_in_size() -> None:
    # A set's dice are made alike; the generator drew each die's size on its own before.
    for seed in range(4):
        d4s = [o for o in scene(seed, "binary-d4").objects if "base" in o]
        edges = [_edge(d4["base"]) for d4 in d4s]
        assert len(edges) == 4
        assert max(edges) - min(edges) < 0.01 * min(edges)


def _edge(base: list[list[float]]) -> float:
    return statistics.mean(math.dist(base[i], base[i - 1]) for i in range(3))


@pytest.mark.parametrize(("seed", "die"), [(98, 0), (295, 0)])
def test_a_die_fitted_off_its_set_s_size_is_fitted_again_at_it(
    seed: int, die: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each of these dice, fitted on its own, strays from its drawn size: 1.3 and 1.7 mm
    # out; at its set's size, 0.35 and 0.58 (drawn with banded shadows, as they were found).
    def error() -> float:
        seeds = range(seed, seed + 1)
        return [d.error_mm for d in fitted_dice(seeds, ("binary-d4",), grounded_shadows=False)][die]

    alike = error()
    monkeypatch.setattr(tetra, "SET_SIZE_REACH", 0.0)
    free = error()
    assert free > 0.9
    assert alike < free - 0.5


def test_the_benchmark_draws_banded_shadows_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[bool] = []

    def drawn(*args: Any, grounded_shadows: bool = True, **kwargs: Any) -> SyntheticScene:
        asked.append(grounded_shadows)
        return scene(*args, grounded_shadows=grounded_shadows, **kwargs)

    monkeypatch.setattr(d4_fit, "scene", drawn)
    list(fitted_dice(range(1), ("ur-nostick",)))
    list(fitted_dice(range(1), ("ur-nostick",), grounded_shadows=False))
    assert asked == [True, False]


def test_a_numbered_d4_is_fitted_on_its_base_not_on_the_shadow_reaching_it() -> None:
    # Throw 71's d4 lies beside its own shadow; scored by the evenness of the floor's
    # colour round the die, the fit grew into that shadow: 4.25 mm off.
    (grounded,) = fitted_dice(range(71, 72), ("ur-nostick",))
    assert grounded.error_mm < 1.0
