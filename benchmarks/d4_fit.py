"""How far the d4 fit puts a die's corners from where the generator drew them.

The reader's other measures (readings, refusals) tell a fit that slipped only when it
changes an outcome; this one measures the fit itself, on generated throws whose labels
hold each d4's drawn corners (``top`` and ``base``, picture pixels). For every d4 found
whole in a blob of its own, the fit's error is its worst point: the top point's distance
from the drawn one, and each drawn base corner's from the nearest fitted one, in mm. The
dice are told apart by what may make their fit slip:

- where the die lies in the picture (thirds across, halves down): perspective thins the
  faces turned towards the picture's nearest edge, and the generator's light, from the
  upper left, shades the faces turned down and to the right, beside the die's shadow;
- how far the die's colour is from the felt's (Lab distance of their medians inside the
  drawn base): a die of the felt's colour shows its faces only by their shading.

Run: ``.venv/bin/python -m benchmarks.d4_fit [--scenes 150] [--seed 0] [--banded-shadows]
[--json]``: that many throws of four binary d4s and as many of a lone numbered d4, from
``--seed`` on, their shadows drawn as the generator drew them before round 41 with
``--banded-shadows`` (a band of unshadowed felt round each die). About 50 seconds for the
default 300 throws on one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.observation import Box
from vision.segment import Blob, Segmenter, byte_median
from vision.synthetic import scene
from vision.tetra import Tetra, fit_tetras
from vision.tray import Image, calibrate

KITS = ("binary-d4", "ur-nostick")
THIRDS = ("left", "middle", "right")
FELT_LIKE = 30.0  # Lab: a die of the felt's colour (seeds 0-59: 10 binary d4s of 240, 3 slipped)
SLIPPED_MM = 1.0  # a worst point this far out: the fit slipped


@dataclass(frozen=True)
class FittedDie:
    """One die's fit against its drawing: ``error_mm`` the worst point's distance."""

    seed: int
    kit: str
    index: int
    error_mm: float
    felt_distance: float
    across: str  # third of the picture: left, middle, right
    down: str  # half: upper, lower

    @property
    def felt_like(self) -> bool:
        return self.felt_distance < FELT_LIKE


def fitted_dice(
    seeds: range, kits: tuple[str, ...] = KITS, *, grounded_shadows: bool = True
) -> Iterator[FittedDie]:
    """Every d4 of the generated throws of ``kits`` (one of each kit per seed) that lies
    whole in a blob of its own, fitted as the reader fits a throw's dice (together);
    ``grounded_shadows``: drawn with shadows that reach the dice, else banded
    (``vision.synthetic``)."""
    for seed in seeds:
        for kit in kits:
            yield from _scene_dice(seed, kit, grounded_shadows)


def _scene_dice(seed: int, kit: str, grounded_shadows: bool) -> Iterator[FittedDie]:
    made = scene(seed, kit, grounded_shadows=grounded_shadows)
    tray = calibrate(made.empty)
    if tray.scale != 1.0 or tray.keystone is not None:
        return  # the labels are picture pixels; the fit works in the working frame
    foreground = Segmenter(tray).foreground(made.frame)
    drawn = [o for o in made.objects if o["kind"] == "d4" and "top" in o]
    owners = [_own_blob(o["bbox"], foreground.blobs) for o in drawn]
    pairs = [(o, blob) for o, blob in zip(drawn, owners, strict=True) if blob is not None]
    if not pairs:
        return
    binary = kit == "binary-d4"
    blobs = [blob for _, blob in pairs]
    tetras = fit_tetras(foreground.frame, blobs, tray, painted=binary, alike=binary)
    height, width = made.frame.shape[:2]
    for index, ((truth, _), tetra) in enumerate(zip(pairs, tetras, strict=True)):
        top, base = np.asarray(truth["top"]), np.asarray(truth["base"])
        centre = base.mean(axis=0)
        yield FittedDie(
            seed=seed,
            kit=kit,
            index=index,
            error_mm=_worst_point(tetra, top, base) / tray.px_per_mm,
            felt_distance=_felt_distance(made.frame, made.empty, base),
            across=THIRDS[min(int(3 * centre[0] / width), 2)],
            down="upper" if centre[1] < height / 2 else "lower",
        )


def _own_blob(bbox: object, blobs: tuple[Blob, ...]) -> Blob | None:
    """The one blob that holds most of the drawn box, if no other blob overlaps it."""
    drawn = Box(*(int(v) for v in cast(list[float], bbox)))
    overlapping = [blob for blob in blobs if blob.box.overlap(drawn)]
    if len(overlapping) != 1:
        return None
    (blob,) = overlapping
    return blob if blob.box.overlap(drawn) >= 0.5 * drawn.area else None


def _worst_point(tetra: Tetra, top: NDArray[np.float64], base: NDArray[np.float64]) -> float:
    """Pixels: the top point's distance, and each drawn base corner's from the nearest
    fitted one, whichever is largest."""
    distances = [float(np.hypot(*(tetra.apex - top)))]
    distances += [float(np.min(np.hypot(*(tetra.base - corner).T))) for corner in base]
    return max(distances)


def _felt_distance(frame: Image, empty: Image, base: NDArray[np.float64]) -> float:
    """Lab distance between the median colours inside the drawn base, in the throw and in
    the empty tray."""
    x, y, width, height = cv2.boundingRect(np.round(base).astype(np.int32))
    x, y = max(x, 0), max(y, 0)
    inside = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(inside, np.round(base - (x, y)).astype(np.int32), 1)

    def median_lab(picture: Image) -> NDArray[np.float64]:
        part = picture[y : y + height, x : x + width]
        lab = np.asarray(cv2.cvtColor(part, cv2.COLOR_BGR2LAB), np.uint8)
        return byte_median(lab[inside[: lab.shape[0], : lab.shape[1]] > 0])

    return float(np.linalg.norm(median_lab(frame) - median_lab(empty)))


def summary(dice: list[FittedDie]) -> dict[str, dict[str, float]]:
    """Per group (kit, then kit by felt likeness, by third across and by half down): the
    dice, their errors' median and 90th percentile (mm), and the share that slipped."""
    groups: dict[str, list[float]] = defaultdict(list)
    for die in dice:
        likeness = "felt's colour" if die.felt_like else "other colour"
        for name in (
            die.kit,
            f"{die.kit}, {likeness}",
            f"{die.kit}, {die.across}",
            f"{die.kit}, {die.down}",
        ):
            groups[name].append(die.error_mm)
    return {name: _figures(errors) for name, errors in sorted(groups.items())}


def _figures(errors: list[float]) -> dict[str, float]:
    ordered = sorted(errors)
    return {
        "dice": float(len(ordered)),
        "median_mm": statistics.median(ordered),
        "p90_mm": ordered[min(int(0.9 * len(ordered)), len(ordered) - 1)],
        "slipped_share": sum(e > SLIPPED_MM for e in ordered) / len(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scenes", type=int, default=150, help="throws of each kit")
    parser.add_argument("--seed", type=int, default=0, help="the first throw's seed")
    parser.add_argument(
        "--banded-shadows",
        action="store_true",
        help="shadows drawn with a band of unshadowed felt round each die (before round 41)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.scenes < 1:
        parser.error("--scenes must be at least 1")
    cv2.setNumThreads(1)
    seeds = range(args.seed, args.seed + args.scenes)
    dice = list(fitted_dice(seeds, grounded_shadows=not args.banded_shadows))
    table = summary(dice)
    worst = sorted(dice, key=lambda die: -die.error_mm)[:10]
    if args.json:
        print(json.dumps({"groups": table, "worst": [asdict(d) for d in worst]}, indent=2))
        return
    print(f"{'dice':<32} {'n':>5} {'median mm':>10} {'90 % mm':>8} {'slipped':>8}")
    for name, row in table.items():
        print(
            f"{name:<32} {row['dice']:>5.0f} {row['median_mm']:>10.2f} "
            f"{row['p90_mm']:>8.2f} {row['slipped_share']:>8.1%}"
        )
    print(f"slipped: worst point over {SLIPPED_MM} mm; felt's colour: under {FELT_LIKE} Lab")
    print("worst fits (seed, kit, die, mm, Lab from the felt, place):")
    for die in worst:
        print(
            f"  {die.seed} {die.kit} {die.index}: {die.error_mm:.2f} mm, "
            f"{die.felt_distance:.0f}, {die.across} {die.down}"
        )


if __name__ == "__main__":
    main()
