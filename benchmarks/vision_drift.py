"""The reader on a labelled folder whose throws were photographed after the tray moved or
the light changed since calibration: each frame moved by whole pixels, turned about its
middle or seen larger or smaller (a camera bumped nearer or further), or its channels
scaled, before it is read (the empty trays stay as they were); resampled (frames and empty
trays moved alike by a fraction of a pixel: only how the pixels sample the scene changes);
by cameras of other resolutions: frames and empty trays resized alike, readings scaled back
to the labels; by a camera out of focus or noisier (frames blurred, or with noise added);
by a soft lens (frames and empty trays blurred alike); and by a light that changed over
part of the tray only (a player's shade).

Run: ``.venv/bin/python -m benchmarks.vision_drift DIR [--profile P] [--json]``, for
instance on the development set. Each row is a ``companion vision evaluate`` of the whole
folder under one change; the first row, unchanged, is the baseline.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dataset import Scene, load_scenes
from vision.evaluate import KEPT_TRAYS, Recent, evaluate
from vision.observation import Observation
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.tray import Image, Tray, calibrate, read_image

Change = Callable[[Image], Image]
# Where a change moves points of a picture of the given size (width, height): (n, 2) pixels.
Moves = Callable[[NDArray[np.float64], tuple[int, int]], NDArray[np.float64]]


@dataclass(frozen=True)
class Drift:
    name: str
    change: Change
    resolution: float = 1.0  # the camera's pixels per the labels' pixels (empty tray too)
    offset: tuple[int, int] = (0, 0)  # how far the change moved what the labels place
    empty_too: bool = False  # the empty tray is taken by the changed camera as well
    moves: Moves | None = None  # where the labels' boxes go, for copies that move them

    @property
    def recalibrated(self) -> bool:
        return self.empty_too or self.resolution != 1.0


def moved(dx: int, dy: int) -> Drift:
    return Drift(f"moved {dx:+d}, {dy:+d} px", shifted(dx, dy), offset=(dx, dy))


def resampled(dx: float, dy: float) -> Drift:
    """Frames and empty tray moved alike by a fraction of a pixel (linear interpolation):
    the same throw, seen by a camera whose pixels fall a little elsewhere. What changes
    is only how each pixel samples the scene; a reading that changes with it was a
    close call."""
    inner = shifted(dx, dy)
    return Drift(f"resampled, moved {dx:g}, {dy:g} px with the empty tray", inner, empty_too=True)


def shifted(dx: float, dy: float) -> Change:
    """A picture moved (dx, dy) pixels: exactly by whole pixels, interpolated linearly
    between them; what comes in at the border repeats it."""

    def change(frame: Image) -> Image:
        shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        size = (frame.shape[1], frame.shape[0])
        out = cv2.warpAffine(
            frame, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return np.asarray(out, np.uint8)

    return change


def lit(blue: float, green: float, red: float) -> Drift:
    def change(frame: Image) -> Image:
        scaled = frame.astype(np.float32) * np.asarray((blue, green, red), np.float32)
        return np.asarray(np.clip(scaled, 0, 255), np.uint8)

    return Drift(f"light x {blue:g}, {green:g}, {red:g} (b, g, r)", change)


def resized(factor: float) -> Drift:
    def change(frame: Image) -> Image:
        smoothing = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
        out = cv2.resize(frame, None, fx=factor, fy=factor, interpolation=smoothing)
        return np.asarray(out, np.uint8)

    return Drift(f"camera of {factor:g} times the resolution", change, factor)


def turned(degrees: float, size: float = 1.0) -> Drift:
    def change(frame: Image) -> Image:
        height, width = frame.shape[:2]
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, size)
        out = cv2.warpAffine(
            frame,
            turn,
            (width, height),
            flags=cv2.INTER_LANCZOS4,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return np.asarray(out, np.uint8)

    # The labels' boxes are left where they were: a degree, or 1 % of size, moves them by
    # at most 13 pixels.
    name = f"turned {degrees:g} degrees" if size == 1.0 else f"seen {size:g} times as large"
    return Drift(name, change)


def blurred(sigma: float) -> Drift:
    def change(frame: Image) -> Image:
        return np.asarray(cv2.GaussianBlur(frame, (0, 0), sigma), np.uint8)

    return Drift(f"blurred, sigma {sigma:g} px", change)


MOUNT_SIZE = 0.85  # a 4:3 picture turned by up to 8 degrees stays whole at this size
MOUNT_TURN = 8.0


def mounted(degrees: float) -> Drift:
    """A camera mounted turned by ``degrees`` to the tray and calibrated so (the empty tray
    turned too), its picture seen at ``MOUNT_SIZE`` of the size so that nothing of the
    tray leaves it: turned by 0 degrees, the same size alone."""
    if not abs(degrees) <= MOUNT_TURN:  # nan too
        raise ValueError(f"a camera turned by at most {MOUNT_TURN:g} degrees, not {degrees:g}")

    def matrix(size: tuple[int, int]) -> NDArray[np.float64]:
        turn = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), degrees, MOUNT_SIZE)
        return np.vstack([np.asarray(turn, np.float64), [0.0, 0.0, 1.0]])

    name = f"camera mounted turned {degrees:g} degrees, {MOUNT_SIZE:g} times the size"
    return _seen_through(name, matrix)


def _seen_through(name: str, matrix: Callable[[tuple[int, int]], NDArray[np.float64]]) -> Drift:
    """A camera calibrated anew (the empty tray changed too) whose pictures are the
    labelled ones moved by the homography ``matrix(size)``, and the labels' places with
    them; what comes in at the border repeats it."""

    def change(frame: Image) -> Image:
        size = (frame.shape[1], frame.shape[0])
        moving = matrix(size)
        if np.array_equal(moving[2], [0.0, 0.0, 1.0]):  # an affine move: as it was measured
            out = cv2.warpAffine(
                frame, moving[:2], size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        else:
            out = cv2.warpPerspective(
                frame, moving, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
        return np.asarray(out, np.uint8)

    def moves(points: NDArray[np.float64], size: tuple[int, int]) -> NDArray[np.float64]:
        placed = cv2.perspectiveTransform(points.reshape(-1, 1, 2), matrix(size))
        return np.asarray(placed.reshape(-1, 2), np.float64)

    return Drift(name, change, empty_too=True, moves=moves)


# The development set's lens: 65 degrees across the picture's width.
LENS_ACROSS_DEGREES = 65.0
MOUNT_TILT = 8.0
TILT_SIZE = 0.75  # the tray's floor stays whole in the picture tilted by up to 8 degrees


def tilted(degrees: float) -> Drift:
    """A camera turned by ``degrees`` about its lens from looking straight down at the
    tray's middle (its picture's top edge towards the tray's far side), with a lens of
    ``TILT_SIZE`` times the focal length so that the floor stays in view, calibrated so
    (the empty tray tilted too). A camera turned about its lens sees every point, high or
    low, moved by one homography (``K' R K^-1``), so the copy is what that camera takes:
    the tray off the picture's middle, its far side smaller than its near side (a
    keystone), and the point below the lens (the tray's middle) away from the picture's
    centre."""
    if not abs(degrees) <= MOUNT_TILT:  # nan too
        raise ValueError(f"a camera tilted by at most {MOUNT_TILT:g} degrees, not {degrees:g}")

    def matrix(size: tuple[int, int]) -> NDArray[np.float64]:
        width, height = size
        focal = width / 2 / np.tan(np.radians(LENS_ACROSS_DEGREES / 2))
        lens = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
        wider = np.array([[TILT_SIZE, 0, 0], [0, TILT_SIZE, 0], [0, 0, 1]]) @ lens
        wider[:2, 2] = width / 2, height / 2  # the same picture centre, a shorter focal length
        angle = np.radians(degrees)
        turn = np.array(
            [[1, 0, 0], [0, np.cos(angle), -np.sin(angle)], [0, np.sin(angle), np.cos(angle)]]
        )
        return np.asarray(wider @ turn @ np.linalg.inv(lens), np.float64)

    return _seen_through(f"camera tilted {degrees:g} degrees, {TILT_SIZE:g} times the size", matrix)


MAX_BEND = 0.3  # beyond, a point's place through the lens is no longer found by fixed point


def bent(k: float) -> Drift:
    """A lens that bends straight lines, calibrated so (the empty tray bent too): a point
    of the picture at ``r`` from its centre (a share of the half diagonal) shows what the
    straight view shows at ``r (1 + k r^2)``, barrel for ``k`` > 0, pincushion for ``k`` <
    0; a barrel view is then magnified by ``1 + k`` so that its corners show the straight
    view's, not what lies beyond it (which the labelled pictures do not hold: repeating
    their border would draw streaks that differ from the empty tray's). Camera lenses bend
    so, a wide one most; the tray's walls are then curves."""
    if not abs(k) <= MAX_BEND:  # nan too
        raise ValueError(f"a lens bending by at most {MAX_BEND:g} either way, not {k:g}")
    magnified = max(1.0, 1.0 + k)

    def sources(size: tuple[int, int]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        width, height = size
        centre, reach = np.array([width, height]) / 2.0, np.hypot(width, height) / 2.0
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
        dx, dy = xs - centre[0], ys - centre[1]
        stretch = (1.0 + k * (dx**2 + dy**2) / reach**2) / magnified
        return (
            (centre[0] + dx * stretch).astype(np.float32),
            (centre[1] + dy * stretch).astype(np.float32),
        )

    def change(frame: Image) -> Image:
        map_x, map_y = sources((frame.shape[1], frame.shape[0]))
        out = cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(out, np.uint8)

    def moves(points: NDArray[np.float64], size: tuple[int, int]) -> NDArray[np.float64]:
        centre, reach = np.array(size, np.float64) / 2.0, np.hypot(*size) / 2.0
        offsets = points - centre
        straight = np.hypot(offsets[:, 0], offsets[:, 1]) / reach
        radius = straight.copy()
        for _ in range(30):  # r (1 + k r^2) / magnified = straight, by fixed point: k is small
            radius = straight * magnified / (1.0 + k * radius**2)
        shrink = np.divide(radius, straight, out=np.ones_like(radius), where=straight > 0)
        return np.asarray(centre + offsets * shrink[:, None], np.float64)

    return Drift(f"lens bending by {k:g}", change, empty_too=True, moves=moves)


# One plausible camera, every imperfection at once: a lens bending a little, a little
# soft, a sensor's noise, and JPEG. Each alone read nothing of the development set wrong;
# together they read a d6 of it wrong, and a d4 of generated seed 2711.
CAMERA_BEND = 0.03
CAMERA_BLUR_PX = 0.7
CAMERA_NOISE = 4.0  # grey levels
CAMERA_JPEG = 75


def through_camera(
    k: float = CAMERA_BEND,
    blur: float = CAMERA_BLUR_PX,
    noise: float = CAMERA_NOISE,
    quality: int = CAMERA_JPEG,
) -> Drift:
    """Every picture, the empty tray's too, as one camera with all these imperfections
    takes it: bent by ``k`` (see :func:`bent`), blurred, noisier, then compressed."""
    lens = bent(k)
    steps = (lens.change, blurred(blur).change, noisy(noise).change, compressed(quality).change)

    def change(frame: Image) -> Image:
        for step in steps:
            frame = step(frame)
        return frame

    name = f"a camera: lens bending by {k:g}, blur {blur:g} px, noise {noise:g}, JPEG {quality}"
    return Drift(name, change, empty_too=True, moves=lens.moves)


def soft_lens(sigma: float) -> Drift:
    return replace(blurred(sigma), name=f"soft lens, sigma {sigma:g} px", empty_too=True)


def noisy(sigma: float) -> Drift:
    def change(frame: Image) -> Image:
        # Seeded by the frame itself: the same frame gets the same noise in every run.
        seed = int(frame[::97, ::89].sum())
        noise = np.random.default_rng(seed).normal(0.0, sigma, frame.shape)
        return np.asarray(np.clip(frame + noise, 0, 255), np.uint8)

    return Drift(f"noise, sigma {sigma:g} grey levels", change)


SHADE_EDGE_PX = 40.0  # a player's shade from a lamp above: its edge about 16 mm soft


def shaded(side: str, depth: float, reach: float = 0.5) -> Drift:
    """Frames darkened by ``depth`` over the ``side`` ("left" or "right") ``reach`` of the
    picture, with a soft edge: a player leaning over the tray between it and the lamp,
    after the empty tray was taken."""

    def change(frame: Image) -> Image:
        width = frame.shape[1]
        columns = np.arange(width, dtype=np.float32)
        inside = reach * width - columns if side == "left" else columns - (1 - reach) * width
        return _darkened(frame, depth, np.broadcast_to(inside, frame.shape[:2]))

    return Drift(f"{side} {reach:.0%} shaded by {depth:.0%}", change)


def shaded_across(depth: float) -> Drift:
    """Frames darkened by ``depth`` on one side of a straight edge, soft as in
    :func:`shaded`, turned and placed at random for each frame (seeded by the frame): the
    edge passes through the picture's middle two fifths, so the shade covers from about a
    quarter to three quarters of it, and crosses implements as often as it misses them."""
    if not 0.0 < depth < 1.0:  # nan too
        raise ValueError(f"a shade darkens by more than 0 and less than 1, not {depth:g}")

    def change(frame: Image) -> Image:
        rng = np.random.default_rng(int(frame[::89, ::97].sum()))
        height, width = frame.shape[:2]
        angle = rng.uniform(0.0, 2 * np.pi)
        middle = np.array([width, height]) * rng.uniform(0.3, 0.7, 2)
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        inside = (xs - middle[0]) * np.cos(angle) + (ys - middle[1]) * np.sin(angle)
        return _darkened(frame, depth, inside)

    return Drift(f"shaded by {depth:.0%} across a random edge", change)


def _darkened(frame: Image, depth: float, inside: NDArray[np.float32]) -> Image:
    """``frame`` darkened by ``depth`` where ``inside`` (pixels into the shade) is
    positive, by a share of it within the soft edge."""
    shade = 1.0 / (1.0 + np.exp(-inside / (SHADE_EDGE_PX / 4)))
    gain = (1.0 - depth * shade)[..., None]
    return np.asarray(np.clip(frame * gain + 0.5, 0, 255), np.uint8)


def compressed(quality: int) -> Drift:
    """Frames saved again as JPEG of ``quality``: a camera or a phone that compresses hard."""

    def change(frame: Image) -> Image:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)

    return Drift(f"compressed again, JPEG quality {quality}", change)


DRIFTS = (
    Drift("unchanged", lambda frame: frame),
    moved(1, 0),
    moved(2, 1),
    moved(-9, 7),
    resampled(0.5, 0.0),
    resampled(0.5, 0.5),
    turned(0.3),
    turned(-1.0),
    turned(0.0, 1.01),
    turned(0.0, 0.99),
    lit(0.85, 0.85, 0.85),
    lit(0.7, 0.7, 0.7),
    lit(0.9, 1.0, 1.08),
    lit(1.05, 0.95, 0.8),
    resized(0.75),
    resized(1.5),
    blurred(0.8),
    blurred(1.2),
    soft_lens(0.8),
    noisy(6.0),
    shaded("left", 0.3),
    shaded("right", 0.3),
    shaded("left", 0.15, 0.3),
    shaded_across(0.3),
)


def _reading(profile: Profile, drift: Drift) -> Callable[[Image, Tray, Scene], Observation]:
    # By the labels' tray's identity, kept with its reader so that no other tray takes its id.
    readers: Recent[int, tuple[Tray, Reader]] = Recent(KEPT_TRAYS)

    def camera_reader(tray: Tray, scene: Scene) -> tuple[Tray, Reader]:
        # Another camera: its empty tray as it would take it, from the labels' picture.
        changed = drift.recalibrated
        camera = calibrate(drift.change(read_image(scene.tray))) if changed else tray
        return tray, Reader(camera, profile)

    def read(frame: Image, tray: Tray, scene: Scene) -> Observation:
        _, reader = readers.get(id(tray), partial(camera_reader, tray, scene))
        observation = reader.read(drift.change(frame), scene.kit)
        # Boxes are told where the implements lie in the changed picture: back to the labels'.
        dx, dy = drift.offset
        return observation.placed((-dx, -dy), 1.0 / drift.resolution)

    return read


def measure(folder: Path, profile: Profile) -> list[dict[str, object]]:
    scenes = load_scenes(folder)
    rows = []
    for drift in DRIFTS:
        report = evaluate(scenes, _reading(profile, drift))
        rows.append({"drift": drift.name, **report.as_dict()})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path, metavar="DIR")
    parser.add_argument("--profile", type=Path, help="profile file (default: shipped one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = Profile.load(args.profile) if args.profile else default_profile()
    rows = measure(args.folder, profile)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| change | silent errors | clean throws refused | throws to refuse refused |")
    print("| --- | ---: | ---: | ---: |")
    for row in rows:
        print(
            f"| {row['drift']} | {row['silent_errors']} | {row['clean_refused']:.1%} "
            f"| {row['must_refuse_refused']:.1%} |"
        )


if __name__ == "__main__":
    main()
