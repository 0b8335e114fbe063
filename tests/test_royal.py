"""ur-finkel and ur-masters against their rules: the throw table, the board's cells, the
notation, turns played through throw() and push(), and the command line (their case files
are checked by tests/test_rule_cases.py). Expected values come from DECISIONS.md ("Beyond
the sources", U1) and royalur 0.0.6's settings, written out here, not read from the engine.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from ur_geometry import PATHS, ROSETTES

from companion import games
from companion.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from companion.core import IN, OFF, PASS, Move
from companion.errors import IllegalMoveError, NotationError
from companion.games.royal import BLACK, WHITE, RoyalUr, RoyalUrRules
from companion.throws import Throw

NAMES = ("ur-finkel", "ur-masters")


def rules_of(name: str) -> RoyalUrRules:
    rules = games.get(name)
    assert isinstance(rules, RoyalUrRules)
    return rules


def game_of(name: str, position: str | None = None) -> RoyalUr:
    game = rules_of(name).game(position)
    assert isinstance(game, RoyalUr)
    return game


# ----- the cases ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_rule_is_ours_and_cites_the_decision_and_royalur(name: str) -> None:
    for rule in rules_of(name).rules.values():
        assert rule.basis.value == "decision", rule.key
        assert "Beyond the sources" in rule.citation and "royalur 0.0.6" in rule.citation


# ----- throws -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_combination_of_dice_counts_marked_tips(name: str) -> None:
    throws = rules_of(name).throws
    for letters in product("MP", repeat=4):
        faces = "".join(letters)
        assert throws.parse(faces) == Throw(faces.count("M"), False), faces
        assert throws.parse(faces.lower()) == throws.parse(faces)


@pytest.mark.parametrize("name", NAMES)
def test_exact_probabilities_of_four_binary_dice(name: str) -> None:
    throws = rules_of(name).throws
    ways = (1, 4, 6, 4, 1)
    assert dict(throws.score_probabilities()) == {k: Fraction(n, 16) for k, n in enumerate(ways)}
    assert not any(outcome.throw.extra_turn for outcome in throws.outcomes())


@pytest.mark.parametrize("text", ["MMP", "MMPPM", "MXPP", "5", "", "-1"])
def test_throws_that_four_binary_dice_cannot_show_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        rules_of("ur-finkel").parse_throw(text)


def test_random_throws_follow_the_exact_probabilities() -> None:
    import random

    game = game_of("ur-finkel")
    rng = random.Random(5)
    counts = [0] * 5
    draws = 32_000
    for _ in range(draws):
        counts[game.random_throw(rng).score] += 1
    for score, n in enumerate((1, 4, 6, 4, 1)):
        assert abs(counts[score] / draws - n / 16) < 0.01, counts


# ----- the board ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_track_squares_are_the_cells_of_decisions_u1(name: str) -> None:
    rules = rules_of(name)
    for side in (WHITE, BLACK):
        cells = PATHS[name][side]
        assert rules.length == len(cells)
        for square, cell in enumerate(cells, start=1):
            assert rules.cell(side, square) == cell
            assert rules.square(side, cell) == square
    assert rules.rosettes == ROSETTES
    assert rules.square(WHITE, "A3") is None  # black's own square


def test_board_lines_draw_the_physical_board() -> None:
    game = game_of("ur-masters", "W..W.......W..../.......B........ w - 4/6 0/0")
    # White on D1 (1), A1 (4) and G3 (12); black on D2 (8).
    assert game.board_lines() == [
        "   A B C D E F G H",
        "1  W . . W     * .",
        "2  . . . B . . . .",
        "3  * . . .     W .",
        "waiting: W 4  B 6   off: W 0  B 0",
    ]


# ----- turns --------------------------------------------------------------------------------
def test_a_game_opens_with_white_entering() -> None:
    game = game_of("ur-finkel")
    assert game.legal_moves() == []
    game.throw("MMPP")
    assert game.legal_moves() == [Move(IN, 2)]
    game.push("in-2")
    assert game.fen() == ".W............/.............. b - 6/7 0/0"
    game.throw("MMMM")
    game.push("in-4")  # A3, a rosette: black throws again
    assert game.fen() == ".W............/...B.......... b - 6/6 0/0"
    game.throw("PPPP")
    assert game.legal_moves() == [PASS]
    assert game.explain(PASS).deciding.rule.id == "T1"
    game.push(PASS)
    assert game.fen() == ".W............/...B.......... w - 6/6 0/0"


def test_explain_names_the_rule_in_both_languages() -> None:
    game = game_of("ur-finkel", "....W........./.......B...... w 3 6/6 0/0")
    explanation = game.explain(Move(5, 8))
    assert not explanation.legal
    ruling = explanation.deciding
    assert ruling.rule.id == "R7"
    assert "D2" in ruling.short("en") and "D2" in ruling.short("fr")
    assert "DECISIONS.md" in ruling.source()
    with pytest.raises(IllegalMoveError, match=r"\[R7\]"):
        game.push("5-8")


def test_a_move_that_is_no_move_at_all_is_refused() -> None:
    game = game_of("ur-finkel", ".W...W......../......B....... w 3 5/6 0/0")
    for text in ("start", "pay-3", "p2-5", "2-5,6-9", "in-off"):
        explanation = game.explain(Move.parse(text))
        assert not explanation.legal and explanation.deciding.forbids, text


# ----- notation -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        ".W...W......../......B....... x 3 5/6 0/0",  # side
        ".W...W......../......B....... w 5 5/6 0/0",  # no such throw
        ".W...W......../......B....... w 3 5-6 0/0",  # waiting
        ".W...W......../......B.......  w 3 5/6",  # four fields
        ".W...W......../......B....../ w 3 5/6 0/0",  # three groups
        ".w...W......../......B....... w 3 5/6 0/0",  # lower case
    ],
)
def test_bad_positions_are_refused_with_an_example(text: str) -> None:
    with pytest.raises(NotationError) as error:
        game_of("ur-finkel", text)
    assert repr(text) in str(error.value)
    assert "............../.............. w - 7/7 0/0" in str(error.value)


NOTATION = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
UR_POSITION = re.compile(r"[WB.]{14,16}/[WB.]{14,16} [wb] [-0-4] \d/\d \d/\d")


def test_notation_doc_examples_read_back() -> None:
    """Every Ur position written in docs/notation.md is valid in one of the two rule sets."""
    examples = UR_POSITION.findall(NOTATION.read_text(encoding="utf-8"))
    assert len(examples) >= 6
    for example in examples:
        name = "ur-finkel" if len(example.split("/")[0]) == 14 else "ur-masters"
        assert game_of(name, example).fen() == example


# ----- the command line ---------------------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("name", "faces", "score"),
    [
        ("ur-finkel", "MPMM", 3),
        ("ur-finkel", "PPPP", 0),
        ("ur-finkel", "mmmm", 4),
        ("ur-masters", "PMPP", 1),
        ("ur-masters", "2", 2),
    ],
)
def test_throw_json_has_score_and_no_extra_turn(
    capsys: pytest.CaptureFixture[str], name: str, faces: str, score: int
) -> None:
    status, out, _ = run(capsys, "throw", name, faces, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert (record["score"], record["extra_turn"]) == (score, False)


def test_throw_text_says_the_rosette_gives_the_extra_throw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "throw", "ur-finkel", "MPMM")
    assert out.startswith("3: throw again from a rosette, else pass the hand")
    _, out, _ = run(capsys, "throw", "ur-finkel", "PPPP")
    assert out.startswith("0: nothing to move: pass the hand")


def test_throw_with_wrong_dice_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "throw", "ur-finkel", "MPM")
    assert status == EXIT_BAD_INPUT
    assert "marked tip up" in err and "Traceback" not in err


def test_moves_lists_each_move_with_the_position_after(capsys: pytest.CaptureFixture[str]) -> None:
    position = ".W..W........./.............. w - 5/7 0/0"
    status, out, _ = run(capsys, "moves", "ur-finkel", "MMMP", "--position", position, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    moves = {entry["move"]: entry for entry in record["moves"]}
    assert set(moves) == {"in-3", "5-8"}
    assert moves["5-8"]["position"] == ".W.....W....../.............. w - 5/7 0/0"
    assert [r["rule"] for r in moves["5-8"]["does"]] == ["R2", "R8"]
    assert record["throw"] == {"score": 3, "extra_turn": False}


def test_moves_from_the_start_enter_a_piece(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "ur-masters", "4", "--json")
    assert [entry["move"] for entry in json.loads(out)["moves"]] == ["in-4"]


def test_check_refuses_a_capture_on_a_safe_rosette(capsys: pytest.CaptureFixture[str]) -> None:
    position = "....W........./.......B...... w - 6/6 0/0"
    status, out, _ = run(capsys, "check", "ur-finkel", "MMMP", "5-8", "--position", position)
    assert status == EXIT_ILLEGAL
    assert out.startswith("5-8: illegal [R7]")


def test_check_allows_it_in_ur_masters(capsys: pytest.CaptureFixture[str]) -> None:
    position = "....W.........../.......B........ w - 6/6 0/0"
    args = ("check", "ur-masters", "3", "5-8", "--position", position, "--json")
    status, out, _ = run(capsys, *args)
    record = json.loads(out)
    assert status == EXIT_OK
    assert [r["key"] for r in record["rulings"]] == [
        "distance",
        "capture",
        "rosette-capture",
        "extra-throw",
    ]


def test_check_bearing_off_names_the_exact_throw(capsys: pytest.CaptureFixture[str]) -> None:
    position = "...........W../.............. w - 6/7 0/0"
    status, out, _ = run(
        capsys, "check", "ur-finkel", "4", "12-off", "--position", position, "--lang", "fr"
    )
    assert status == EXIT_ILLEGAL
    assert "interdit [R9]" in out and "il faut 3" in out


def test_bad_position_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "moves", "ur-finkel", "3", "--position", "W/B w - 7/7 0/0")
    assert status == EXIT_BAD_INPUT
    assert "position 'W/B w - 7/7 0/0'" in err and "Traceback" not in err


def test_move_notation_reads_back() -> None:
    for text, move in (("in-4", Move(IN, 4)), ("5-9", Move(5, 9)), ("12-off", Move(12, OFF))):
        assert Move.parse(text) == move and str(move) == text


@pytest.mark.parametrize("name", NAMES)
def test_demo_plays_a_game_to_its_end(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, _ = run(capsys, "demo", "--text", "--game", name, "--seed", "4")
    assert status == EXIT_OK
    assert "Game over after" in out and "wins" in out


def test_a_terminal_game_is_saved_and_resumed(tmp_path: Path) -> None:
    from test_play import play

    path = tmp_path / "ur.json"
    table = play(path, ["MPMM", "1", "PPPP", "1", "board"], game="ur-finkel", new=True)
    assert "3: throw again from a rosette, else pass the hand" in table.text
    assert "[T1]" in table.text  # the 0 passed
    assert "1  * W . .     * ." in table.text  # white's piece on B1, its square 3
    resumed = play(path, ["position"], game="ur-finkel")
    assert "..W.........../.............. w - 6/7 0/0" in resumed.text
