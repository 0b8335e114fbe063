"""A labelled folder read as a camera gives it: each throw filmed, every frame with noise of
its own, and read by the live loop (``vision.watcher.ThrowWatcher``: the settle check,
still frames averaged, readings until two agree), which the device runs too.

Each scene is filmed as a few frames of its empty tray, then its throw lying still until
the watcher gives an observation or ``--frames`` frames have passed: a throw never given
within them is one the players would wait on until they pick it up. The observations are
scored as ``companion vision evaluate`` scores single pictures (``vision.evaluate``).

Run: ``.venv/bin/python -m benchmarks.live ../shared/data/throws-dev [--noise 4]
[--frames 80] [--seed 0] [--json]``. About 3 minutes for the dev set on one core.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.dataset import Scene, load_scenes
from vision.evaluate import Report, evaluate
from vision.observation import Observation, Reason, Refusal
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.settle import SMALL_SIZE
from vision.synthetic import small_stream
from vision.tray import Image, Tray, read_image
from vision.watcher import ThrowWatcher

EMPTY_FRAMES = 3  # of the empty tray before each throw
NEVER_GIVEN = "never given"


@dataclass
class Filmed:
    """A ``vision.evaluate`` read function: the scene's throw filmed and watched."""

    profile: Profile
    noise: float = 4.0  # grey levels, standard deviation, each frame's own
    frames: int = 80  # of the throw lying still, at most
    seed: int = 0
    never_given: list[str] = field(default_factory=list)  # the scenes' pictures
    _filmed: int = 0  # scenes so far: each has noise of its own, whatever came before

    def __call__(self, frame: Image, tray: Tray, scene: Scene) -> Observation:
        # Each scene on its own tray, so with a reader of its own: what a game's reader
        # learns over its throws (the d4's hand and font, ``benchmarks.d4_hand`` and
        # ``d4_font``) is left out, as one throw cannot teach it (a font judged by one
        # die refuses many: 10 of the dev set's d4s); ``evaluate`` judges the folder's
        # font over all its d4s.
        watcher = ThrowWatcher(Reader(tray, self.profile), scene.kit)
        empty = read_image(scene.tray)
        rng = np.random.default_rng((self.seed, self._filmed))
        self._filmed += 1
        for index in range(EMPTY_FRAMES + self.frames):
            filmed = _noisy(empty if index < EMPTY_FRAMES else frame, self.noise, rng)
            seen = watcher.offer(filmed, small=small_stream(filmed, SMALL_SIZE))
            if seen is not None:
                return seen
        self.never_given.append(scene.image.name)
        return Observation(refusals=(Refusal(Reason.UNCLEAR, detail=NEVER_GIVEN),))


def _noisy(picture: Image, noise: float, rng: np.random.Generator) -> Image:
    return np.asarray(np.clip(picture + rng.normal(0.0, noise, picture.shape), 0, 255), np.uint8)


def measure(
    folder: Path, noise: float = 4.0, frames: int = 80, seed: int = 0
) -> tuple[Report, list[str]]:
    """The folder's report as filmed and watched, and the scenes never given."""
    filmed = Filmed(default_profile(), noise, frames, seed)
    report = evaluate(load_scenes(folder), filmed)
    return report, filmed.never_given


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path, help="a labelled folder (the dev set's format)")
    parser.add_argument("--noise", type=float, default=4.0, help="grey levels a frame")
    parser.add_argument("--frames", type=int, default=80, help="of a throw, at most")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report, never_given = measure(args.folder, args.noise, args.frames, args.seed)
    if args.json:
        print(json.dumps({"never_given": never_given, **report.as_dict()}, indent=2))
        return
    print(report.text())
    print(f"never given within {args.frames} frames: {len(never_given)} {never_given}")


if __name__ == "__main__":
    main()
