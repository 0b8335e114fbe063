"""ur-tablet against its rules: the cases of tests/cases/ur-tablet.txt, the die and stick,
the two boards of U1 cell by cell, the notation, and the command line and terminal play.

Expected values are written from the source text and DECISIONS.md (U1-U11), not read from
the engine.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from game_helpers import TypedLines

from companion import games
from companion.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from companion.core import IN, Move
from companion.errors import NotationError, TurnError
from companion.games.ur import BLACK, WHITE, DieAndStick, Ur, UrRules, cell_name
from companion.play import run_session
from companion.throws import Throw

NAME = "ur-tablet"
EMPTY = "1@-,2@-,3@-,4@-,5@-"
START = f"ur {EMPTY} {EMPTY} 15/15/20 w - -"


def ur_rules() -> UrRules:
    rules = games.get(NAME)
    assert isinstance(rules, UrRules)
    return rules


def ur_game(position: str | None = None) -> Ur:
    game = ur_rules().game(position)
    assert isinstance(game, Ur)
    return game


# ----- the rule cases ---------------------------------------------------------------------
def test_rules_that_rest_on_our_readings_say_so() -> None:
    """U1, U8's payment, U9's debts and U11's settlement are marked (ours) in DECISIONS.md."""
    book = ur_rules().rules
    for key in ("board", "track-end", "entry-order", "bear-off-payment", "debt", "settlement"):
        assert book[key].basis.value == "decision", key
    for key in ("distance", "capture", "protected", "chance-gain", "chance-pass", "pay"):
        assert book[key].basis.value == "source", key
        assert book[key].quote, key


# ----- throws (U2) ------------------------------------------------------------------------
YES = {1: 5, 2: 6, 3: 7, 4: 10}  # U2: 1->5, 2->6, 3->7, 4->10


def table() -> DieAndStick:
    throws = ur_rules().throws
    assert isinstance(throws, DieAndStick)
    return throws


@pytest.mark.parametrize("die", [1, 2, 3, 4])
def test_every_reading_of_die_and_stick(die: int) -> None:
    throws = table()
    alone, no, yes = (throws.parse(text) for text in (f"{die}", f"{die}+no", f"{die}+yes"))
    assert (alone, no, yes) == (Throw(die, False), Throw(die, False), Throw(YES[die], False))
    assert (str(alone), str(no), str(yes)) == (f"{die}", f"{die}+no", f"{die}+yes")
    assert throws.parse(f" {die} + YES ") == yes and str(throws.parse(f"{die}+Oui")) == str(yes)
    assert str(throws.parse(f"{die}+n")) == f"{die}+no"
    assert str(throws.parse(str(YES[die]))) == f"{die}+yes"  # a yes score alone


@pytest.mark.parametrize("text", ["0", "5+yes", "8", "9", "3+maybe", "3+", "+yes", "MMPP", ""])
def test_texts_that_are_no_throw_are_refused(text: str) -> None:
    with pytest.raises(NotationError, match="3\\+yes"):
        table().parse(text)


def test_exact_probabilities_for_each_choice() -> None:
    throws = table()
    quarter, eighth = Fraction(1, 4), Fraction(1, 8)
    assert dict(throws.score_probabilities(stick=False)) == dict.fromkeys((1, 2, 3, 4), quarter)
    assert dict(throws.score_probabilities(stick=True)) == dict.fromkeys(
        (1, 2, 3, 4, 5, 6, 7, 10), eighth
    )
    for stick in (False, True):
        assert sum(o.probability for o in throws.outcomes_with(stick=stick)) == 1
    assert throws.probability(throws.parse("3")) == quarter
    assert throws.probability(throws.parse("3+no")) == eighth
    assert throws.probability(throws.parse("3+yes")) == eighth
    assert not any(outcome.throw.extra_turn for outcome in throws.outcomes())


def test_a_stick_that_is_not_fair_changes_only_the_stick_lines() -> None:
    throws = replace(table(), yes_rate=Fraction(1, 3))
    assert throws.probability(throws.parse("4+yes")) == Fraction(1, 12)
    assert throws.probability(throws.parse("4+no")) == Fraction(1, 6)
    assert throws.probability(throws.parse("4")) == Fraction(1, 4)


def test_the_pending_throw_is_kept_as_its_score() -> None:
    """3+no plays as 3: the position keeps the score, the history keeps the reading."""
    with_stick, alone = ur_game(), ur_game()
    with_stick.throw("3+no")
    alone.throw("3")
    assert with_stick.position == alone.position
    assert with_stick.fen() == alone.fen() == START.replace(" w - -", " w 3 -")
    assert str(with_stick.history[0]) == "3+no"


# ----- the boards of U1 -------------------------------------------------------------------
# DECISIONS.md U1, written out square by square (its "A2 ... G2" spelled in full).
UR_WHITE = "D1 C1 B1 A1 A2 B2 C2 D2 E2 F2 G2 G3 H3 H2 H1 G1"
UR_BLACK = "D3 C3 B3 A3 A2 B2 C2 D2 E2 F2 G2 G1 H1 H2 H3 G3"
TABLET_WHITE = "D1 C1 B1 A1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 K2 L2"
TABLET_BLACK = "D3 C3 B3 A3 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 K2 L2"
TRACKS = {
    (1, WHITE): UR_WHITE,
    (1, BLACK): UR_BLACK,
    (2, WHITE): TABLET_WHITE,
    (2, BLACK): TABLET_BLACK,
}
ROSETTES = {1: {"A1", "A3", "D2", "G1", "G3"}, 2: {"A1", "A3", "D2", "H2", "L2"}}
CHANCE_SQUARES = {4, 8, 12, 16}


@pytest.mark.parametrize(("layout", "side"), sorted(TRACKS))
def test_tracks_cell_by_cell(layout: int, side: int) -> None:
    for square, cell in enumerate(TRACKS[layout, side].split(), 1):
        assert cell_name(layout, side, square) == cell, (layout, side, square)


@pytest.mark.parametrize("layout", [1, 2])
def test_rosettes_are_the_chance_squares(layout: int) -> None:
    cells = {
        cell_name(layout, side, square)
        for side in (WHITE, BLACK)
        for square in range(1, 17)
        if square in CHANCE_SQUARES
    }
    assert cells == ROSETTES[layout]
    for side in (WHITE, BLACK):
        others = {cell_name(layout, side, s) for s in range(1, 17) if s not in CHANCE_SQUARES}
        assert not others & ROSETTES[layout]


def test_on_the_ur_board_the_tracks_cross_in_the_last_block() -> None:
    """U1: white's 12 is black's 16, 13 is 15, 14 is 14, 15 is 13, 16 is 12."""
    for white, black in ((12, 16), (13, 15), (14, 14), (15, 13), (16, 12)):
        assert cell_name(1, WHITE, white) == cell_name(1, BLACK, black)
    for square in range(5, 12):
        assert cell_name(1, WHITE, square) == cell_name(1, BLACK, square)
    for square in range(5, 17):
        assert cell_name(2, WHITE, square) == cell_name(2, BLACK, square)
    for layout in (1, 2):
        for square in range(1, 5):
            assert cell_name(layout, WHITE, square)[1] == "1"
            assert cell_name(layout, BLACK, square)[1] == "3"


def test_no_such_track_square() -> None:
    for square in (0, 17):
        with pytest.raises(ValueError):
            cell_name(1, WHITE, square)


def test_board_lines_draw_pieces_on_their_cells() -> None:
    game = ur_game("ur 1@3,2@12,3@x,4@-,5@- 1@off,2@15,3@8,4@-,5@- 10/12/28 b 7 w")
    lines = game.board_lines()
    assert lines[0].split() == list("ABCDEFGH")
    cells = {}
    for line in lines[1:4]:
        row = line[0]
        for index, column in enumerate("ABCDEFGH"):
            text = line[3 + 3 * index : 5 + 3 * index].strip()
            cells[column + row] = text
    assert cells["B1"] == "W1"  # white 3
    assert cells["G3"] == "W2"  # white 12
    assert cells["H3"] == "B2"  # black 15
    assert cells["D2"] == "B3"  # black 8, a rosette
    assert cells["A1"] == cells["A3"] == cells["G1"] == "*"
    assert cells["E1"] == cells["F3"] == ""  # no such cells on the Ur board
    text = "\n".join(lines)
    assert "white: tokens 10, captured 3, not entered 4 5, off -" in text
    assert "black: tokens 12, captured -, not entered 4 5, off 1" in text
    assert "pot: 28" in text and "white skips its next turn" in text


def test_the_tablet_board_is_drawn_with_its_tail() -> None:
    game = ur_game("tablet 1@16,2@-,3@-,4@-,5@- 1@4,2@-,3@-,4@-,5@- 15/15/20 w - -")
    lines = game.board_lines()
    assert lines[0].split() == list("ABCDEFGHIJKL")
    assert lines[2].split() == ["2", ".", ".", ".", "*", ".", ".", ".", "*", ".", ".", ".", "W1"]
    assert lines[3].split() == ["3", "B1", ".", ".", "."]
    assert game.cell(WHITE, 16) == "L2"


# ----- the layout option ------------------------------------------------------------------
def test_layout_is_an_option_and_positions_name_their_board() -> None:
    rules = ur_rules().with_options({"layout": "2"})
    assert isinstance(rules, UrRules) and rules.layout == 2
    game = rules.game()
    assert game.fen() == START.replace("ur ", "tablet ")
    # a position names its board, so the registered rule set reads it back as it is
    assert games.get(NAME).game(game.fen()).fen() == game.fen()
    with pytest.raises(NotationError, match="layout=3 is no board"):
        ur_rules().with_options({"layout": "3"})
    with pytest.raises(NotationError, match="whole number"):
        ur_rules().with_options({"layout": "tablet"})


# ----- positions --------------------------------------------------------------------------
def test_start_position() -> None:
    game = ur_game()
    assert game.fen() == START
    assert game.turn_label() == "white" and game.turn_label("fr") == "les blancs"
    assert game.legal_moves() == [Move(IN, 1, kind="pay")]  # before the throw: pay to enter


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nonsense", "found 1 fields instead of 7"),
        (START.replace("ur", "senet"), "the board is 'ur' or 'tablet'"),
        (START.replace(EMPTY, "1@-,2@-,3@-,4@-", 1), "5 entries PIECE@WHERE"),
        (START.replace(EMPTY, "2@-,1@-,3@-,4@-,5@-", 1), "written 1@WHERE"),
        (START.replace(EMPTY, "1@3,2@3,3@-,4@-,5@-", 1), "same square"),
        (START.replace(EMPTY, "1@07,2@-,3@-,4@-,5@-", 1), "not '07'"),
        (START.replace("15/15/20", "15/15"), "WHITE/BLACK/POT"),
        (START.replace("15/15/20", "15/15/21"), "never gains or loses one"),
        (START.replace(" w - -", " x - -"), "the side to move is 'w' or 'b'"),
        (START.replace(" w - -", " w 9 -"), "1, 2, 3, 4, 5, 6, 7, 10"),
        (START.replace(" w - -", " w - w"), "cannot have a skipped turn"),
    ],
)
def test_bad_positions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as error:
        ur_game(text)
    assert message in str(error.value)
    assert repr(text) in str(error.value) and START in str(error.value)


def test_moves_of_kinds_this_game_lacks_are_notation_errors() -> None:
    game = ur_game(START.replace(" w - -", " w 2 -"))
    with pytest.raises(NotationError, match="no move of kind 'p'"):
        game.explain(Move.parse("p3-5"))


def test_moves_at_the_wrong_moment() -> None:
    game = ur_game()
    with pytest.raises(TurnError, match="no throw is pending"):
        game.explain(Move.parse("in-1"))
    with pytest.raises(TurnError, match="no throw is pending"):
        game.push("pass")


# ----- the command line -------------------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("text", "score", "reading", "stick", "probability"),
    [
        ("3", 3, "3", None, "1/4"),
        ("3+no", 3, "3+no", "no", "1/8"),
        ("3+yes", 7, "3+yes", "yes", "1/8"),
        ("4+YES", 10, "4+yes", "yes", "1/8"),
        ("7", 7, "3+yes", "yes", "1/8"),
    ],
)
def test_throw_json(
    capsys: pytest.CaptureFixture[str],
    text: str,
    score: int,
    reading: str,
    stick: str | None,
    probability: str,
) -> None:
    status, out, _ = run(capsys, "throw", NAME, text, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert (record["score"], record["extra_turn"]) == (score, False)
    assert (record["reading"], record["stick"], record["probability"]) == (
        reading,
        stick,
        probability,
    )


def test_throw_text_shows_the_score_of_a_reading(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "throw", NAME, "3+yes")
    assert out.strip() == "3+yes (7): pass the hand (probability 1/8)"


def test_bad_throw_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "throw", NAME, "5+yes")
    assert status == EXIT_BAD_INPUT
    assert "the die shows 1-4" in err and "Traceback" not in err


def test_moves_lists_moves_with_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    position = "ur 1@3,2@-,3@-,4@-,5@- 1@5,2@-,3@-,4@-,5@- 15/15/20 w - -"
    status, out, _ = run(capsys, "moves", NAME, "1+yes", "--position", position, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert record["throw"]["score"] == 5 and record["throw"]["reading"] == "1+yes"
    moves = {entry["move"]: entry for entry in record["moves"]}
    assert set(moves) == {"in-5", "3-8"}
    assert moves["in-5"]["position"].endswith(" 16/14/20 b - -")  # black pays white 1
    assert moves["3-8"]["position"].endswith(" 15/15/20 b - -")  # pays 1 on 4, takes 1 on 8
    keys = [ruling["key"] for ruling in moves["3-8"]["does"]]
    assert keys == ["distance", "chance-pass", "chance-gain", "hand-passes"]


def test_moves_before_the_throw(capsys: pytest.CaptureFixture[str]) -> None:
    position = "ur 1@9,2@12,3@x,4@-,5@- " + EMPTY + " 15/15/20 w - -"
    status, out, _ = run(capsys, "moves", NAME, "-", "--position", position)
    assert status == EXIT_OK
    assert "white to play instead of throwing" in out
    assert [line.split()[0] for line in out.splitlines()[2::2]] == ["pay-6", "pay-7"]


def test_check_a_paid_entry(capsys: pytest.CaptureFixture[str]) -> None:
    position = f"ur {EMPTY} {EMPTY} 1/29/20 w - -"
    status, out, _ = run(capsys, "check", NAME, "-", "pay-1", "--position", position)
    assert status == EXIT_ILLEGAL
    assert out.startswith("pay-1: illegal [U4]")
    status, out, _ = run(
        capsys, "check", NAME, "-", "pay-1", "--position", START, "--json", "--lang", "fr"
    )
    record = json.loads(out)
    assert status == EXIT_OK and record["throw"] is None
    assert record["rulings"][0]["short"] == "Payez 2 : le pion 1 entre en 1."


def test_check_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    position = "tablet 1@10,2@-,3@-,4@-,5@- 1@12,2@-,3@-,4@-,5@- 15/15/20 w - -"
    status, out, _ = run(capsys, "check", NAME, "2", "10-12", "--position", position)
    assert status == EXIT_ILLEGAL
    assert out.startswith("10-12: illegal [U6] Piece 1 is safe on a chance square.")


def test_a_dash_throw_needs_a_position_without_a_pending_throw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    position = START.replace(" w - -", " w 3 -")
    status, _, err = run(capsys, "moves", NAME, "-", "--position", position)
    assert status == EXIT_BAD_INPUT
    assert "no throw pending" in err


# ----- terminal play ----------------------------------------------------------------------


def play(path: Path, lines: list[str], rules: str | UrRules = NAME) -> TypedLines:
    table = TypedLines(lines)
    assert run_session(rules, new=True, save=str(path), ask=table.ask, say=table.say) == 0
    return table


def test_play_offers_and_takes_a_paid_entry(tmp_path: Path) -> None:
    path = tmp_path / "ur.json"
    table = play(path, ["pay-1", "3+yes", "pay-1", "position"])
    text = table.text
    assert "instead of throwing: pay-1" in text
    assert "Pay 2: piece 1 enters on 1. [U4]" in text
    assert "3+yes (7): pass the hand after the move" in text
    assert "pay-1 is not allowed" in text  # a throw is pending now
    assert "white: tokens 13" in text and "pot: 22" in text
    saved = json.loads(path.read_text())
    assert saved["actions"] == ["move pay-1", "throw 3+yes"]
    assert saved["position"] == f"ur 1@1,2@-,3@-,4@-,5@- {EMPTY} 13/15/22 b 7 -"


def test_play_a_pass_pays_a_token_and_the_layout_option(tmp_path: Path) -> None:
    rules = ur_rules().with_options({"layout": "2"})
    assert isinstance(rules, UrRules)
    table = play(tmp_path / "ur.json", ["1", "1", "board"], rules)
    assert "no move: No move possible: pass. [T1] (type 1 or 'pass')" in table.text
    assert "Pass: 1 token into the pot. [U9]" in table.text
    assert re.search(r"^ +A +B .* L$", table.text, re.MULTILINE)  # the tablet board
    assert "[black] throw>" in table.text


def test_a_saved_tablet_game_resumes_on_its_board(tmp_path: Path) -> None:
    path = tmp_path / "ur.json"
    rules = ur_rules().with_options({"layout": "2"})
    assert isinstance(rules, UrRules)
    play(path, ["2", "in-1"], rules)
    table = TypedLines(["position"])
    run_session(NAME, save=str(path), ask=table.ask, say=table.say)
    assert f"tablet 1@1,2@-,3@-,4@-,5@- {EMPTY} 15/15/20 b - -" in table.text


# ----- docs/notation.md -------------------------------------------------------------------
NOTATION = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
UR_POSITION = re.compile(r"^(?:ur|tablet)(?: \S+){6}$", re.MULTILINE)  # code-block lines


def notation_section() -> str:
    text = NOTATION.read_text(encoding="utf-8")
    start = text.index("## Positions (ur-tablet)")
    end = text.find("\n## ", text.index("## Throws (ur-tablet)"))
    return text[start : end if end > 0 else len(text)]


def test_notation_examples_are_valid_positions() -> None:
    examples = UR_POSITION.findall(notation_section())
    assert len(examples) >= 6
    for example in examples:
        ur_game(example)  # raises NotationError if the doc is wrong


def test_notation_worked_example() -> None:
    """The worked example of docs/notation.md, step by step, and its commands."""
    section = notation_section()
    game = ur_game("ur 1@5,2@9,3@-,4@-,5@- 1@x,2@10,3@-,4@-,5@- 12/16/22 w - -")
    assert game.fen() in section
    assert [str(m) for m in game.legal_moves()] == ["pay-6"]
    game.throw("1+yes")
    assert sorted(str(m) for m in game.legal_moves()) == ["5-10", "9-14"]
    effects = game.push("5-10")
    assert [r.rule.key for r in effects] == ["distance", "chance-pass", "capture", "hand-passes"]
    assert game.fen() == "ur 1@10,2@9,3@-,4@-,5@- 1@x,2@x,3@-,4@-,5@- 12/15/23 b - -"
    assert game.fen() in section
    assert sorted(str(m) for m in game.legal_moves()) == ["pay-1", "pay-5", "pay-6"]
    game.push("pay-5")
    assert game.fen() == "ur 1@10,2@9,3@-,4@-,5@- 1@x,2@5,3@-,4@-,5@- 12/10/28 w - -"
    assert game.fen() in section
    for command in re.findall(r"^companion (.+)$", section, re.MULTILINE):
        args = [part.strip('"') for part in re.findall(r'"[^"]*"|\S+', command)]
        assert main(args) == EXIT_OK, command
