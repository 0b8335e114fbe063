"""Guided enrolment: the players lay every stick flat with the same face up, and each
picture gives one example of that face per stick; or they lay the set's d4 flat with each
value in turn at its top point, and the numerals of its faces are learnt.

What ``companion vision enrol --source``, the device's enrolment from its settings and
the generated demo's enrolment have in common.
"""

from __future__ import annotations

from vision.errors import ProfileError
from vision.features import face_features, stick_strip
from vision.numerals import VALUES, DieNumerals, Glyph, learn_glyphs, read_numerals
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


D4_PICTURES_PER_VALUE = 2  # pictures of each value on top, in guided d4 enrolment


def learnt_glyphs(shown: list[tuple[int, DieNumerals]], look: str) -> tuple[Glyph, ...]:
    """The numerals of a set's d4 learnt from dice of known top values (each picture's
    flat d4s: ``d4s_in``); a ProfileError says what to show again.

    Each die is then read with what was learnt: one that reads another value than the one
    it was shown with (a die turned to the wrong value) would have taught its numerals
    under the wrong value, and nothing is learnt."""
    for value in VALUES:
        count = sum(v == value for v, _ in shown)
        if count < D4_PICTURES_PER_VALUE:
            raise ProfileError(
                f"value {value} was seen {count} times; show it at least "
                f"{D4_PICTURES_PER_VALUE} times"
            )
    glyphs = learn_glyphs(shown, look)
    missing = set(VALUES) - {glyph.value for glyph in glyphs}
    if missing:
        raise ProfileError(
            f"the numerals of {sorted(missing)} were never seen clearly: show the die again, "
            "nearer the middle of the tray"
        )
    for value, numerals in shown:
        read = read_numerals(numerals, glyphs).value
        if read is not None and read != value:
            raise ProfileError(
                f"a d4 shown with {value} at its top point reads {read}: show each value as asked"
            )
    return glyphs
