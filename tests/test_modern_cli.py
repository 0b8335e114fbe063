"""senet-modern on the command line: dice notation, moves as pairs, check, play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run
from test_play import play

from companion import games, savefile
from companion.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK

GAME = "senet-modern"
MIDGAME = "..W5....B3../.W4.B1.....W2/.B5........ w - off:W1B4 out:W3B2 play"
LAST_PIECE = "B1........./.B3.......W5/...B5...... w - off:W1W2B4 out:W3W4B2 play"


@pytest.mark.parametrize(
    ("dice", "score", "probability"),
    [("4,6", [4, 6], "1/18"), ("6,4", [4, 6], "1/18"), ("3,3", [3, 3], "1/36"), ("4", [4], "1/6")],
)
def test_throw_json_lists_the_dice(
    capsys: pytest.CaptureFixture[str], dice: str, score: list[int], probability: str
) -> None:
    status, out, _ = run(capsys, "throw", GAME, dice, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert (record["score"], record["extra_turn"], record["probability"]) == (
        score,
        False,
        probability,
    )


@pytest.mark.parametrize("dice", ["7,1", "0,3", "1,2,3", "4 6", "", "MMPP"])
def test_throw_that_no_dice_show_is_bad_input(
    capsys: pytest.CaptureFixture[str], dice: str
) -> None:
    status, _, err = run(capsys, "throw", GAME, dice)
    assert status == EXIT_BAD_INPUT
    assert "4,6" in err and "Traceback" not in err


def test_moves_lists_pairs_with_the_position_after(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", GAME, "5,3", "--position", MIDGAME, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert record["throw"] == {"score": [3, 5], "extra_turn": False}
    moves = {entry["move"]: entry for entry in record["moves"]}
    assert len(moves) == 8 and "3-8,12-15" in moves and "12-15,3-8" not in moves
    after = "B3......W5../...B1W4....W2/.B5........ b - off:W1B4 out:W3B2 play"
    assert moves["3-8,12-15"]["position"] == after
    assert [r["rule"] for r in moves["3-8,12-15"]["does"]] == ["N3", "N3", "T2"]


def test_one_die_with_several_pieces_is_refused_with_n6(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "moves", GAME, "4", "--position", MIDGAME)
    assert status == EXIT_BAD_INPUT
    assert "[N6]" in err and MIDGAME in err


def test_one_die_with_the_last_piece(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", GAME, "4", "--position", LAST_PIECE, "--json")
    assert status == EXIT_OK
    assert [entry["move"] for entry in json.loads(out)["moves"]] == ["20-24"]


def test_check_a_pair_in_either_order(capsys: pytest.CaptureFixture[str]) -> None:
    for move in ("3-8,12-15", "12-15,3-8"):
        status, out, _ = run(capsys, "check", GAME, "3,5", move, "--position", MIDGAME, "--json")
        assert status == EXIT_OK
        assert json.loads(out)["rule"] == "N3"


def test_check_one_die_while_both_can_be_used(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", GAME, "3,5", "3-6", "--position", MIDGAME)
    assert status == EXIT_ILLEGAL
    assert "[N7]" in out and "3-11" in out


def test_check_pass_says_the_player_must_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "check", GAME, "3,5", "pass", "--position", MIDGAME, "--lang", "fr"
    )
    assert status == EXIT_ILLEGAL
    assert "[N7]" in out and "interdit" in out


# ----- play ------------------------------------------------------------------------------------
def test_play_lists_many_moves_compactly_and_saves_pairs(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    table = play(path, ["5,6", "8"], game=GAME)
    assert "19 moves:" in table.text
    assert "  1. 1-12        2. 3-14        3. 5-16" in table.text
    assert "[white, 5,6] move>" in table.text
    saved = json.loads(path.read_text())
    assert saved["actions"] == ["throw 5,6", "move 7-12,1-7"]
    game, _ = savefile.load(path)
    assert game.fen() == saved["position"]


def test_play_refuses_one_die_and_goes_on(tmp_path: Path) -> None:
    table = play(tmp_path / "g.json", ["4", "position"], game=GAME)
    assert "one die only with one piece left" in table.text and "[N6]" in table.text
    assert table.said[-1].strip().endswith("w - off:- out:- play")


def test_play_a_blocked_player_loses(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    blocked = "....B5...../........../..W5....B3B1. w - off:W1W2B4 out:W3W4B2 play"
    game = games.get(GAME).game(blocked)
    savefile.save(game, path, blocked)
    table = play(path, ["5,6", "1"], game=GAME)
    assert "No move possible: you lose." in table.text
    assert "Game over: black wins." in table.text
