"""Labelled folders in the format of the development set (see its README): one JSON object
per line of ``labels.jsonl`` naming the image, the empty tray, the kit and the objects."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.errors import LabelsError, VisionError
from vision.features import face_features, stick_strip
from vision.kit import Kit, kit_named
from vision.numerals import DieNumerals, Glyph, die_numerals, learn_glyphs
from vision.observation import Box, Kind
from vision.profile import Example
from vision.segment import Segmenter
from vision.shapes import Shape, classify
from vision.tetra import fit_tetra
from vision.tray import Image, Tray, calibrate, read_image

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
    return scenes


def _scene(folder: Path, record: dict[str, object]) -> Scene:
    objects = tuple(
        TruthObject(
            Kind(str(o["kind"])),
            Box(*(int(v) for v in o["bbox"])),
            str(o["face"]) if "face" in o else None,
            int(o["value"]) if "value" in o else None,
        )
        for o in record["objects"]  # type: ignore[attr-defined]
    )
    reasons = record.get("reasons", [])
    return Scene(
        folder / str(record["image"]),
        folder / str(record["tray"]),
        kit_named(str(record["kit"])),
        str(record.get("design", "")),
        str(record["expect"]),
        tuple(str(r) for r in reasons),  # type: ignore[attr-defined]
        objects,
    )


def enrolment_examples(scenes: list[Scene]) -> Iterator[Example]:
    """Faces of flat sticks and yes/no sticks in labelled scenes, as enrolment examples."""
    for scene in scenes:
        frame = read_image(scene.image)
        tray = calibrate(read_image(scene.tray))
        yield from _examples_in(frame, Segmenter(tray), tray.px_per_mm, scene)


def _examples_in(
    frame: Image, segmenter: Segmenter, px_per_mm: float, scene: Scene
) -> Iterator[Example]:
    for blob in segmenter.foreground(frame).blobs:
        call = classify(blob)
        if call.shape is not Shape.FLAT or call.kind not in (Kind.STICK, Kind.YESNO):
            continue
        truth = max(scene.objects, key=lambda o: o.box.iou(blob.box), default=None)
        if truth is None or truth.box.iou(blob.box) < MATCH_IOU or truth.kind is not call.kind:
            continue
        if truth.face in ("M", "P"):
            features = face_features(stick_strip(frame, blob, px_per_mm))
            yield Example(truth.kind, truth.face, scene.design, features)


def enrolment_glyphs(scenes: list[Scene], look: str = "enrolled") -> tuple[Glyph, ...]:
    """Glyphs of the d4's numerals, learned from every flat d4 of labelled scenes."""
    return learn_glyphs(list(labelled_d4s(scenes)), look)


def generated_d4s(count: int, seed: int = 0) -> Iterator[tuple[int, DieNumerals]]:
    """The numerals of generated d4s (``vision.synthetic``), with their values: glyphs of
    a plain sans-serif font, for a profile that reads common d4s before any enrolment."""
    from vision.synthetic import scene

    for index in range(count):
        made = scene(seed * 100_003 + index, "ur-nostick")
        (truth,) = made.objects
        tray = calibrate(made.empty)
        yield from _d4s_in(made.frame, tray, [(Box(*truth["bbox"]), int(truth["value"]))])


def d4s_in(frame: Image, tray: Tray) -> Iterator[DieNumerals]:
    """The numerals of every d4 lying flat in a frame."""
    for blob in Segmenter(tray).foreground(frame).blobs:
        call = classify(blob)
        if call.shape is Shape.FLAT and call.kind is Kind.D4:
            yield die_numerals(frame, fit_tetra(frame, blob, tray))


def _d4s_in(
    frame: Image, tray: Tray, truths: list[tuple[Box, int]]
) -> Iterator[tuple[int, DieNumerals]]:
    for blob in Segmenter(tray).foreground(frame).blobs:
        box, value = max(truths, key=lambda truth: truth[0].iou(blob.box))
        if box.iou(blob.box) < MATCH_IOU or classify(blob).kind is not Kind.D4:
            continue
        yield value, die_numerals(frame, fit_tetra(frame, blob, tray))


def labelled_d4s(scenes: list[Scene]) -> Iterator[tuple[int, DieNumerals]]:
    """The numerals of every flat d4 in labelled scenes, with its value."""
    for scene in scenes:
        truths = [(o.box, o.value) for o in scene.objects if o.kind is Kind.D4 and o.value]
        if truths:
            frame = read_image(scene.image)
            yield from _d4s_in(frame, calibrate(read_image(scene.tray)), truths)
