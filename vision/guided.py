"""Guided enrolment: the players lay every stick flat with the same face up, and each
picture gives one example of that face per stick; or they lay the set's d4 flat with each
value in turn at its top point, and the numerals of its faces are learnt.

What ``companion vision enrol --source``, the device's enrolment from its settings and
the generated demo's enrolment have in common.
"""

from __future__ import annotations

from vision.errors import ProfileError
from vision.features import face_features, stick_strip
from vision.numerals import (
    SMALL_DIE_EDGE,
    VALUES,
    DieNumerals,
    Glyph,
    learn_glyphs,
    read_numerals,
    top_scores,
)
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


MIN_DICE_PER_VALUE = 2  # dice seen with each value on top, in guided d4 enrolment


def learnt_glyphs(shown: list[tuple[int, DieNumerals]], look: str) -> tuple[Glyph, ...]:
    """The numerals of a set's d4 learnt from dice of known top values (each picture's
    flat d4s: ``d4s_in``); a ProfileError says what to do instead."""
    for value in VALUES:
        count = sum(v == value for v, _ in shown)
        if count < MIN_DICE_PER_VALUE:
            seen = {0: "never", 1: "once"}.get(count, f"{count} times")
            raise ProfileError(
                f"{value} on top was seen {seen}, {MIN_DICE_PER_VALUE} times at least are "
                "needed: take more pictures of it"
            )
    glyphs = learn_glyphs(shown, look)
    missing = set(VALUES) - {glyph.value for glyph in glyphs}
    if missing:
        listed = ", ".join(str(value) for value in sorted(missing))
        raise ProfileError(
            f"the numerals of {listed} were never seen sharply enough: enrol the d4 again, "
            "nearer the middle of the tray"
        )
    _check_read_back(shown, glyphs)
    return glyphs


def small_dice(shown: list[tuple[int, DieNumerals]]) -> bool:
    """Whether the dice of an enrolment are small for the camera (their median edge under
    ``SMALL_DIE_EDGE``): their numerals, a few pixels high, are read in fewer throws, and
    dice of 16-20 mm were read wrong about once in a few hundred throws, enrolled or not."""
    edges = sorted(numerals.edge for _, numerals in shown)
    return bool(edges) and edges[len(edges) // 2] < SMALL_DIE_EDGE


def _check_read_back(shown: list[tuple[int, DieNumerals]], glyphs: tuple[Glyph, ...]) -> None:
    """Every die read with the glyphs learnt from them all. A die turned to the wrong value
    taught its numerals under that value, and the two values' glyphs are blends: it may
    then read the value it showed and, on a die large enough for its top numerals to tell
    values apart, those numerals fit that value's glyphs better than the value asked.
    Neither may happen. (A die that reads nothing is no sign: small dice often do not
    read, and their top numerals may fit another value a little better, right or not.)"""
    for value, numerals in shown:
        read = read_numerals(numerals, glyphs).value
        if read is not None and read != value:
            raise ProfileError(_shown_wrong(value, read))
        fits = top_scores(numerals, glyphs)
        if fits is not None and numerals.edge >= SMALL_DIE_EDGE:
            best = max(fits, key=fits.__getitem__)
            if best != value:
                raise ProfileError(_shown_wrong(value, best))


def _shown_wrong(value: int, seen: int) -> str:
    # Which die was turned wrong cannot be told: the glyphs of both values are blends.
    low, high = sorted((value, seen))
    return (
        f"the dice shown with {low} and with {high} on top look alike (a picture showed "
        "another value?): enrol the d4 again, turning the die to each value asked"
    )
