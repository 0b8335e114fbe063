"""Tray calibration: where the felt floor is, the scale, and the empty tray to compare with.

The camera looks straight down (tilt under a few degrees), so the floor is found as the
region of the felt's colour around the image centre; its convex hull is the floor and its
size gives the scale. The empty image itself is the background model.

Reading is tuned at one scale, pixels per millimetre of the floor: pips, numerals and the
felt's texture are measured in pixels as much as in millimetres. A camera whose pictures
show the floor at another scale (another resolution, another height) has its pictures
resized to the working scale before anything is read; what is reported (boxes) is in the
pictures' own pixels.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import CalibrationError
from vision.keystone import floor_corners, moved, point_below_lens, rectifying
from vision.observation import Box

FLOOR_MM = (400.0, 300.0)  # inside of the tray, long side first, unless told otherwise
# The floor found, long side over short, against the tray's: on the development set's
# empty trays 0.966-1.057 of it (a strip of felt lost to a wall's shade, a camera tilted by
# a degree or two). Farther, the tray is not the size calibration was told: every size
# measured on the floor would be off, sticks and dice refused or taken one for another.
FLOOR_PROPORTION_SLACK = 1.1
FLOOR_SIZE_RANGE = (100.0, 2000.0)  # mm, any side of a tray's inside
CAMERA_HEIGHT_MM = 380.0  # lens above the floor, when calibration was not told otherwise
LENS_ABOVE_FELT_MM = (100.0, 2000.0)  # a camera height that can be told: dice lie below it
ANALYSIS_SCALE = 0.5  # segmentation runs on a half-size frame
_FIND_SCALE = 0.25
# The working scale: the development pictures (1200x900, the floor's 400 mm seen from 37-39
# cm) show 2.35-2.54 px/mm. Pictures in that range are read as they are; others resized.
WORKING_PX_PER_MM = 2.45
WORKING_RANGE = (2.33, 2.57)
# A picture shrunk by less than this (a camera's 1280 x 960 of the usual floor: 0.93) is
# interpolated, not averaged by areas: OpenCV averages areas fast only by a whole factor
# (1.4 ms to halve 2400 x 1800 on one core), by 0.93 in 12 ms a frame, linear in 1.7.
MILD_SHRINK = 0.75
# Fewer pixels than this per millimetre cannot show a d6's pips (3 mm) nor a d4's numerals:
# resizing would invent what the camera never saw.
MIN_PX_PER_MM = 1.5
# An empty tray's felt, at calibration: nothing of a d6's top face or more (15 x 15 mm) may
# differ from it, away from the walls' shade and the corners (where marker cards lie).
_LEFT_ON_FLOOR_MM2 = 150.0
_WALL_MARGIN_MM = 12.0
_CORNER_MM = 50.0

Image = NDArray[np.uint8]
Points = NDArray[np.float32]


@dataclass(frozen=True)
class Tray:
    """A calibrated tray: the empty image, the floor outline and the scale, all at the working
    scale; ``scale`` and ``picture_size`` tell the camera's pictures from it."""

    empty: Image  # at the working scale, as everything below
    floor: Points  # convex polygon, shape (N, 2)
    px_per_mm: float
    camera_height_mm: float = CAMERA_HEIGHT_MM
    scale: float = 1.0  # working pixels per pixel of the camera's pictures
    picture_size: tuple[int, int] | None = None  # (width, height); None: the empty's size
    floor_mm: tuple[float, float] = FLOOR_MM  # the inside of the tray, long side first
    # A tilted camera's keystone floor made a rectangle again: the homography from the
    # picture resized to the working scale to the working picture; None: no keystone.
    keystone: NDArray[np.float64] | None = None
    # The throws read with this calibration have judged its camera height (vision.height):
    # it is not measured again.
    height_judged: bool = False

    @classmethod
    def from_picture(
        cls,
        empty: Image,
        floor: Points,
        px_per_mm: float,
        camera_height_mm: float,
        floor_mm: tuple[float, float] = FLOOR_MM,
        keystone: NDArray[np.float64] | None = None,
    ) -> Tray:
        """The tray found in a picture (floor and scale in its pixels, the floor rectified
        by ``keystone`` when the picture shows one), at working scale."""
        if px_per_mm < MIN_PX_PER_MM:
            raise CalibrationError(
                f"the picture shows {px_per_mm:.2f} pixels per millimetre of the tray, fewer "
                f"than the {MIN_PX_PER_MM} needed to see pips and numerals: use a higher "
                "resolution or bring the camera closer"
            )
        scale = 1.0
        if not WORKING_RANGE[0] <= px_per_mm <= WORKING_RANGE[1]:
            scale = _working_scale(px_per_mm)
        picture_size = (int(empty.shape[1]), int(empty.shape[0]))
        if keystone is not None:  # the same homography on the resized picture
            resize = np.diag([scale, scale, 1.0])
            keystone = resize @ keystone @ np.linalg.inv(resize)
        size = _working_size(empty, scale)
        working = _to_working(empty, scale, size, keystone)
        return cls(
            working,
            floor * scale,
            px_per_mm * scale,
            camera_height_mm,
            scale,
            picture_size,
            floor_mm,
            keystone,
        )

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the working pictures."""
        return int(self.empty.shape[1]), int(self.empty.shape[0])

    @property
    def picture(self) -> tuple[int, int]:
        """(width, height) of the camera's pictures."""
        return self.picture_size or self.size

    def working(self, picture: Image, *, sharp: bool = True) -> Image:
        """A picture of the calibrated camera at the working scale. Rectifying a tilted
        camera's picture costs about 20 ms with ``sharp`` (cubic), 4 without (linear, OpenCV 5;
        10 on OpenCV 4.6: finding the implements at half size does as well, reading their
        numerals and pips worse)."""
        self._check_taken_by_it(picture)
        return _to_working(picture, self.scale, self.size, self.keystone, sharp=sharp)

    def _check_taken_by_it(self, picture: Image) -> None:
        """Refuses a picture of another size than the calibrated camera's."""
        width, height = picture.shape[1], picture.shape[0]
        if (width, height) != self.picture:
            expected = "x".join(str(v) for v in self.picture)
            raise CalibrationError(
                f"the picture is {width}x{height} but the tray was calibrated on "
                f"{expected} pictures: calibrate again with this camera"
            )

    def sharp_parts(self, picture: Image, boxes: Sequence[Box]) -> list[tuple[Box, Image]]:
        """The parts of the working picture within ``boxes`` (clipped to it), drawn sharp:
        what :meth:`working` gives for them with ``sharp`` (the same pixels), for a caller
        that rectified the whole picture fast and reads only these parts."""
        self._check_taken_by_it(picture)
        width, height = self.size
        clipped = [
            Box(max(b.x0, 0), max(b.y0, 0), min(b.x1, width), min(b.y1, height)) for b in boxes
        ]
        kept = [box for box in clipped if box.area > 0]
        if not kept:
            return []
        if self.keystone is None:
            whole = self.working(picture)
            return [(box, whole[box.y0 : box.y1, box.x0 : box.x1]) for box in kept]
        source, matrix = _warp_source(picture, self.scale, self.size, self.keystone)
        return [(box, _warped(source, _from_corner(box) @ matrix, _box_size(box))) for box in kept]

    def in_picture(self, box: Box) -> Box:
        """A box of the working picture where it lies in the camera's picture."""
        if self._unstraightening is not None:
            box = _box_moved(box, self._unstraightening)
        return box if self.scale == 1.0 else box.scaled(1.0 / self.scale)

    def to_picture(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Points (n, 2) of the working picture where they lie in the camera's picture:
        :meth:`working` undone, point for point (the resize's pixel centres, the rectifying
        homography)."""
        placed = np.asarray(points, np.float64)
        if self.keystone is not None and self.scale >= 1.0:  # warped from the picture itself
            enlarged = self.keystone @ np.diag([self.scale, self.scale, 1.0])
            return moved(placed, np.asarray(np.linalg.inv(enlarged), np.float64))
        if self._unstraightening is not None:
            placed = moved(placed, self._unstraightening)
        if self.scale == 1.0:
            return placed
        factor = _whole_factor(self.scale)
        if factor is not None:
            ratio = np.array([factor, factor], np.float64)
        else:
            ratio = np.asarray(self.picture, np.float64) / np.asarray(self.size, np.float64)
        return (placed + 0.5) * ratio - 0.5

    def in_working(self, box: Box) -> Box:
        """A box of the camera's picture where it lies in the working picture."""
        box = box if self.scale == 1.0 else box.scaled(self.scale)
        return box if self.keystone is None else _box_moved(box, self.keystone)

    @cached_property
    def empty_as_framed(self) -> Image:
        """The empty tray framed as the camera frames it (not rectified), at the working
        scale: for the settle check, which shrinks the camera's small stream and this to
        one small size (asked for after every reading: warped once)."""
        return _warped(self.empty, self._unstraightening)

    @cached_property
    def _unstraightening(self) -> NDArray[np.float64] | None:
        """The working picture back to the camera's framing (at the working scale)."""
        if self.keystone is None:
            return None
        return np.asarray(np.linalg.inv(self.keystone), np.float64)

    def knocked(self, motion: NDArray[np.float64]) -> Tray:
        """The tray as the camera sees it once knocked: ``motion`` (2 x 3, working pixels)
        takes each pixel of the empty tray's picture where it now lies (turned and moved,
        larger when the camera came nearer). What comes in at the border repeats it."""
        empty = cv2.warpAffine(
            self.empty, motion, self.size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE
        )
        floor = self.floor @ motion[:, :2].T.astype(np.float32) + motion[:, 2].astype(np.float32)
        larger = float(np.hypot(motion[0, 0], motion[1, 0]))
        return replace(
            self,
            empty=np.asarray(empty, np.uint8),
            floor=np.asarray(floor, np.float32),
            px_per_mm=self.px_per_mm * larger,
        )

    def lift(self, x: float, y: float, height_mm: float) -> tuple[float, float]:
        """How far (pixels) a point ``height_mm`` above the floor at (x, y) appears displaced.

        The lens stands above the floor's point ``below_lens`` (the picture's middle for a
        camera looking straight down): what is higher is nearer the lens and appears
        farther from that point. A die's top face is its footprint moved by this much; the
        sides seen are those facing that point.
        """
        below_x, below_y = self.below_lens
        factor = height_mm / max(1.0, self.camera_height_mm - height_mm)
        return (x - below_x) * factor, (y - below_y) * factor

    @cached_property
    def below_lens(self) -> tuple[float, float]:
        """Where the floor's point below the lens lies in the working picture: its middle
        for a camera looking straight down; for a tilted one, the vanishing point of
        vertical lines, from the floor's horizon (``keystone.point_below_lens``)."""
        if self.keystone is None:
            return self.size[0] / 2, self.size[1] / 2
        width, height = self.picture
        middle = (width / 2 * self.scale, height / 2 * self.scale)
        focal = self.px_per_mm * self.camera_height_mm
        below = point_below_lens(self.keystone, focal, middle)
        placed = moved(np.array([below]), self.keystone)[0]
        return float(placed[0]), float(placed[1])

    def save(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not cv2.imwrite(str(folder / "empty.png"), self.empty):
                raise OSError(f"{folder / 'empty.png'} cannot be written")
            (folder / "tray.json").write_text(json.dumps(self._record(), indent=2), "utf-8")
        except OSError as error:
            reason = error.strerror or str(error)
            message = f"the calibration cannot be written to {folder}: {reason}"
            raise CalibrationError(message) from None

    def _record(self) -> dict[str, object]:
        record: dict[str, object] = {
            "floor": self.floor.tolist(),
            "px_per_mm": self.px_per_mm,
            "camera_height_mm": self.camera_height_mm,
            "scale": self.scale,
            "picture_size": list(self.picture),
            "floor_mm": list(self.floor_mm),
        }
        if self.keystone is not None:
            record["keystone"] = self.keystone.tolist()
        if self.height_judged:
            record["camera_height_judged"] = True
        return record

    @classmethod
    def load(cls, folder: Path) -> Tray:
        try:
            record = json.loads((folder / "tray.json").read_text(encoding="utf-8"))
            if not isinstance(record, dict):
                raise TypeError("tray.json is not a JSON object")
            empty = read_image(folder / "empty.png")
            height = float(record.get("camera_height_mm", CAMERA_HEIGHT_MM))
            floor = np.asarray(record["floor"], np.float32)
            px_per_mm = float(record["px_per_mm"])
            _check_saved_floor(floor, px_per_mm, empty)
            floor_mm = floor_size(*(float(v) for v in record.get("floor_mm", FLOOR_MM)))
            if "scale" not in record:  # saved before the working scale: as the camera took it
                return cls.from_picture(empty, floor, px_per_mm, height, floor_mm)
            width, tall = record["picture_size"]
            picture = (int(width), int(tall))
            scale = float(record["scale"])
            keystone = record.get("keystone")
            if keystone is not None:
                size = (picture[0] * scale, picture[1] * scale)
                keystone = _checked_keystone(np.asarray(keystone, np.float64), size)
            judged = record.get("camera_height_judged") is True
            return cls(empty, floor, px_per_mm, height, scale, picture, floor_mm, keystone, judged)
        except KeyError as error:
            message = f"calibration in {folder} cannot be read: it lacks {error}"
            raise CalibrationError(message) from None
        except (OSError, ValueError, TypeError, CalibrationError) as error:
            raise CalibrationError(f"calibration in {folder} cannot be read: {error}") from None


def saved_camera_height(folder: Path) -> float | None:
    """The camera's height a saved calibration says (its pictures not read); None when
    it says none, or cannot be read (``Tray.load`` tells why)."""
    try:
        record = json.loads((folder / "tray.json").read_text(encoding="utf-8"))
        return lens_height(float(record["camera_height_mm"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _check_saved_floor(floor: Points, px_per_mm: float, empty: Image) -> None:
    """ValueError unless a saved floor is one calibration could have found in its empty
    tray's picture: a polygon of some size inside it, at a scale no smaller than needed."""
    height, width = empty.shape[:2]
    if floor.ndim != 2 or floor.shape[0] < 3 or floor.shape[1] != 2:
        raise ValueError("its floor is not a polygon")
    within = (floor >= -1) & (floor <= np.array([width, height], np.float32) + 1)
    if not within.all():  # NaN is within nothing
        raise ValueError("its floor is not inside its empty tray's picture")
    if cv2.contourArea(floor) < 0.2 * width * height:
        raise ValueError("its floor is too small a part of its empty tray's picture")
    if not (np.isfinite(px_per_mm) and px_per_mm >= MIN_PX_PER_MM):
        raise ValueError(f"its scale, {px_per_mm} px/mm, is not one calibration gives")


def _checked_keystone(
    matrix: NDArray[np.float64], size: tuple[float, float]
) -> NDArray[np.float64]:
    """A saved keystone, if it is one (else ValueError): an invertible homography (3 x 3)
    that takes the corners of a picture of ``size`` (width, height) to points, all on the
    lens's side. A corrupt one would warp every frame into nothing readable."""
    matrix = matrix.reshape(3, 3)
    width, height = size
    corners = np.array(
        [[0.0, 0.0, 1.0], [width, 0.0, 1.0], [0.0, height, 1.0], [width, height, 1.0]]
    )
    with np.errstate(all="ignore"):
        placed = corners @ matrix.T
        points = placed[:, :2] / placed[:, 2:]
    seen = np.isfinite(placed).all() and (placed[:, 2] > 0).all() and np.isfinite(points).all()
    if not seen or abs(float(np.linalg.det(matrix))) < 1e-9:
        raise ValueError("its keystone is no homography of the camera's pictures")
    return matrix


def read_image(path: Path) -> Image:
    if path.is_dir():
        raise CalibrationError(f"{path}: a folder, not an image (a folder of images: --source)")
    if not path.is_file():  # before OpenCV, which would also print a warning of its own
        raise CalibrationError(f"{path}: no such image file")
    data = path.read_bytes()
    if _cut_short_jpeg(data):
        raise CalibrationError(f"{path}: the image is cut short (an incomplete file)")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise CalibrationError(f"{path}: not an image that can be read")
    return np.asarray(image, np.uint8)


def _cut_short_jpeg(data: bytes) -> bool:
    """Whether ``data`` is a JPEG file that ends before its end marker: OpenCV decodes such
    a file, greying out what is missing (read as a hand over the tray, or calibrated as a
    tray of another size). The marker cannot occur inside the compressed picture data,
    which follows the last start-of-scan marker."""
    is_jpeg = data.startswith(b"\xff\xd8")
    return is_jpeg and data.rfind(b"\xff\xd9") < data.rfind(b"\xff\xda")


def lens_height(height_mm: float) -> float:
    """``height_mm``, or ValueError unless it is a camera height that can be told."""
    low, high = LENS_ABOVE_FELT_MM
    if not low <= height_mm <= high:
        raise ValueError(
            f"camera_height_mm {height_mm:g}: the lens is {low:g} to {high:g} mm above the felt"
        )
    return height_mm


def calibrate(
    empty: Image,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
    *,
    floor_mm: tuple[float, float] = FLOOR_MM,
) -> Tray:
    """Locate the floor of the tray, whose inside measures ``floor_mm``, in an image of the
    empty tray."""
    floor, outline = _floor_outline(empty)
    image_area = empty.shape[0] * empty.shape[1]
    if cv2.contourArea(floor) < 0.2 * image_area:
        raise CalibrationError("the tray's floor was not found: is the whole tray in view?")
    if _sides_cut(floor, empty.shape[1], empty.shape[0]) >= 3:
        raise CalibrationError(
            "the tray's walls were not found, the floor seems to fill the picture: is the "
            "whole tray in view, and the light on?"
        )
    corners = floor_corners(outline)
    keystone = None if corners is None else rectifying(corners)
    if keystone is not None:
        floor = moved(floor.astype(np.float64), keystone).astype(np.float32)
    (_, _), (w, h), _ = cv2.minAreaRect(floor)
    long_side, short_side = max(w, h), min(w, h)
    if short_side <= 0:
        raise CalibrationError("the tray's floor was not found: is the whole tray in view?")
    floor_mm = floor_size(*floor_mm)
    check_proportions(long_side, short_side, floor_mm)
    # The wall's shade can hide one side of the felt; the larger ratio is the trusted one.
    px_per_mm = max(long_side / floor_mm[0], short_side / floor_mm[1])
    return Tray.from_picture(empty, floor, float(px_per_mm), camera_height_mm, floor_mm, keystone)


def _sides_cut(floor: Points, width: int, height: int) -> int:
    """How many of the picture's sides the floor reaches: at three or four, no wall is seen
    across the floor in either direction (a picture of one colour, a dark one)."""
    x0, y0 = floor.min(axis=0)
    x1, y1 = floor.max(axis=0)
    reach = 2.0 / _FIND_SCALE  # the floor is found in a smaller picture
    return (
        int(x0 <= reach)
        + int(y0 <= reach)
        + int(x1 >= width - 1 - reach)
        + int(y1 >= height - 1 - reach)
    )


def floor_size(first_mm: float, second_mm: float) -> tuple[float, float]:
    """A tray's inside, long side first; CalibrationError for a size no tray has."""
    long_mm, short_mm = max(first_mm, second_mm), min(first_mm, second_mm)
    if not (FLOOR_SIZE_RANGE[0] <= short_mm and long_mm <= FLOOR_SIZE_RANGE[1]):
        raise CalibrationError(
            f"a tray floor of {long_mm:g} x {short_mm:g} mm: each side is "
            f"{FLOOR_SIZE_RANGE[0]:g} to {FLOOR_SIZE_RANGE[1]:g} mm"
        )
    return long_mm, short_mm


def check_proportions(long_px: float, short_px: float, floor_mm: tuple[float, float]) -> None:
    """CalibrationError when the floor seen is not of the tray's proportions."""
    seen, told = long_px / short_px, floor_mm[0] / floor_mm[1]
    if max(seen / told, told / seen) > FLOOR_PROPORTION_SLACK:
        raise CalibrationError(
            f"the floor seen is {seen:.2f} times as long as wide, a tray of "
            f"{floor_mm[0]:g} x {floor_mm[1]:g} mm {told:.2f} times: give the tray's inside "
            "size (--floor-mm, or floor_mm in the configuration's [camera]), or check that "
            "the whole floor is in view and evenly lit"
        )


def things_left_on_floor(tray: Tray) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, working pixels) of what lies on the floor of a tray that
    should be empty: patches unlike the felt of at least a d6's top face. The walls' shade
    along the floor's edge and the corners (printed marker cards) are not looked at."""
    mask = _felt_mask(tray.empty)
    scale = tray.px_per_mm * _FIND_SCALE
    floor = np.zeros_like(mask)
    cv2.fillConvexPoly(floor, np.round(tray.floor * _FIND_SCALE).astype(np.int32), 1)
    margin = max(1, round(_WALL_MARGIN_MM * scale))
    floor = np.asarray(cv2.erode(floor, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)))
    unlike = ((mask == 0) & (floor == 1)).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(unlike)
    corners = cv2.boxPoints(cv2.minAreaRect(tray.floor))
    boxes: list[tuple[int, int, int, int]] = []
    for index in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[index])
        centre = centres[index] / _FIND_SCALE
        near_corner = np.min(np.hypot(*(corners - centre).T)) < _CORNER_MM * tray.px_per_mm
        if area >= _LEFT_ON_FLOOR_MM2 * scale**2 and not near_corner:
            x0, y0, x1, y1 = (round(v / _FIND_SCALE) for v in (x, y, x + w, y + h))
            boxes.append((x0, y0, x1, y1))
    return boxes


def require_empty(tray: Tray) -> Tray:
    """The tray, or CalibrationError when something lies on its floor."""
    boxes = things_left_on_floor(tray)
    if boxes:
        x0, y0, x1, y1 = boxes[0]
        x, y = ((x0 + x1) / 2 / tray.scale, (y0 + y1) / 2 / tray.scale)
        where = f"around ({x:.0f}, {y:.0f}) in the picture"
        raise CalibrationError(
            f"the tray is not empty: something lies on the floor {where}; "
            "take it away and calibrate again"
        )
    return tray


def _to_working(
    picture: Image,
    scale: float,
    size: tuple[int, int],
    keystone: NDArray[np.float64] | None,
    *,
    sharp: bool = True,
) -> Image:
    """A camera's picture resized to the working scale and rectified (see
    :func:`_warp_source`)."""
    if keystone is None:
        return _resized(picture, scale, size)
    source, matrix = _warp_source(picture, scale, size, keystone)
    return _warped(source, matrix, size, sharp=sharp)


def _warp_source(
    picture: Image, scale: float, size: tuple[int, int], keystone: NDArray[np.float64]
) -> tuple[Image, NDArray[np.float64]]:
    """What to warp, and by which homography, to rectify a picture at the working scale: the
    picture itself when it is enlarged (one warp, as a resize before it costs 3-4 ms more on
    one core), else the picture averaged down first."""
    if scale < 1.0:
        return _resized(picture, scale, size), keystone
    return picture, keystone @ np.diag([scale, scale, 1.0])


def _from_corner(box: Box) -> NDArray[np.float64]:
    """The translation that takes the box's top left corner to (0, 0)."""
    return np.array([[1.0, 0.0, -box.x0], [0.0, 1.0, -box.y0], [0.0, 0.0, 1.0]])


def _box_size(box: Box) -> tuple[int, int]:
    return box.x1 - box.x0, box.y1 - box.y0


def _warped(
    picture: Image,
    matrix: NDArray[np.float64] | None,
    size: tuple[int, int] | None = None,
    *,
    sharp: bool = True,
) -> Image:
    """The picture moved by the homography ``matrix`` (None: as it is), of ``size`` (width,
    height; None: its own), interpolated cubic when ``sharp``, else linear."""
    if matrix is None:
        return picture
    size = size or (int(picture.shape[1]), int(picture.shape[0]))
    if sharp:
        return _warped_as_is(picture, matrix, size, cv2.INTER_CUBIC)
    if picture.ndim == 3 and picture.shape[2] == 3:
        # OpenCV's linear warp is vectorised for four channels, not for three: a 1561x1171
        # working picture in 4 ms instead of 10 on one core (OpenCV 5; 4.6: 10 and 11.5),
        # the same pixels; the fourth channel costs 0.3 ms.
        four = np.asarray(cv2.cvtColor(picture, cv2.COLOR_BGR2BGRA), np.uint8)
        warped = _warped_as_is(four, matrix, size, cv2.INTER_LINEAR)
        return np.asarray(cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR), np.uint8)
    return _warped_as_is(picture, matrix, size, cv2.INTER_LINEAR)


def _warped_as_is(
    picture: Image, matrix: NDArray[np.float64], size: tuple[int, int], interpolation: int
) -> Image:
    warped = cv2.warpPerspective(
        picture, matrix, size, flags=interpolation, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(warped, np.uint8)


def _box_moved(box: Box, matrix: NDArray[np.float64]) -> Box:
    """The box around where the homography ``matrix`` takes the corners of ``box``."""
    corners = np.array(
        [[box.x0, box.y0], [box.x1, box.y0], [box.x0, box.y1], [box.x1, box.y1]], np.float64
    )
    placed = moved(corners, matrix)
    low, high = np.floor(placed.min(axis=0)), np.ceil(placed.max(axis=0))
    return Box(int(low[0]), int(low[1]), int(high[0]), int(high[1]))


def _working_scale(px_per_mm: float) -> float:
    """Working pixels per picture pixel for a picture of ``px_per_mm``: a whole fraction
    (a half, a third, a quarter) where that lands in the working range, as resizing by a
    whole factor averages blocks of pixels: 1.4 ms for a 2400x1800 picture on one core, 21
    ms at 0.494."""
    for factor in (2, 3, 4):
        if WORKING_RANGE[0] <= px_per_mm / factor <= WORKING_RANGE[1]:
            return 1.0 / factor
    return WORKING_PX_PER_MM / px_per_mm


def _whole_factor(scale: float) -> int | None:
    """The whole factor a picture is shrunk by at ``scale``, None for any other scale."""
    factor = round(1.0 / scale)
    return factor if factor >= 2 and abs(factor * scale - 1.0) < 1e-9 else None


def _working_size(picture: Image, scale: float) -> tuple[int, int]:
    """(width, height) of the picture at ``scale``: by a whole factor, the whole blocks of
    pixels it holds (a last odd column or row is left out)."""
    height, width = picture.shape[:2]
    factor = _whole_factor(scale)
    if factor is not None:
        return width // factor, height // factor
    return round(width * scale), round(height * scale)


def _resized(picture: Image, scale: float, size: tuple[int, int] | None = None) -> Image:
    if scale == 1.0:
        return picture
    size = size or _working_size(picture, scale)
    factor = _whole_factor(scale)
    if factor is not None:
        picture = picture[: size[1] * factor, : size[0] * factor]
    smoothing = cv2.INTER_AREA if scale < MILD_SHRINK else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(picture, size, interpolation=smoothing), np.uint8)


def _felt_mask(empty: Image) -> NDArray[np.uint8]:
    """At a quarter size: 255 where the picture has the colour of the felt at its centre."""
    small = cv2.resize(empty, None, fx=_FIND_SCALE, fy=_FIND_SCALE, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    felt = np.median(lab[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3].reshape(-1, 3), axis=0)
    difference = lab - felt
    # Lightness counts half: vignetting and the walls' shade darken the felt near the edges.
    distance = np.sqrt(0.25 * difference[..., 0] ** 2 + (difference[..., 1:] ** 2).sum(axis=2))
    scaled = np.clip(distance * 4, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))


def _floor_outline(empty: Image) -> tuple[Points, NDArray[np.float64]]:
    """The floor's convex hull, and every pixel of its outline (for its sides' lines), in
    the picture's pixels."""
    mask = _felt_mask(empty)
    h, w = mask.shape[:2]
    _, labels = cv2.connectedComponents(mask)
    centre_label = labels[h // 2, w // 2]
    if centre_label == 0:
        raise CalibrationError("the centre of the picture is not the tray's floor")
    region = (labels == centre_label).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    largest = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(largest)
    outline = largest.reshape(-1, 2).astype(np.float64) / _FIND_SCALE
    return np.asarray(hull.reshape(-1, 2), np.float32) / _FIND_SCALE, outline
