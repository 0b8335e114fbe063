"""Reading a face from its colour: the shipped profile on faces under other lights."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.features import FaceFeatures, face_features
from vision.guided import flat_examples
from vision.kit import kit_named
from vision.observation import MARKED, PLAIN, Kind, Reason
from vision.profile import MAX_DISTANCE, Profile, Prototype, default_profile, enrol
from vision.reader import Reader
from vision.segment import Segmenter
from vision.synthetic import scene
from vision.tray import calibrate


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


def _strip(bgr: tuple[int, int, int]) -> np.ndarray:
    """A stick's face of one colour, as the strip the reader cuts out."""
    return np.full((16, 216, 3), bgr, np.uint8)


def test_a_face_of_a_colour_no_known_set_shows_is_unknown_not_plain() -> None:
    # Painted red, within 3.5 of bare wood overall but far redder: once read as plain.
    reading = default_profile().read_face(Kind.STICK, face_features(_strip((40, 40, 200))))
    assert reading.face is None and not reading.known
    wood = default_profile().read_face(Kind.STICK, face_features(_strip((110, 170, 215))))
    assert wood.face == PLAIN and wood.known


def test_one_feature_far_off_makes_a_face_unknown_however_near_the_rest() -> None:
    spread = (12.0, 4.0, 4.0, 0.05, 0.1, 0.1, 10.0)
    marked = Prototype(Kind.STICK, MARKED, "test", (200, 0, 10, 0.3, 0.5, 0, 60), spread, 5)
    plain = Prototype(Kind.STICK, PLAIN, "test", (100, 0, 10, 0.0, 0.0, 0.5, 60), spread, 5)
    profile = Profile("test", (marked, plain))
    near = FaceFeatures((200.0, 0.0, 10.0, 0.3, 0.5, 0.0, 60.0))
    assert profile.read_face(Kind.STICK, near).face == MARKED
    # 5.5 spreads redder, the rest as the marked face: an RMS of 2.1, under MAX_DISTANCE.
    redder = FaceFeatures((200.0, 5.5 * 4.0, 10.0, 0.3, 0.5, 0.0, 60.0))
    assert marked.distance(redder) < MAX_DISTANCE
    reading = profile.read_face(Kind.STICK, redder)
    assert reading.face is None and not reading.known
    # Between the two faces: unclear, but like a face the profile knows.
    between = FaceFeatures((150.0, 0.0, 10.0, 0.15, 0.25, 0.25, 60.0))
    unclear = profile.read_face(Kind.STICK, between)
    assert unclear.face is None and unclear.known


@pytest.mark.parametrize("seed", [0, 1])
def test_sticks_of_a_set_never_enrolled_are_refused_with_advice_to_enrol(seed: int) -> None:
    made = scene(seed, "sticks4", look="red-wood", faces="MMPP")
    observation = Reader(calibrate(made.empty), default_profile()).read(
        made.frame, kit_named("sticks4")
    )
    assert observation.refused
    assert {refusal.reason for refusal in observation.refusals} == {Reason.UNKNOWN_FACE}
    assert "enrol" in Reason.UNKNOWN_FACE.message


def test_sticks_of_a_new_set_are_read_once_enrolled() -> None:
    shown = {
        face: scene(10, "sticks4", look="red-wood", faces=face * 4, tray_seed=5)
        for face in (MARKED, PLAIN)
    }
    tray = calibrate(shown[MARKED].empty)
    segmenter = Segmenter(tray)
    examples = [
        example
        for face, made in shown.items()
        for example in flat_examples(made.frame, segmenter, Kind.STICK, face, "red-wood")
    ]
    assert len(examples) == 8
    profile = enrol("red-wood", examples)
    for seed, faces in ((11, "MMPP"), (12, "MPPP")):
        made = scene(seed, "sticks4", look="red-wood", faces=faces, tray_seed=5)
        observation = Reader(tray, profile).read(made.frame, kit_named("sticks4"))
        assert sorted(str(item.face) for item in observation.implements) == sorted(faces)


def test_faces_of_two_known_sets_in_one_throw_are_a_set_never_enrolled() -> None:
    # Blackened and bare wood: each face looks like a plain face the profile knows (the
    # white-black set's, the decorated set's), so every stick once read as plain.
    made = scene(3, "sticks4", look="black-wood", faces="MMPP")
    observation = Reader(calibrate(made.empty), default_profile()).read(
        made.frame, kit_named("sticks4")
    )
    assert [refusal.reason for refusal in observation.refusals] == [Reason.UNKNOWN_FACE]
    assert all(item.face == PLAIN for item in observation.implements)
    one_set = scene(3, "sticks4", look="decorated", faces="MMPP")
    read = Reader(calibrate(one_set.empty), default_profile()).read(
        one_set.frame, kit_named("sticks4")
    )
    assert not read.refused


def test_sticks_read_as_one_face_in_two_colours_are_a_set_never_enrolled() -> None:
    # Brick red and olive green: both near enough to bare wood to be read as plain.
    made = scene(0, "sticks4", look="brick-green", faces="MMPP")
    observation = Reader(calibrate(made.empty), default_profile()).read(
        made.frame, kit_named("sticks4")
    )
    assert [refusal.reason for refusal in observation.refusals] == [Reason.UNKNOWN_FACE]
    assert observation.refusals[0].detail == "sticks read as one face are of two colours"
