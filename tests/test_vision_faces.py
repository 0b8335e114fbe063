"""Reading a face from its colour: the shipped profile on faces under other lights."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.features import face_features
from vision.observation import MARKED, PLAIN, Kind
from vision.profile import default_profile


def _face(lightness: float, red_green: float, yellow_blue: float, disc: bool) -> np.ndarray:
    """A yes/no stick's face as the strip the reader cuts out: one colour (CIE Lab, with
    OpenCV's 8-bit offsets), with the yes face's white disc in the middle."""
    lab = np.zeros((20, 270, 3), np.uint8)
    lab[...] = (lightness * 255 / 100, red_green + 128, yellow_blue + 128)
    if disc:
        cv2.circle(lab, (135, 10), 9, (250, 128, 124), -1)
    return np.asarray(cv2.cvtColor(lab, cv2.COLOR_LAB2BGR), np.uint8)


@pytest.mark.parametrize(
    ("colour", "disc", "face"),
    [
        ((69, 20, 15), True, MARKED),  # the red face washed out to pink by a bright light
        ((78, 26, 13), True, MARKED),  # ... and brighter still
        ((66, 44, 22), True, MARKED),  # the red face as enrolled
        ((84, 5, 30), False, PLAIN),  # bare wood
    ],
)
def test_the_yes_no_faces_are_told_by_their_hue(
    colour: tuple[float, float, float], disc: bool, face: str
) -> None:
    features = face_features(_face(*colour, disc))
    assert default_profile().read_face(Kind.YESNO, features).face == face


@pytest.mark.parametrize("lightness", [12.0, 50.0, 95.0])
def test_a_grey_face_has_no_hue_to_speak_of(lightness: float) -> None:
    """A white or black face's hue angle is noise round the whole circle: it fades to 0
    as the colour does, so that one grey face looks like another under the camera's noise."""
    noise = np.random.default_rng(7)
    hues = []
    for _ in range(5):
        grey = _face(lightness, 0.0, 0.0, disc=False).astype(np.float64)
        noisy = np.clip(grey + noise.normal(0, 2, grey.shape), 0, 255).astype(np.uint8)
        hues.append(face_features(noisy).values[-1])
    assert max(abs(hue) for hue in hues) < 10.0
