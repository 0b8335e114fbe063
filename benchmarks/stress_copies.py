"""Copies of a labelled folder made harder, for the measurements that need folders
(``benchmarks/d4_margins.py``, ``companion vision evaluate``): frames compressed again,
noisier, blurred, shaded over part of the tray (``--shade 0.3``: darkened by 30 % beyond an
edge placed at random), or resampled by a fraction of a pixel with their empty trays, as the
drift benchmark's rows change them (``benchmarks/vision_drift.py``); or seen by a camera
mounted turned to the tray, tilted from looking straight down, or through a lens that
bends straight lines (frames and empty trays turned, tilted or bent, the labels' boxes
with them).

Run: ``.venv/bin/python -m benchmarks.stress_copies SRC OUT [--jpeg 40] [--noise 6]
[--blur 1.0] [--resample 0.5] [--shade 0.3] [--turn 8] [--tilt 5] [--bend 0.03]
[--camera] [--kits ur,ur-nostick]``: one folder per change under OUT (``jpeg40``,
``noise6``, ``blur1``, ``resample0.5``, ``shade0.3``, ``turn8``, ``tilt5``, ``bend0.03``,
``camera``: all of a plausible camera's imperfections at once), each with
the source's labels (every field kept, places moved with the picture) and its pictures
saved as PNG, so that nothing but the change alters them.
``--turn 0`` (or ``--tilt 0``) is the turned and tilted copies' baseline: the same size,
neither turned nor tilted.
Copies of a large folder take room: 800 generated throws are about 3 GB a copy.

A change is worth keeping when it reads more on copies of a set *not* used while making it:
keep a seed back (for instance a new ``--synthetic`` seed) and measure it last.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision_drift import (
    Drift,
    Moves,
    bent,
    blurred,
    compressed,
    mounted,
    noisy,
    resampled,
    shaded_across,
    through_camera,
    tilted,
)
from vision.errors import VisionError
from vision.tray import read_image


def copies(source: Path, out: Path, drifts: dict[str, Drift], kits: Iterable[str] = ()) -> None:
    """For each named drift, ``out/NAME``: the source's throws (of ``kits``, when given)
    changed by it."""
    wanted = set(kits)
    records = [
        json.loads(line)
        for line in (source / "labels.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    records = [r for r in records if not wanted or r["kit"] in wanted]
    for name, drift in drifts.items():
        _copy(source, out / name, drift, records)


def _copy(source: Path, folder: Path, drift: Drift, records: list[dict[str, object]]) -> None:
    lines = []
    for record in records:
        copied = dict(record)
        for field in ("image", "tray"):
            original = Path(str(record[field]))
            changed = field == "image" or drift.empty_too
            picture = read_image(source / original)
            target = original.with_suffix(".png")
            (folder / target).parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / target), drift.change(picture) if changed else picture)
            copied[field] = target.as_posix()
            if field == "image" and drift.moves is not None:
                size = (picture.shape[1], picture.shape[0])
                copied["objects"] = [_moved(o, drift.moves, size) for o in _objects(record)]
        lines.append(json.dumps(copied))
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _objects(record: dict[str, object]) -> list[dict[str, object]]:
    objects = record.get("objects", [])
    return [dict(o) for o in objects] if isinstance(objects, list) else []


def _moved(item: dict[str, object], moves: Moves, size: tuple[int, int]) -> dict[str, object]:
    """A labelled implement where a drift ``moves`` it: its box, the box of its moved
    corners; its d4's top point and base corners (generated labels), moved."""
    moved = dict(item)
    x0, y0, x1, y1 = np.asarray(item["bbox"], np.float64)
    corners = moves(np.array([[x0, y0], [x1, y0], [x0, y1], [x1, y1]]), size)
    low, high = np.floor(corners.min(axis=0)), np.ceil(corners.max(axis=0))
    moved["bbox"] = [int(v) for v in (*low, *high)]
    for field in ("top", "base"):
        if field in item:
            given = np.asarray(item[field], np.float64)
            points = moves(given.reshape(-1, 2), size).reshape(given.shape)
            moved[field] = np.round(points, 2).tolist()
    return moved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("source", type=Path, metavar="SRC")
    parser.add_argument("out", type=Path, metavar="OUT")
    parser.add_argument("--jpeg", type=int, action="append", default=[], metavar="QUALITY")
    parser.add_argument("--noise", type=float, action="append", default=[], metavar="SIGMA")
    parser.add_argument("--blur", type=float, action="append", default=[], metavar="SIGMA")
    parser.add_argument("--resample", type=float, action="append", default=[], metavar="PX")
    parser.add_argument("--turn", type=float, action="append", default=[], metavar="DEGREES")
    parser.add_argument("--tilt", type=float, action="append", default=[], metavar="DEGREES")
    parser.add_argument("--shade", type=float, action="append", default=[], metavar="DEPTH")
    parser.add_argument("--bend", type=float, action="append", default=[], metavar="K")
    parser.add_argument(
        "--camera",
        action="store_true",
        help="every change at once, as one plausible camera (see vision_drift.through_camera)",
    )
    parser.add_argument("--kits", default="", help="comma-separated kits to keep (default all)")
    args = parser.parse_args()
    drifts = {f"jpeg{q}": compressed(q) for q in args.jpeg}
    drifts |= {f"noise{s:g}": noisy(s) for s in args.noise}
    drifts |= {f"blur{s:g}": blurred(s) for s in args.blur}
    drifts |= {f"resample{d:g}": resampled(d, d) for d in args.resample}
    try:
        drifts |= {f"shade{d:g}": shaded_across(d) for d in args.shade}
        drifts |= {f"turn{d:g}": mounted(d) for d in args.turn}
        drifts |= {f"tilt{d:g}": tilted(d) for d in args.tilt}
        drifts |= {f"bend{k:g}": bent(k) for k in args.bend}
        drifts |= {"camera": through_camera()} if args.camera else {}
    except ValueError as error:
        parser.error(str(error))
    if not drifts:
        parser.error(
            "name at least one change: --jpeg, --noise, --blur, --resample, --shade, --turn,"
            " --tilt, --bend or --camera"
        )
    try:
        copies(args.source, args.out, drifts, [kit for kit in args.kits.split(",") if kit])
    except (OSError, ValueError, KeyError, VisionError) as error:  # a folder not as labelled
        parser.error(f"{args.source}: {error}")
    for name in drifts:
        print(args.out / name)


if __name__ == "__main__":
    main()
