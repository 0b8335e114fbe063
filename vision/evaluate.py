"""Measuring the reader on a labelled folder: correct readings, refusals and silent errors,
per scene and per implement, a confusion table per kind, and a picture of every mistake."""

from __future__ import annotations

from collections import Counter, OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Generic, TypeVar

import cv2

from vision.dataset import Scene, TruthObject
from vision.errors import CalibrationError
from vision.font import FAMILIAR_LEVEL, FontInPlay, refused_for_font
from vision.observation import Implement, Kind, Observation
from vision.profile import Profile
from vision.reader import Reader
from vision.tray import CAMERA_HEIGHT_MM, FLOOR_MM, Image, Tray, read_image

OBJECT_MATCH_IOU = 0.3
CORRECT, REFUSED, WRONG = "correct", "refused", "wrong"
# Trays (calibrated, and their readers) kept for the scenes still to read. A folder's scenes
# share a few trays or have one each (the development set's format): kept all, at some
# 12 MB a tray and its reader, 800 generated scenes took 9 GB.
KEPT_TRAYS = 4

ReadFunction = Callable[[Image, Tray, Scene], Observation]

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class Recent(Generic[Key, Value]):
    """The values last asked for, made once per key while kept: the ``size`` most recently
    used are kept, older ones let go."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"keeps at least one value, not {size}")
        self.size = size
        self._kept: OrderedDict[Key, Value] = OrderedDict()

    def get(self, key: Key, make: Callable[[], Value]) -> Value:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        value = self._kept[key] = make()
        if len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._kept)


class TrayReaders:
    """A :data:`ReadFunction` reading each scene with a :class:`Reader` of its tray, made
    once per tray while that tray is among the ``kept`` last read.

    The scenes are taken as pictures of one set of implements (one folder: a reader of
    another folder is another ``TrayReaders``): ``d4_font``, the font of their d4s, is told
    by every d4 the reading rules read and judged once all are read (see :func:`evaluate`).
    With ``each_alone`` there is none: every d4 is judged by its own numerals alone."""

    def __init__(
        self,
        profile: Profile,
        *,
        kept: int = KEPT_TRAYS,
        detail_numerals: bool = False,
        each_alone: bool = False,
    ) -> None:
        self.profile = profile
        self.detail_numerals = detail_numerals  # see Reader
        self.d4_font = None if each_alone else FontInPlay.of_pictures()
        # By the tray's identity: a kept reader holds its tray, so no other tray has its id.
        self.readers: Recent[int, Reader] = Recent(kept)

    def __call__(self, frame: Image, tray: Tray, scene: Scene) -> Observation:
        reader = self.readers.get(id(tray), partial(self._reader, tray))
        return reader.read(frame, scene.kit)

    def _reader(self, tray: Tray) -> Reader:
        return Reader(
            tray,
            self.profile,
            detail_numerals=self.detail_numerals,
            d4_font_of_pictures=self.d4_font,
        )


@dataclass
class Report:
    scenes: Counter[tuple[str, str]] = field(default_factory=Counter)  # (expect, outcome)
    objects: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, outcome)
    confusion: dict[str, Counter[tuple[str, str]]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    reasons: Counter[str] = field(default_factory=Counter)
    mistakes: list[str] = field(default_factory=list)
    pictures: int = 0  # of mistakes drawn (not those whose tray could not be calibrated)
    # How well the numerals of the d4s read fit the glyphs (the median; None: not judged,
    # each read alone or too few read), and whether that is a font they do not know (its
    # d4s then refused).
    d4_familiarity: float | None = None
    d4_font_unknown: bool = False

    @property
    def object_count(self) -> int:
        return sum(self.objects.values())

    @property
    def silent_errors(self) -> int:
        return sum(n for (_, outcome), n in self.objects.items() if outcome == WRONG)

    def rate(self, expect: str, outcome: str) -> float:
        total = sum(n for (e, _), n in self.scenes.items() if e == expect)
        return self.scenes[(expect, outcome)] / total if total else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "objects": self.object_count,
            "silent_errors": self.silent_errors,
            "silent_error_rate": self.silent_errors / max(1, self.object_count),
            "clean_refused": self.rate("read", REFUSED),
            "clean_wrong": self.rate("read", WRONG),
            "must_refuse_refused": self.rate("refuse", REFUSED),
            "scenes": {f"{e}/{o}": n for (e, o), n in sorted(self.scenes.items())},
            "per_kind": {f"{k}/{o}": n for (k, o), n in sorted(self.objects.items())},
            "refusal_reasons": dict(self.reasons.most_common()),
            "confusion": {
                kind: {f"{t} -> {r}": n for (t, r), n in sorted(table.items())}
                for kind, table in sorted(self.confusion.items())
            },
            "mistakes": self.mistakes,
            "d4_familiarity": self.d4_familiarity,
            "d4_font_unknown": self.d4_font_unknown,
        }

    def text(self) -> str:
        lines = [
            f"objects: {self.object_count}, silent errors: {self.silent_errors} "
            f"({self.silent_errors / max(1, self.object_count):.2%}; target at most 0.1%)",
            f"clean throws refused: {self.rate('read', REFUSED):.1%} (target at most 2%), "
            f"read wrongly: {self.rate('read', WRONG):.1%}",
            f"throws to refuse that were refused: {self.rate('refuse', REFUSED):.1%} "
            "(target at least 98%)",
            "scenes: " + ", ".join(f"{e}/{o} {n}" for (e, o), n in sorted(self.scenes.items())),
            "per kind (objects):",
        ]
        kinds = sorted({k for k, _ in self.objects})
        for kind in kinds:
            row = {o: self.objects[(kind, o)] for o in (CORRECT, REFUSED, WRONG)}
            lines.append(f"  {kind:<6} " + ", ".join(f"{o} {n}" for o, n in row.items()))
        lines.append("refusal reasons: " + ", ".join(f"{r} {n}" for r, n in self.reasons.items()))
        for kind, table in sorted(self.confusion.items()):
            lines.append(f"confusion {kind} (truth -> read):")
            lines.extend(f"  {t:>5} -> {r:<8} {n}" for (t, r), n in sorted(table.items()))
        if self.d4_familiarity is not None:
            verdict = (
                "a font the profile does not know: every numbered d4 refused, enrol the d4"
                if self.d4_font_unknown
                else "a font the profile knows"
            )
            lines.append(
                f"d4 numerals: they fit the profile's glyphs by {self.d4_familiarity:.2f} "
                f"in the median (at least {FAMILIAR_LEVEL:.2f} for a known font): {verdict}"
            )
        return "\n".join(lines)


def evaluate(
    scenes: Iterable[Scene],
    read: ReadFunction,
    mistakes_folder: Path | None = None,
    *,
    floor_mm: tuple[float, float] = FLOOR_MM,
    camera_height_mm: float = CAMERA_HEIGHT_MM,
    d4_font: FontInPlay | None = None,
) -> Report:
    """Every scene read and scored; a scene's tray is calibrated as of the size and the
    camera's height its labels give, else ``floor_mm`` and ``camera_height_mm``. A tray
    that cannot be calibrated refuses its scenes (reason ``calibration``): the device
    would refuse to read them too.

    ``d4_font``: told by ``read`` of every d4 it reads (by default, a ``TrayReaders``'s);
    once every scene is read, the numbered d4s of a font it finds unknown are refused, as a
    game's reader refuses them (``vision.font``). The scenes are scored after all are read:
    what is kept of each meanwhile is its observation, or why its tray could not be
    calibrated (a message: an error would keep its picture, through its traceback)."""
    if d4_font is None and isinstance(read, TrayReaders):
        d4_font = read.d4_font
    report = Report()
    trays: Recent[Path, Tray | CalibrationError] = Recent(KEPT_TRAYS)
    read_scenes: list[tuple[Scene, Observation | str]] = []
    for scene in scenes:
        tray = trays.get(scene.tray, partial(_calibrated, scene, floor_mm, camera_height_mm))
        if isinstance(tray, CalibrationError):
            read_scenes.append((scene, str(tray)))
            continue
        read_scenes.append((scene, read(read_image(scene.image), tray, scene)))
    if d4_font is not None and d4_font.judged:
        report.d4_familiarity, report.d4_font_unknown = d4_font.familiarity, d4_font.unknown
    for scene, read_scene in read_scenes:
        if isinstance(read_scene, str):
            _uncalibrated(scene, read_scene, report)
            continue
        observation = read_scene if d4_font is None else refused_for_font(read_scene, d4_font)
        outcome = _score_scene(scene, observation, report)
        report.scenes[(scene.expect, outcome)] += 1
        for refusal in observation.refusals:
            report.reasons[refusal.reason.value] += 1
        mistaken = outcome == WRONG or (scene.expect == "read" and outcome == REFUSED)
        if mistaken:
            report.mistakes.append(f"{scene.image.name}: {scene.expect}, {outcome}")
            if mistakes_folder is not None:
                picture = read_image(scene.image)
                _draw_mistake(picture, scene, observation, mistakes_folder / scene.image.name)
                report.pictures += 1
    return report


def _calibrated(
    scene: Scene, floor_mm: tuple[float, float], camera_height_mm: float
) -> Tray | CalibrationError:
    try:
        return scene.calibrated(floor_mm, camera_height_mm)
    except CalibrationError as error:
        return error


def _uncalibrated(scene: Scene, error: str, report: Report) -> None:
    report.scenes[(scene.expect, _refused(scene, report))] += 1
    report.reasons["calibration"] += 1
    if scene.expect == "read":
        report.mistakes.append(f"{scene.image.name}: read, refused (calibration: {error})")


def _refused(scene: Scene, report: Report) -> str:
    for truth in scene.objects:
        report.objects[(truth.kind.value, REFUSED)] += 1
        report.confusion[truth.kind.value][(_truth_label(truth), REFUSED)] += 1
    return REFUSED


def _score_scene(scene: Scene, observation: Observation, report: Report) -> str:
    if observation.refused:
        return _refused(scene, report)
    matched: set[int] = set()
    all_right = scene.expect != "refuse"
    for truth in scene.objects:
        found = _match(truth, observation.implements, matched)
        shown = found.shown if found is not None else "missed"
        right = found is not None and _agrees(truth, found)
        all_right &= right
        report.objects[(truth.kind.value, CORRECT if right else WRONG)] += 1
        report.confusion[truth.kind.value][(_truth_label(truth), shown)] += 1
    for index, item in enumerate(observation.implements):
        if index not in matched:
            all_right = False
            report.objects[(item.kind.value, WRONG)] += 1
            report.confusion[item.kind.value][("none", item.shown)] += 1
    return CORRECT if all_right else WRONG


def _truth_label(truth: TruthObject) -> str:
    return truth.face if truth.face is not None else str(truth.value)


def _match(truth: TruthObject, items: tuple[Implement, ...], used: set[int]) -> Implement | None:
    best, best_iou = -1, OBJECT_MATCH_IOU
    for index, item in enumerate(items):
        iou = truth.box.iou(item.box)
        if index not in used and item.kind is truth.kind and iou >= best_iou:
            best, best_iou = index, iou
    if best < 0:
        return None
    used.add(best)
    return items[best]


def _agrees(truth: TruthObject, item: Implement) -> bool:
    if truth.kind is Kind.YESNO:
        return {"M": "yes", "P": "no"}.get(truth.face or "") == item.face
    if truth.kind is Kind.STICK or truth.value is None:  # sticks, binary d4s
        return truth.face == item.face
    return truth.value == item.value


def _draw_mistake(frame: Image, scene: Scene, observation: Observation, path: Path) -> None:
    picture = frame.copy()
    for truth in scene.objects:
        b = truth.box
        cv2.rectangle(picture, (b.x0, b.y0), (b.x1, b.y1), (255, 255, 0), 1)
    for item in observation.implements:
        b = item.box
        cv2.rectangle(picture, (b.x0, b.y0), (b.x1, b.y1), (0, 255, 0), 2)
        label = f"{item.kind.value} {item.shown} {item.confidence:.2f}"
        cv2.putText(picture, label, (b.x0, max(12, b.y0 - 4)), 0, 0.5, (0, 255, 0), 1)
    for refusal in observation.refusals:
        if refusal.box is not None:
            b = refusal.box
            cv2.rectangle(picture, (b.x0, b.y0), (b.x1, b.y1), (0, 0, 255), 2)
            cv2.putText(picture, refusal.reason.value, (b.x0, b.y1 + 14), 0, 0.5, (0, 0, 255), 1)
    header = f"expect {scene.expect} {','.join(scene.reasons)} | {observation.summary()}"
    _draw_headline(picture, header)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path.with_suffix(".png")), picture)


def _draw_headline(picture: Image, text: str) -> None:
    """White text on a black band across the top, wrapped to the picture's width.

    Drawn once: an outline made by drawing the text twice with two thicknesses does not
    line up, since OpenCV widens each letter's advance with the stroke.
    """
    font, scale, margin = cv2.FONT_HERSHEY_SIMPLEX, 0.5, 6
    (_, line_height), baseline = cv2.getTextSize("Ag", font, scale, 1)
    step = line_height + baseline + 4
    lines = _wrapped(text, picture.shape[1] - 2 * margin, font, scale)
    cv2.rectangle(picture, (0, 0), (picture.shape[1], step * len(lines) + 4), (0, 0, 0), -1)
    for row, line in enumerate(lines):
        origin = (margin, step * (row + 1) - baseline)
        cv2.putText(picture, line, origin, font, scale, (255, 255, 255), 1, cv2.LINE_AA)


def _wrapped(text: str, width: int, font: int, scale: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(candidate, font, scale, 1)[0][0] <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines or [""]
