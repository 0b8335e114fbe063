"""senet-kendall against its rules: the cases of tests/cases/senet-kendall.txt, and the throws.

Every rule id of DECISIONS.md (K1-K8, T1, T2) and the general rules G1-G2 has a section of
cases there, with a case the rules allow and one they refuse; every key of the rule book is
named by at least one case. Expected results come from seed 003 and DECISIONS.md.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from cases_reader import (
    Case,
    check_case,
    cited_keys,
    miscited,
    read_cases,
    sections_lacking,
)

from companion import games
from companion.core import PASS, Move
from companion.errors import NotationError
from companion.throws import Throw

NAME = "senet-kendall"
CASES = read_cases(NAME)
# DECISIONS.md: turns (T1, T2), senet-kendall (K1-K8); G1, G2: one piece per move, per square.
RULE_IDS = ["T1", "T2", "G1", "G2", *(f"K{n}" for n in range(1, 9))]
# Rules that only say what a legal move does next: no move is ever refused by them.
EFFECTS_ONLY = ["T2"]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case(case: Case) -> None:
    check_case(case)


def test_every_rule_key_has_a_case() -> None:
    book = games.get(NAME).rules
    assert sorted(set(book) - cited_keys(CASES)) == []


def test_cases_cite_the_rule_books_ids() -> None:
    assert miscited(CASES, games.get(NAME).rules) == []


def test_every_rule_id_has_allowed_and_refused_cases() -> None:
    book_ids = {rule.id for rule in games.get(NAME).rules.values()}
    assert sorted(book_ids - set(RULE_IDS)) == [], "a rule id of the book has no entry here"
    assert sections_lacking(CASES, RULE_IDS, EFFECTS_ONLY) == []


# ----- K1: the throw table -------------------------------------------------------------
# "4 sticks, white face / black face; count white faces: 1-4 move 1-4; all black moves 6.
# Extra throw on 1, 4, 6; 2 and 3 pass the hand." The white face is written M.
FACES = [
    ("PPPP", 6, True),
    ("MPPP", 1, True),
    ("PPPM", 1, True),
    ("MMPP", 2, False),
    ("MPMP", 2, False),
    ("MMMP", 3, False),
    ("MMPM", 3, False),
    ("MMMM", 4, True),
    ("pppp", 6, True),
]


@pytest.mark.parametrize(("faces", "score", "extra"), FACES)
def test_faces_give_score_and_extra_throw(faces: str, score: int, extra: bool) -> None:
    assert games.get(NAME).throws.read_faces(faces) == Throw(score, extra)


def test_every_combination_of_faces_counts_white_faces() -> None:
    scores = {0: 6, 1: 1, 2: 2, 3: 3, 4: 4}
    throws = games.get(NAME).throws
    for letters in product("MP", repeat=4):
        faces = "".join(letters)
        assert throws.read_faces(faces).score == scores[faces.count("M")], faces


@pytest.mark.parametrize("faces", ["PPP", "PPPPP", "MMPW", ""])
def test_faces_that_are_no_throw_are_refused(faces: str) -> None:
    with pytest.raises(NotationError):
        games.get(NAME).throws.read_faces(faces)


def test_scores_and_extra_throws() -> None:
    throws = games.get(NAME).throws
    assert sorted(throws.scores) == [1, 2, 3, 4, 6]
    assert throws.extra == frozenset({1, 4, 6})
    assert throws.parse("6") == Throw(6, True)
    assert throws.parse("MMMP") == Throw(3, False)
    with pytest.raises(NotationError):
        throws.parse("5")


def test_exact_probabilities() -> None:
    throws = games.get(NAME).throws
    sixteenth = Fraction(1, 16)
    assert dict(throws.score_probabilities()) == {
        6: 1 * sixteenth,
        1: 4 * sixteenth,
        2: 6 * sixteenth,
        3: 4 * sixteenth,
        4: 1 * sixteenth,
    }
    assert sum(throws.score_probabilities().values()) == 1
    assert sum(outcome.probability for outcome in throws.outcomes()) == 1
    extra = sum(o.probability for o in throws.outcomes() if o.throw.extra_turn)
    assert extra == Fraction(3, 8)


# ----- turns, through throw() and push() -----------------------------------------------


def test_no_move_without_a_pending_throw() -> None:
    game = games.get(NAME).game()
    assert game.legal_moves() == []
    game.throw(1)
    assert game.legal_moves() == [Move.parse("10-11")]


def test_opening_black_keeps_the_hand_then_white_starts_from_9() -> None:
    """K3: the first 1 takes black and plays 10-11; black throws again; white starts on 9."""
    game = games.get(NAME).game()
    game.throw("PPPP")  # seat 1: a 6, which counts for nothing in the opening
    game.push(PASS)
    game.throw("PMPP")  # seat 2: a 1, takes black
    game.push("10-11")
    assert game.fen() == "WBWBWBWBW./B........./.......... b - first 0/0"
    game.throw("MMMM")  # black: a 4, throws again
    game.push("11-15")
    game.throw("MMMP")  # black: a 3, then white's first move
    game.push("15-18")
    assert game.fen() == "WBWBWBWBW./.......B../.......... w - first 0/0"
    game.throw(3)
    assert game.legal_moves() == [Move.parse("9-12")]
    game.push("9-12")
    assert game.fen() == "WBWBWBWB../.W.....B../.......... b - play 0/0"
