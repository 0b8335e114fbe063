"""The throws of both Senet rule sets (their case files are checked by
tests/test_rule_cases.py). Expected results come from the source texts and DECISIONS.md;
the tables below are written from them, not read from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import pytest

from companion import games
from companion.errors import NotationError
from companion.throws import StickTable, Throw


@dataclass(frozen=True)
class Expected:
    name: str
    scores: tuple[int, ...]  # score for 0, 1, 2, 3, 4 marked faces up
    extra: frozenset[int]  # scores after which the same player throws again

    def __str__(self) -> str:
        return self.name


def _sticks(name: str) -> StickTable:
    table = games.get(name).throws
    assert isinstance(table, StickTable)
    return table


EXPECTED = [
    # S2: "count marked faces up: 1-4 move 1-4; none marked moves 5. Extra throw on 1, 4, 5."
    Expected(
        "senet-migo",
        (5, 1, 2, 3, 4),
        frozenset({1, 4, 5}),
    ),
    # K1: "count white faces: 1-4 move 1-4; all black moves 6. Extra throw on 1, 4, 6."
    Expected(
        "senet-kendall",
        (6, 1, 2, 3, 4),
        frozenset({1, 4, 6}),
    ),
]


@pytest.mark.parametrize("expected", EXPECTED, ids=str)
def test_every_combination_of_faces_counts_marked_faces(expected: Expected) -> None:
    throws = _sticks(expected.name)
    for letters in product("MP", repeat=4):
        faces = "".join(letters)
        score = expected.scores[faces.count("M")]
        assert throws.read_faces(faces) == Throw(score, score in expected.extra), faces
        assert throws.read_faces(faces.lower()) == throws.read_faces(faces)


@pytest.mark.parametrize("expected", EXPECTED, ids=str)
@pytest.mark.parametrize("faces", ["PPP", "PPPPP", "MMPW", ""])
def test_faces_that_are_no_throw_are_refused(expected: Expected, faces: str) -> None:
    with pytest.raises(NotationError):
        _sticks(expected.name).read_faces(faces)


@pytest.mark.parametrize("expected", EXPECTED, ids=str)
def test_scores_and_extra_throws(expected: Expected) -> None:
    throws = _sticks(expected.name)
    assert sorted(throws.scores) == sorted(expected.scores)
    assert throws.extra == expected.extra
    assert throws.parse("4") == Throw(4, True)
    assert throws.parse("MMMP") == Throw(3, False)
    missing = ({5, 6} - set(expected.scores)).pop()
    with pytest.raises(NotationError):
        throws.parse(str(missing))


@pytest.mark.parametrize("expected", EXPECTED, ids=str)
def test_exact_probabilities(expected: Expected) -> None:
    throws = _sticks(expected.name)
    ways = (1, 4, 6, 4, 1)  # ways to show 0..4 marked faces with four fair sticks
    assert dict(throws.score_probabilities()) == {
        score: Fraction(n, 16) for score, n in zip(expected.scores, ways, strict=True)
    }
    assert sum(outcome.probability for outcome in throws.outcomes()) == 1
    extra = sum(o.probability for o in throws.outcomes() if o.throw.extra_turn)
    assert extra == Fraction(3, 8)
