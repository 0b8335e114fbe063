"""Vision speed on one core: settle check per frame of the small stream, full reading of a
1200x900 frame, and the processing from the moment the scene is still to the reading.

Run: ``.venv/bin/python -m benchmarks.vision [--json] [--data DIR]`` (as a module: run as a
script, this file's name would hide the ``vision`` package). Frames are generated
(``vision.synthetic``) unless ``--data`` names a labelled folder such as the development
set; ``--tilt DEG`` takes them by a camera tilted from looking straight down (see
``benchmarks.vision_drift.tilted``: every frame is then rectified before it is read);
``--shade DEPTH`` darkens each throw's frame (not its empty tray) by ``DEPTH`` beyond an
edge placed at random (``benchmarks.vision_drift.shaded_across``: a player's shade, which
the reader relights pixel by pixel).
Targets on the development machine: settle under 1 ms, reading under 30 ms, still to
reading under 150 ms; a Raspberry Pi 4 core is about 5 times slower.

Each frame's time is the best of several runs, as ``timeit`` advises: what the code costs,
without what other work on a shared machine adds to some runs (on the development machine,
the same frame read minutes apart took up to half as long again).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_drift import shaded_across, tilted
from vision.dataset import load_scenes
from vision.kit import Kit, kit_named
from vision.profile import default_profile
from vision.reader import Reader
from vision.settle import SettleDetector
from vision.synthetic import scene
from vision.tray import Image, calibrate, read_image

LORES = (320, 240)  # the Pi camera's second, low-resolution stream


def _ms(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def _frames(data: Path | None, count: int) -> list[tuple[Image, Image, Kit]]:
    if data is None:
        kits = ("sticks4", "ur", "modern", "binary-d4")
        made = [scene(seed, kits[seed % len(kits)]) for seed in range(count)]
        return [(m.frame, m.empty, kit_named(str(m.label["kit"]))) for m in made]
    scenes = load_scenes(data)[:count]
    return [(read_image(s.image), read_image(s.tray), s.kit) for s in scenes]


def measure(
    data: Path | None,
    count: int = 12,
    rounds: int = 5,
    tilt: float = 0.0,
    shade: float = 0.0,
) -> dict[str, float]:
    cv2.setNumThreads(1)
    frames = _frames(data, count)
    if tilt:
        change = tilted(tilt).change
        frames = [(change(frame), change(empty), kit) for frame, empty, kit in frames]
    if shade:
        darken = shaded_across(shade).change
        frames = [(darken(frame), empty, kit) for frame, empty, kit in frames]
    cases = [_Case(frame, empty, kit) for frame, empty, kit in frames]
    # Round after round over every frame, each frame's best kept: a slow spell of the
    # machine then costs each frame one run, not all the runs of the frames it lasts.
    best = [[math.inf] * 3 for _ in cases]  # settle, reading, still to reading
    for _ in range(rounds):
        for case, kept in zip(cases, best, strict=True):
            kept[:] = map(min, kept, case.timed())
    settle_ms, read_ms, latency_ms = zip(*best, strict=True)
    figures = {
        "settle_ms_per_frame": statistics.median(settle_ms),
        "read_ms_1200x900": statistics.median(read_ms),
        "read_ms_worst": max(read_ms),
        "still_to_reading_ms": statistics.median(latency_ms),
        "still_to_reading_ms_worst": max(latency_ms),
        "frames": float(len(cases)),
        "threads": float(cv2.getNumThreads()),
    }
    for kit in sorted({case.kit.name for case in cases}):
        times = [ms for case, ms in zip(cases, read_ms, strict=True) if case.kit.name == kit]
        figures[f"read_ms_worst_{kit}"] = max(times)
    return figures


class _Case:
    """One frame, its reader, and its small stream for the settle check."""

    def __init__(self, frame: Image, empty: Image, kit: Kit) -> None:
        self.frame, self.kit = frame, kit
        self.reader = Reader(calibrate(empty), default_profile())
        self.small = np.asarray(cv2.resize(frame, LORES, interpolation=cv2.INTER_AREA), np.uint8)
        empty_small = np.asarray(cv2.resize(empty, LORES), np.uint8)
        self.detector = SettleDetector.for_tray(empty_small, still_frames=10**6)
        self.reader.read(frame, kit)  # the first reading warms caches

    def timed(self) -> tuple[float, float, float]:
        """Milliseconds: a settle check (best of ten), a reading, still to reading."""
        settle = min(_ms(lambda: self.detector.update(self.small)) for _ in range(10))
        read = _ms(lambda: self.reader.read(self.frame, self.kit))
        return settle, read, _ms(self.still_to_reading)

    def still_to_reading(self) -> None:
        # The frame that completes the still run, then two readings that must agree.
        self.detector.update(self.small)
        self.reader.read(self.frame, self.kit)
        self.reader.read(self.frame, self.kit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, help="a labelled folder (default: generated)")
    parser.add_argument("--frames", type=int, default=12)
    parser.add_argument("--tilt", type=float, default=0.0, metavar="DEGREES")
    parser.add_argument("--shade", type=float, default=0.0, metavar="DEPTH")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        figures = measure(args.data, args.frames, tilt=args.tilt, shade=args.shade)
    except ValueError as error:  # a tilt or shade beyond the benchmark's
        parser.error(str(error))
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"settle check per frame ({LORES[0]}x{LORES[1]}): "
        f"{figures['settle_ms_per_frame']:.3f} ms (target < 1 ms)"
    )
    print(
        f"full reading of a 1200x900 frame: {figures['read_ms_1200x900']:.1f} ms median, "
        f"{figures['read_ms_worst']:.1f} ms worst (target < 30 ms)"
    )
    by_kit = {
        key.removeprefix("read_ms_worst_"): ms
        for key, ms in figures.items()
        if key.startswith("read_ms_worst_")
    }
    print("  worst by kit: " + ", ".join(f"{kit} {ms:.1f} ms" for kit, ms in by_kit.items()))
    print(
        f"still to reading (settle + 2 agreeing readings): "
        f"{figures['still_to_reading_ms']:.1f} ms median, "
        f"{figures['still_to_reading_ms_worst']:.1f} ms worst (target < 150 ms)"
    )


if __name__ == "__main__":
    main()
