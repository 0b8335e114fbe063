"""The hand of a d4's numbering (``vision.hand``): what it is, how the d4 in play tells it,
and how it weighs numerals that alone leave a throw unread (``vision.numerals.judged``)."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.hand import HAND_ARMING, Hand, HandInPlay, hand_of
from vision.kit import kit_named
from vision.numerals import Glyph, Scores, judged
from vision.observation import Box, Kind, Reason
from vision.profile import Profile, default_profile
from vision.reader import Reader
from vision.synthetic import scene
from vision.tray import calibrate

# A regular tetrahedron's corners, and a numbering of them (corner -> value).
CORNERS = np.array([(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)], np.float64)


def _seen_from_above(values: tuple[int, ...], top: int) -> tuple[int, tuple[int, int, int]]:
    """The die numbered ``values`` (one per corner) resting with corner ``top`` up: the top
    value and the base corners' values clockwise, as a viewer above sees them."""
    up = CORNERS[top] / np.linalg.norm(CORNERS[top])
    across = np.cross(up, [0.3, 0.5, 0.8])
    across /= np.linalg.norm(across)
    onwards = np.cross(up, across)  # (across, onwards, up): right-handed
    base = [corner for corner in range(4) if corner != top]
    turns = {c: np.arctan2(CORNERS[c] @ onwards, CORNERS[c] @ across) for c in base}
    # From above, across -> onwards turns counterclockwise: clockwise is decreasing angles.
    clockwise = sorted(base, key=lambda c: -turns[c])
    return values[top], (values[clockwise[0]], values[clockwise[1]], values[clockwise[2]])


@pytest.mark.parametrize("values", list(permutations((1, 2, 3, 4))))
def test_a_die_shows_one_hand_whichever_corner_is_up(values: tuple[int, ...]) -> None:
    hands = {hand_of(*_seen_from_above(values, top)) for top in range(4)}
    assert len(hands) == 1
    mirror = (values[1], values[0], values[2], values[3])  # two corners' values swapped
    assert hands != {hand_of(*_seen_from_above(mirror, top)) for top in range(4)}


def test_the_hand_is_named_with_the_four_on_top() -> None:
    assert hand_of(4, (1, 2, 3)) is Hand.CLOCKWISE
    assert hand_of(4, (2, 3, 1)) is Hand.CLOCKWISE  # the same die turned
    assert hand_of(4, (1, 3, 2)) is Hand.COUNTERCLOCKWISE


def _scores(best: int, score: float, rest: float = 0.5, **others: float) -> Scores:
    table = dict.fromkeys((1, 2, 3, 4), rest)
    table[best] = score
    table.update({int(k[1:]): v for k, v in others.items()})
    return table


# A die thrown 3 and numbered clockwise, (3; 1, 4, 2), whose top numerals hesitate between
# 3 and 2 and whose third base corner between 2 and 3: its mirror image (2; 1, 4, 3) fits
# nearly as well, and the numerals alone leave it unread.
HESITANT_TOP = _scores(3, 0.81, 0.45, v2=0.80)
HESITANT_CORNERS: list[Scores | None] = [
    _scores(1, 0.85),
    _scores(4, 0.85),
    _scores(2, 0.80, v3=0.79),
]


def test_numerals_that_hesitate_are_read_with_the_hand_in_play() -> None:
    alone = judged(HESITANT_TOP, HESITANT_CORNERS, top_numerals=3)
    assert alone.value is None
    assert not alone.with_hand
    read = judged(HESITANT_TOP, HESITANT_CORNERS, top_numerals=3, hand=Hand.CLOCKWISE)
    assert (read.value, read.with_hand) == (3, True)


def test_the_hand_asks_a_wider_lead_and_top_numerals_that_are_not_faint() -> None:
    # (2; 1, 3, 4), of the same hand, fits 0.13 below: a lead wrong numberings of one hand
    # reach (HAND_STORY_MARGIN).
    near: list[Scores | None] = [
        _scores(1, 0.85),
        _scores(4, 0.85, v3=0.80),
        _scores(2, 0.80, v3=0.79, v4=0.75),
    ]
    assert judged(HESITANT_TOP, near, top_numerals=3, hand=Hand.CLOCKWISE).value is None
    faint = {value: score - 0.25 for value, score in HESITANT_TOP.items()}  # best 0.56
    assert judged(faint, HESITANT_CORNERS, top_numerals=3, hand=Hand.CLOCKWISE).value is None


def test_the_hand_decides_so_a_wrong_one_reads_the_mirror_image() -> None:
    # Why the hand is only the die in play's, armed by its own readings: assumed wrong, it
    # reads the mirror image's top value.
    read = judged(HESITANT_TOP, HESITANT_CORNERS, top_numerals=3, hand=Hand.COUNTERCLOCKWISE)
    assert (read.value, read.with_hand) == (2, True)
    # Top numerals that say 3 clearly (by 0.03, not 0.01) are never overruled, by the
    # hand's numberings or any other.
    clear_top = {**HESITANT_TOP, 2: 0.78}
    assert (
        judged(clear_top, HESITANT_CORNERS, top_numerals=3, hand=Hand.COUNTERCLOCKWISE).value
        is None
    )


def test_a_die_that_fits_the_other_hand_far_better_is_not_the_die_in_play() -> None:
    faint_top = _scores(3, 0.58, 0.45, v2=0.55)  # seen on one face: unread alone
    corners: list[Scores | None] = [_scores(1, 0.85), _scores(4, 0.85), _scores(2, 0.85)]
    alone = judged(faint_top, corners, top_numerals=1)
    assert alone.value is None and alone.hand is Hand.CLOCKWISE
    other = judged(faint_top, corners, top_numerals=1, hand=Hand.COUNTERCLOCKWISE)
    assert other.value is None and other.other_hand
    same = judged(faint_top, corners, top_numerals=1, hand=Hand.CLOCKWISE)
    assert not same.other_hand


def test_a_clear_reading_tells_its_hand_and_needs_none() -> None:
    top = _scores(3, 0.85)
    corners: list[Scores | None] = [_scores(1, 0.85), _scores(4, 0.85), _scores(2, 0.85)]
    for hand in (None, Hand.COUNTERCLOCKWISE):
        read = judged(top, corners, top_numerals=3, hand=hand)
        assert (read.value, read.hand, read.with_hand) == (3, Hand.CLOCKWISE, False)
    unseen: list[Scores | None] = [_scores(1, 0.85), None, None]  # both hands fit alike
    assert judged(top, unseen, top_numerals=3).hand is None


def _box(step: int) -> Box:
    return Box(100 * step, 0, 100 * step + 40, 40)


def test_the_hand_in_play_is_armed_by_throws_in_a_row() -> None:
    in_play = HandInPlay()
    for step in range(HAND_ARMING - 1):
        in_play.told(Hand.CLOCKWISE, _box(step))
        in_play.told(Hand.CLOCKWISE, _box(step))  # the same throw read again
        in_play.told(None, _box(step + 50))  # a die that tells neither
    assert in_play.hand is None
    in_play.told(Hand.CLOCKWISE, _box(HAND_ARMING))
    assert in_play.hand is Hand.CLOCKWISE
    in_play.told(Hand.COUNTERCLOCKWISE, _box(0))
    assert in_play.hand is None  # another die, or a throw telling it wrong: start again
    for step in range(HAND_ARMING):
        in_play.told(Hand.COUNTERCLOCKWISE, _box(step + 1))
    assert in_play.hand is Hand.COUNTERCLOCKWISE
    in_play.forget()
    assert in_play.hand is None


def _base_hand(die: dict[str, Any]) -> Hand:
    """The hand of a drawn d4 from its label: its base corners and their values."""
    (ax, ay), (bx, by), (cx, cy) = die["base"]
    first, second, third = (int(value) for value in die["base_values"])
    if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0:  # rows grow downwards
        first, third = third, first  # listed counterclockwise on screen
    return hand_of(int(die["value"]), (first, second, third))


@pytest.mark.parametrize("hand", list(Hand))
def test_generated_d4s_are_numbered_with_the_hand_asked_for(hand: Hand) -> None:
    dice = [scene(seed, "ur-nostick", d4_hand=hand).objects[0] for seed in range(8)]
    assert {_base_hand(die) for die in dice} == {hand}
    drawn = {_base_hand(scene(seed, "ur-nostick").objects[0]) for seed in range(8)}
    assert drawn == set(Hand)  # else either, at random


def test_a_reader_of_one_game_learns_the_hand_of_its_d4(
    synthetic_d4_glyphs: tuple[Glyph, ...],
) -> None:
    throws = [
        scene(4000 + index, "ur-nostick", tray_seed=41, d4_hand=Hand.COUNTERCLOCKWISE)
        for index in range(3 * HAND_ARMING)
    ]
    # Glyphs of the running OpenCV's drawing: Raspberry Pi OS's draws the generator's font
    # as one the shipped glyphs never learned.
    profile = Profile("d4", default_profile().prototypes, synthetic_d4_glyphs)
    learning = Reader(calibrate(throws[0].empty), profile, learn_hand=True)
    alone = Reader(calibrate(throws[0].empty), profile)
    assert alone.d4_in_play is None and alone.d4_font is None
    kit = kit_named("ur-nostick")
    read = 0
    for throw in throws:
        observation = learning.read(throw.frame, kit)
        # Numerals of the font the glyphs learned: the font in play holds nothing back.
        assert Reason.UNKNOWN_NUMERALS not in {r.reason for r in observation.refusals}
        dice = [i for i in observation.implements if i.kind is Kind.D4]
        read += bool(dice) and dice[0].value == throw.objects[0]["value"]
        if learning.d4_in_play is not None and learning.d4_in_play.hand is not None:
            break
    assert read >= HAND_ARMING
    assert learning.d4_in_play is not None
    assert learning.d4_in_play.hand is Hand.COUNTERCLOCKWISE


def test_evaluate_draws_d4s_of_the_hand_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from companion.cli import main
    from companion.vision_cli import D4_HANDS

    folder = tmp_path / "set"
    args = ["vision", "evaluate", str(folder), "--synthetic", "10", "--seed", "3"]
    assert main([*args, "--kit", "ur-nostick", "--d4-hand", "clockwise", "--json"]) == 0
    capsys.readouterr()
    labels = [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines()]
    dice = [o for label in labels for o in label["objects"] if "base_values" in o]
    assert dice and {_base_hand(die) for die in dice} == {Hand.CLOCKWISE}
    assert main(["vision", "evaluate", str(folder), "--d4-hand", "clockwise"]) == 2
    assert "give --synthetic N too" in capsys.readouterr().err
    assert tuple(hand.value for hand in Hand) == D4_HANDS  # the option's choices
