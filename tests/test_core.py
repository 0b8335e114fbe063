"""Core values shared by every family: throws with dice or a reading, moves with kinds."""

from __future__ import annotations

import pytest

from companion.core import IN, OFF, Move
from companion.errors import NotationError
from companion.throws import Throw


def test_two_dice_throw_counts_them_one_by_one_in_json() -> None:
    throw = Throw(10, False, dice=(4, 6))
    assert str(throw) == "4,6"
    assert throw.as_dict() == {"score": [4, 6], "extra_turn": False}


def test_how_a_throw_was_read_is_shown_but_does_not_change_the_throw() -> None:
    with_stick = Throw(3, False, shown="3+no")
    assert str(with_stick) == "3+no"
    assert with_stick == Throw(3, False)
    assert hash(with_stick) == hash(Throw(3, False))
    assert with_stick.as_dict() == {"score": 3, "extra_turn": False}


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("p88-82", Move(88, 82, kind="p")),
        ("P2-off", Move(2, OFF, kind="p")),
        ("pay-6", Move(IN, 6, kind="pay")),
        ("3-7,12-14", Move(3, 7, then=Move(12, 14))),
        ("in-5, 20-off", Move(IN, 5, then=Move(20, OFF))),
    ],
)
def test_moves_with_kinds_and_pairs_read_and_write(text: str, move: Move) -> None:
    assert Move.parse(text) == move
    assert Move.parse(str(move)) == move


def test_a_pair_is_made_of_its_steps() -> None:
    assert Move.parse("3-7,12-14").steps == (Move(3, 7), Move(12, 14))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-2,3-4,5-6", "at most two pieces"),
        ("pay", "START-END"),
        ("-3", "START-END"),
        ("alongkindname-3", "no kind of move"),
    ],
)
def test_malformed_moves_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Move.parse(text)
