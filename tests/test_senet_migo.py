"""senet-migo against its rules: the cases of tests/cases/senet-migo.txt, and the throw table.

Every rule id of DECISIONS.md (S1-S11, T1, T2) and the general rules G1-G2 has a section of
cases there, with a case the rules allow and one they refuse; every key of the rule book is
named by at least one case. Expected results come from the Migo rules and DECISIONS.md.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from cases_reader import (
    Case,
    CaseError,
    check_case,
    cited_keys,
    miscited,
    read_cases,
    sections_lacking,
)

from companion import games
from companion.core import PASS, START, Move
from companion.errors import NotationError
from companion.games.senet_rules import SENET_MIGO
from companion.throws import Throw

NAME = "senet-migo"
CASES = read_cases(NAME)
# DECISIONS.md: turns (T1, T2), senet-migo (S1-S11); G1, G2: one piece per move, per square.
RULE_IDS = ["T1", "T2", "G1", "G2", *(f"S{n}" for n in range(1, 12))]
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


# ----- S2: the throw table -------------------------------------------------------------
# "4 sticks; count marked faces up: 1-4 move 1-4; none marked moves 5. Extra throw on 1,
# 4, 5; 2 and 3 pass the hand (rule 7)."
FACES = [
    ("PPPP", 5, True),
    ("MPPP", 1, True),
    ("PPMP", 1, True),
    ("MMPP", 2, False),
    ("PMPM", 2, False),
    ("MMMP", 3, False),
    ("PMMM", 3, False),
    ("MMMM", 4, True),
    ("mmpp", 2, False),
]


@pytest.mark.parametrize(("faces", "score", "extra"), FACES)
def test_faces_give_score_and_extra_throw(faces: str, score: int, extra: bool) -> None:
    assert games.get(NAME).throws.read_faces(faces) == Throw(score, extra)


def test_every_combination_of_faces_counts_marked_faces() -> None:
    scores = {0: 5, 1: 1, 2: 2, 3: 3, 4: 4}
    throws = games.get(NAME).throws
    for letters in product("MP", repeat=4):
        faces = "".join(letters)
        assert throws.read_faces(faces).score == scores[faces.count("M")], faces


@pytest.mark.parametrize("faces", ["MMP", "MMPPP", "MMPX", ""])
def test_faces_that_are_no_throw_are_refused(faces: str) -> None:
    with pytest.raises(NotationError):
        games.get(NAME).throws.read_faces(faces)


def test_scores_and_extra_throws() -> None:
    throws = games.get(NAME).throws
    assert sorted(throws.scores) == [1, 2, 3, 4, 5]
    assert throws.extra == frozenset({1, 4, 5})
    assert throws.parse("3") == Throw(3, False)
    assert throws.parse("PPPP") == Throw(5, True)
    with pytest.raises(NotationError):
        throws.parse("6")


def test_exact_probabilities() -> None:
    throws = games.get(NAME).throws
    sixteenth = Fraction(1, 16)
    assert dict(throws.score_probabilities()) == {
        5: 1 * sixteenth,
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
    assert game.legal_moves() == [START]


def test_opening_then_white_plays_and_hands_over() -> None:
    """S3: seats throw until a 1; that seat takes white and throws again to play (T2)."""
    game = games.get(NAME).game()
    game.throw("MMPP")  # seat 1: a 2
    game.push(PASS)
    game.throw("MPPP")  # seat 2: a 1, takes white
    game.push(START)
    assert game.fen() == "WBWBWBWBWB/WBWB....../.......... w - play 0/0"
    game.throw("MMMM")  # white: a 4, throws again
    game.push("13-17")
    assert game.fen() == "WBWBWBWBWB/WB.B..W.../.......... w - play 0/0"
    game.throw("MMMP")  # white: a 3, then black's turn
    game.push("17-20")
    assert game.fen() == "WBWBWBWBWB/WB.B.....W/.......... b - play 0/0"
    game.pop()
    game.pop()
    assert game.fen() == "WBWBWBWBWB/WB.B..W.../.......... w - play 0/0"


def test_water_then_the_same_player_throws_again() -> None:
    """S8, S9, T2: the forced 26-27 with a 1 lands on 1 and the 1 throws again."""
    game = games.get(NAME).game("....B...../........../.....W.... w - play 6/6")
    game.throw(1)
    assert game.legal_moves() == [Move.parse("26-27")]
    game.push("26-27")
    game.throw(2)
    assert game.legal_moves() == [Move.parse("1-3")]


def test_five_pieces_option() -> None:
    """S1: "Option: 5 per side on 1-10"."""
    five = replace(SENET_MIGO, pieces=5)
    assert five.game().fen() == "WBWBWBWBWB/........../.......... 1 - opening 0/0"


# ----- the case file format itself ------------------------------------------------------
POSITION = "WBWBWBWBWB/WBWB....../.......... w 3 play 0/0"


@pytest.mark.parametrize(
    "line",
    [
        f"{POSITION} | 13-16",  # two fields
        f"{POSITION} | 13-16 | legal",  # no rule
        f"{POSITION} | 13-16 | allowed S2 distance",  # no such kind of case
        f"{POSITION} | 13-16 | illegal S2 distance + S4 wall",  # one rule refuses
        f"{POSITION} | 13-17 | illegal S2",  # a rule is cited by id and key
        f"{POSITION} | 13-17 | illegal S2 distance => {POSITION}",  # nothing follows a refusal
        f"{POSITION} | * | moves",  # no moves listed
        f"{POSITION} | 13-16 | moves 13-16",  # moves go with '*'
        f"{POSITION} | - | setup S1 pieces => {POSITION}",  # setup goes with 'new'
        f"{POSITION} | 13-16 | invalid",  # invalid goes with '-'
    ],
)
def test_malformed_case_lines_are_refused(tmp_path: Path, line: str) -> None:
    path = tmp_path / "cases.txt"
    path.write_text(f"# a comment\n[S2] Throw\n{line}\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r"cases\.txt:3"):
        read_cases(NAME, path)


def test_a_case_needs_a_section(tmp_path: Path) -> None:
    path = tmp_path / "cases.txt"
    path.write_text(f"{POSITION} | 13-16 | legal S2 distance\n", encoding="utf-8")
    with pytest.raises(CaseError, match=r"cases\.txt:1"):
        read_cases(NAME, path)


def test_a_case_line_is_read_into_its_parts(tmp_path: Path) -> None:
    path = tmp_path / "cases.txt"
    line = f"{POSITION} | 13-16 | legal S2 distance + T2 hand-passes => {POSITION}"
    path.write_text(f"[S2] Throw\n  {line}  \n", encoding="utf-8")
    (case,) = read_cases(NAME, path)
    assert (case.section, case.position, case.move, case.after) == (
        "S2",
        POSITION,
        "13-16",
        POSITION,
    )
    assert [str(citation) for citation in case.rulings] == ["S2 distance", "T2 hand-passes"]
