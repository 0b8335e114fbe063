"""Labelled folders in the format of the development set (see its README): one JSON object
per line of ``labels.jsonl`` naming the image, the empty tray, the kit and the objects."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.errors import LabelsError, VisionError
from vision.features import face_features, stick_strip
from vision.kit import Kit, kit_named
from vision.numerals import DieNumerals, Glyph, die_numerals, learn_glyphs
from vision.observation import Box, Kind
from vision.profile import Example
from vision.segment import Blob, Foreground, Segmenter
from vision.shapes import Shape, classify
from vision.tetra import fit_tetra, numeral_view
from vision.tray import (
    CAMERA_HEIGHT_MM,
    FLOOR_MM,
    Image,
    Tray,
    calibrate,
    floor_size,
    lens_height,
    read_image,
)

MATCH_IOU = 0.5


@dataclass(frozen=True, slots=True)
class TruthObject:
    kind: Kind
    box: Box
    face: str | None  # sticks: M, P or edge
    value: int | None  # dice


@dataclass(frozen=True, slots=True)
class Scene:
    image: Path
    tray: Path
    kit: Kit
    design: str
    expect: str  # read, either, refuse
    reasons: tuple[str, ...]
    objects: tuple[TruthObject, ...]
    floor_mm: tuple[float, float] | None = None  # the tray's inside, when the labels say
    camera_height_mm: float | None = None  # the lens above the felt, when the labels say

    def calibrated(
        self, floor_mm: tuple[float, float] = FLOOR_MM, camera_height_mm: float = CAMERA_HEIGHT_MM
    ) -> Tray:
        """The scene's empty tray, of the labels' size and camera height, or else
        ``floor_mm`` and ``camera_height_mm``."""
        above = self.camera_height_mm or camera_height_mm
        return calibrate(read_image(self.tray), above, floor_mm=self.floor_mm or floor_mm)


def load_scenes(folder: Path) -> list[Scene]:
    labels = folder / "labels.jsonl"
    try:
        lines = labels.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise LabelsError(f"{labels}: {error.strerror}") from None
    scenes = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            scenes.append(_scene(folder, json.loads(line)))
        except (ValueError, KeyError, TypeError, AttributeError, VisionError) as error:
            shown = f"no {error}" if isinstance(error, KeyError) else str(error)
            raise LabelsError(f"{labels}, line {number}: {shown}") from None
    if not scenes:
        raise LabelsError(f"{labels}: no labelled scene")
    return scenes


EXPECTS = ("read", "either", "refuse")


def _scene(folder: Path, record: object) -> Scene:
    """A scene from one line's record; a record that is not an object, an unknown
    ``expect`` or a missing picture is named (a missing tray or image would otherwise be
    counted as a refusal, a mistaken ``expect`` as a silent error)."""
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    scene = _scene_from_fields(folder, record)
    if scene.expect not in EXPECTS:
        raise ValueError(f"expect {scene.expect!r}: one of {', '.join(EXPECTS)}")
    for picture in (scene.image, scene.tray):
        if not picture.is_file():
            raise ValueError(f"{picture}: no such image file")
    return scene


def _scene_from_fields(folder: Path, record: dict[str, object]) -> Scene:
    objects = tuple(
        TruthObject(
            _kind(str(o["kind"])),
            Box(*(int(v) for v in o["bbox"])),
            str(o["face"]) if "face" in o else None,
            int(o["value"]) if "value" in o else None,
        )
        for o in record["objects"]  # type: ignore[attr-defined]
    )
    reasons = record.get("reasons", [])
    floor = record.get("floor_mm")
    floor_mm = None if floor is None else floor_size(*(float(v) for v in floor))  # type: ignore[attr-defined]
    height = record.get("camera_height_mm")
    camera_height_mm = None if height is None else lens_height(float(height))  # type: ignore[arg-type]
    return Scene(
        folder / str(record["image"]),
        folder / str(record["tray"]),
        kit_named(str(record["kit"])),
        str(record.get("design", "")),
        str(record["expect"]),
        tuple(str(r) for r in reasons),  # type: ignore[attr-defined]
        objects,
        floor_mm,
        camera_height_mm,
    )


def _kind(name: str) -> Kind:
    try:
        return Kind(name)
    except ValueError:
        known = ", ".join(kind.value for kind in Kind)
        raise ValueError(f"kind {name!r}: one of {known}") from None


@dataclass(frozen=True, slots=True)
class Enrolment:
    """What labelled scenes teach: faces of flat sticks and yes/no sticks, and the numerals
    of flat d4s with their values."""

    examples: tuple[Example, ...]
    d4s: tuple[tuple[int, DieNumerals], ...]

    def glyphs(self, look: str = "enrolled") -> tuple[Glyph, ...]:
        return learn_glyphs(list(self.d4s), look)


def labelled_enrolment(scenes: list[Scene], *, detail_numerals: bool = False) -> Enrolment:
    """Stick faces and d4 numerals of labelled scenes; each scene's tray is calibrated and
    its picture segmented once for both. ``detail_numerals``: the numerals learned where a
    reader with that option reads them (``Reader``)."""
    examples: list[Example] = []
    d4s: list[tuple[int, DieNumerals]] = []
    for scene in scenes:
        tray = scene.calibrated()
        picture = read_image(scene.image)
        foreground = Segmenter(tray).foreground(picture)
        frame, blobs = foreground.frame, foreground.blobs  # read as the reader sees it
        labelled = [(_as_read(o.box, tray, foreground), o) for o in scene.objects]
        examples += _examples_in(frame, blobs, tray, labelled, scene.design)
        truths = [(box, o.value) for box, o in labelled if o.kind is Kind.D4 and o.value]
        d4s += _labelled_d4s(picture, foreground, tray, truths, detail_numerals)
    return Enrolment(tuple(examples), tuple(d4s))


def _as_read(box: Box, tray: Tray, foreground: Foreground) -> Box:
    """A labelled box (the picture's pixels) where the reader sees it: at the working
    scale and rectified, on the frame moved back onto the empty tray."""
    dx, dy = foreground.shift
    return tray.in_working(box).moved(-dx, -dy)


def _examples_in(
    frame: Image,
    blobs: Iterable[Blob],
    tray: Tray,
    labelled: list[tuple[Box, TruthObject]],
    design: str,
) -> Iterator[Example]:
    for blob in blobs:
        call = classify(blob)
        if call.shape is not Shape.FLAT or call.kind not in (Kind.STICK, Kind.YESNO):
            continue
        box, truth = max(labelled, key=lambda t: t[0].iou(blob.box), default=(None, None))
        if box is None or truth is None or box.iou(blob.box) < MATCH_IOU:
            continue
        if truth.kind is call.kind and truth.face in ("M", "P"):
            features = face_features(stick_strip(frame, blob, tray.px_per_mm))
            yield Example(truth.kind, truth.face, design, features)


def generated_d4s(count: int, seed: int = 0) -> Iterator[tuple[int, DieNumerals]]:
    """The numerals of generated d4s (``vision.synthetic``), with their values: glyphs of
    a plain sans-serif font, for a profile that reads common d4s before any enrolment."""
    from vision.synthetic import scene

    for index in range(count):
        made = scene(seed * 100_003 + index, "ur-nostick")
        (truth,) = made.objects
        tray = calibrate(made.empty)
        foreground = Segmenter(tray).foreground(made.frame)
        yield from _labelled_d4s(
            made.frame,
            foreground,
            tray,
            [(_as_read(Box(*truth["bbox"]), tray, foreground), int(truth["value"]))],
            detail=False,
        )


def d4s_in(picture: Image, tray: Tray, *, detail_numerals: bool = False) -> Iterator[DieNumerals]:
    """The numerals of every d4 lying flat in a picture, read where a reader with the same
    ``detail_numerals`` reads them."""
    foreground = Segmenter(tray).foreground(picture)
    for blob in _flat_d4s(foreground.blobs):
        yield _numerals(picture, foreground, tray, blob, detail_numerals)


def _labelled_d4s(
    picture: Image,
    foreground: Foreground,
    tray: Tray,
    truths: list[tuple[Box, int]],
    detail: bool,
) -> Iterator[tuple[int, DieNumerals]]:
    """The numerals of the flat d4s that match a labelled die, with its value."""
    if not truths:
        return
    for blob in _flat_d4s(foreground.blobs):
        box, value = max(truths, key=lambda truth: truth[0].iou(blob.box))
        if box.iou(blob.box) >= MATCH_IOU:
            yield value, _numerals(picture, foreground, tray, blob, detail)


def _numerals(
    picture: Image, foreground: Foreground, tray: Tray, blob: Blob, detail: bool
) -> DieNumerals:
    tetra = fit_tetra(foreground.frame, blob, tray)
    if not detail:
        return die_numerals(foreground.frame, tetra)
    return die_numerals(*numeral_view(picture, foreground, tray, tetra))


def _flat_d4s(blobs: Iterable[Blob]) -> Iterator[Blob]:
    return (blob for blob in blobs if classify(blob).kind is Kind.D4)
