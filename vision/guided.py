"""Guided enrolment: the players lay every stick flat with the same face up, and each
picture gives one example of that face per stick.

What ``companion vision enrol --source``, the device's "Enrol new sticks" and the
generated demo's enrolment have in common.
"""

from __future__ import annotations

from vision.features import face_features, stick_strip
from vision.observation import Kind
from vision.profile import Example
from vision.segment import Segmenter
from vision.shapes import Shape, classify
from vision.tray import Image


def flat_examples(
    frame: Image, segmenter: Segmenter, kind: Kind, face: str, look: str
) -> list[Example]:
    """An example of ``face`` for each implement of ``kind`` lying flat in ``frame``."""
    examples = []
    foreground = segmenter.foreground(frame)  # moved back and relit, as the reader sees it
    for blob in foreground.blobs:
        call = classify(blob)
        if call.shape is Shape.FLAT and call.kind is kind:
            strip = stick_strip(foreground.frame, blob, segmenter.tray.px_per_mm)
            features = face_features(strip)
            examples.append(Example(kind, face, look, features))
    return examples
