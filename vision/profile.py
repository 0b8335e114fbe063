"""Profiles: how the faces of one set of implements look, learned by enrolment.

Each face (a stick's marked or plain face, the yes/no stick's two faces) has one or more
prototypes: the mean and spread of its features over the examples shown. A face is read
when the nearest face is close and clearly nearer than the other one; a face near neither
looks like no set the profile knows (one to enrol), and one about as near to both is
unclear.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.errors import ProfileError
from vision.features import FACE_FEATURES, FaceFeatures
from vision.numerals import Glyph
from vision.observation import Kind

# The smallest spread a prototype may claim, per feature: a few examples under one light
# must not make a face look more certain than the camera can be.
MIN_SPREAD = (8.0, 4.0, 4.0, 0.03, 0.08, 0.08, 8.0)
MAX_DISTANCE = 3.5  # RMS z-score beyond which a face looks like nothing we know
# ... or a z-score this far in any one feature: the RMS of seven hides one that is far off.
# A red painted face came within 3.1 of bare wood's plain face, 6.4 spreads redder. Faces
# of the known looks read on generated throws (never enrolled from) came to 4.2 at most.
MAX_FEATURE_Z = 5.0
MIN_CONFIDENCE = 0.3  # (other - best) / (other + best) distances


@dataclass(frozen=True, slots=True)
class Prototype:
    kind: Kind
    face: str
    look: str
    mean: tuple[float, ...]
    spread: tuple[float, ...]
    examples: int

    def z_scores(self, features: FaceFeatures) -> NDArray[np.float64]:
        z = (features.as_array() - np.asarray(self.mean)) / np.asarray(self.spread)
        return np.asarray(z, np.float64)

    def distance(self, features: FaceFeatures) -> float:
        return float(np.sqrt(np.mean(self.z_scores(features) ** 2)))

    def resembles(self, features: FaceFeatures) -> bool:
        """Whether the features could be this face's: near overall and in every feature."""
        z = self.z_scores(features)
        return bool(np.sqrt(np.mean(z**2)) <= MAX_DISTANCE and np.abs(z).max() <= MAX_FEATURE_Z)

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "face": self.face,
            "look": self.look,
            "mean": [round(v, 4) for v in self.mean],
            "spread": [round(v, 4) for v in self.spread],
            "examples": self.examples,
        }


@dataclass(frozen=True, slots=True)
class FaceReading:
    face: str | None  # None: unclear, or unknown
    confidence: float
    distance: float
    known: bool = True  # False: the face looks like none the profile knows
    looks: frozenset[str] = frozenset()  # the sets whose prototype of the face resembles it


@dataclass(frozen=True, slots=True)
class Example:
    """One face shown during enrolment."""

    kind: Kind
    face: str
    look: str
    features: FaceFeatures


@dataclass(frozen=True)
class Profile:
    name: str
    prototypes: tuple[Prototype, ...]
    glyphs: tuple[Glyph, ...] = ()  # the d4's numerals, when the set's d4 was enrolled

    def read_face(self, kind: Kind, features: FaceFeatures) -> FaceReading:
        nearest: dict[str, tuple[float, Prototype]] = {}
        for prototype in self.prototypes:
            if prototype.kind is kind:
                d = prototype.distance(features)
                if d < nearest.get(prototype.face, (np.inf, prototype))[0]:
                    nearest[prototype.face] = (d, prototype)
        if len(nearest) < 2:
            raise ProfileError(f"profile {self.name!r} does not know both faces of a {kind.value}")
        ranked = sorted(nearest.items(), key=lambda item: item[1][0])
        (best, (d_best, prototype)), (_, (d_other, _)) = ranked[0], ranked[1]
        confidence = (d_other - d_best) / (d_other + d_best + 1e-9)
        if not prototype.resembles(features):
            return FaceReading(None, confidence, d_best, known=False)
        if confidence < MIN_CONFIDENCE:
            return FaceReading(None, confidence, d_best)
        looks = frozenset(
            p.look
            for p in self.prototypes
            if p.kind is kind and p.face == best and p.resembles(features)
        )
        return FaceReading(best, confidence, d_best, looks=looks)

    def save(self, path: Path) -> None:
        record: dict[str, object] = {
            "name": self.name,
            "features": list(FACE_FEATURES),
            "prototypes": [p.as_dict() for p in self.prototypes],
        }
        if self.glyphs:
            record["d4_glyphs"] = [glyph.as_dict() for glyph in self.glyphs]
        try:
            path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        except OSError as error:
            raise ProfileError(
                f"the profile cannot be written to {path}: {error.strerror}"
            ) from None

    @classmethod
    def load(cls, path: Path) -> Profile:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ProfileError(f"profile {path} cannot be read: {error.strerror}") from None
        try:
            return cls.from_json(text)
        except ProfileError as error:
            raise ProfileError(f"{path}: {error}") from None

    @classmethod
    def from_json(cls, text: str) -> Profile:
        try:
            record = json.loads(text)
            if not isinstance(record, dict):
                raise ProfileError("profile cannot be read: not a JSON object")
            if record["features"] != list(FACE_FEATURES):
                raise ProfileError("the profile was made for other features: enrol again")
            prototypes = tuple(
                Prototype(
                    Kind(p["kind"]),
                    str(p["face"]),
                    str(p["look"]),
                    tuple(float(v) for v in p["mean"]),
                    tuple(float(v) for v in p["spread"]),
                    int(p["examples"]),
                )
                for p in record["prototypes"]
            )
            glyphs = tuple(Glyph.from_dict(g) for g in record.get("d4_glyphs", []))
            return cls(str(record["name"]), prototypes, glyphs)
        except ProfileError:
            raise
        except KeyError as error:
            raise ProfileError(f"profile cannot be read: it lacks {error}") from None
        except (ValueError, TypeError) as error:
            raise ProfileError(f"profile cannot be read: {error}") from None


def enrol(name: str, examples: Iterable[Example], glyphs: Iterable[Glyph] = ()) -> Profile:
    """A profile from examples of each face: one prototype per kind, face and look; the d4's
    numerals as shown."""
    groups: dict[tuple[Kind, str, str], list[FaceFeatures]] = defaultdict(list)
    for example in examples:
        groups[(example.kind, example.face, example.look)].append(example.features)
    prototypes = []
    for (kind, face, look), shown in sorted(groups.items(), key=lambda item: str(item[0])):
        values = np.stack([f.as_array() for f in shown])
        spread = np.maximum(values.std(axis=0), MIN_SPREAD)
        prototypes.append(
            Prototype(kind, face, look, tuple(values.mean(axis=0)), tuple(spread), len(shown))
        )
    return Profile(name, tuple(prototypes), tuple(glyphs))


def default_profile() -> Profile:
    """The profile shipped with the package: marked/plain wood, white/black, the yes/no stick."""
    text = resources.files("vision").joinpath("profiles/default.json").read_text("utf-8")
    return Profile.from_json(text)
