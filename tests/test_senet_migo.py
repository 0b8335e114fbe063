"""senet-migo: turns played through throw() and push(), the 5-piece option, the case format.
The rule cases are in test_rule_cases.py, the throw tables in test_senet_throws.py.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from cases_reader import (
    CaseError,
    read_cases,
)

from companion import games
from companion.core import PASS, START, Move
from companion.games.senet_rules import SENET_MIGO

NAME = "senet-migo"


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
