"""The command line: output, JSON, exit statuses, and clear messages for bad input."""

from __future__ import annotations

import json

import pytest

from companion.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main

MIGO_START = "WBWBWBWBWB/WBWB....../.......... w - play 0/0"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_games_lists_both_senet_rule_sets(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "games", "--json")
    assert status == EXIT_OK
    assert {"senet-migo", "senet-kendall"} <= {entry["name"] for entry in json.loads(out)}


@pytest.mark.parametrize(
    ("game", "faces", "score", "extra"),
    [
        ("senet-migo", "PPPP", 5, True),
        ("senet-migo", "MMPP", 2, False),
        ("senet-migo", "mpmm", 3, False),
        ("senet-kendall", "PPPP", 6, True),
        ("senet-kendall", "MMMM", 4, True),
        ("senet-kendall", "PMPP", 1, True),
    ],
)
def test_throw_json_has_score_and_extra_turn(
    capsys: pytest.CaptureFixture[str], game: str, faces: str, score: int, extra: bool
) -> None:
    status, out, _ = run(capsys, "throw", game, faces, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert (record["score"], record["extra_turn"]) == (score, extra)


@pytest.mark.parametrize("faces", ["MMP", "MMPPP", "MXPP", ""])
def test_throw_with_wrong_faces_is_bad_input(
    capsys: pytest.CaptureFixture[str], faces: str
) -> None:
    status, _, err = run(capsys, "throw", "senet-migo", faces)
    assert status == EXIT_BAD_INPUT
    assert "4 letters" in err and "Traceback" not in err


def test_moves_lists_each_move_with_the_position_after(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "moves", "senet-migo", "MMMP", "--position", MIGO_START, "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    moves = {entry["move"]: entry for entry in record["moves"]}
    assert set(moves) == {"1-4", "3-6", "5-8", "7-10", "9-12", "11-14", "13-16"}
    assert moves["13-16"]["position"] == "WBWBWBWBWB/WB.B.W..../.......... b - play 0/0"
    assert "swap" in {ruling["key"] for ruling in moves["1-4"]["does"]}


def test_moves_replaces_a_pending_throw(capsys: pytest.CaptureFixture[str]) -> None:
    pending = MIGO_START.replace(" w - ", " w 4 ")
    _, out, _ = run(capsys, "moves", "senet-migo", "2", "--position", pending, "--json")
    assert json.loads(out)["throw"] == {"score": 2, "extra_turn": False}


def test_moves_from_the_start_is_the_opening(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "senet-kendall", "1", "--json")
    assert [entry["move"] for entry in json.loads(out)["moves"]] == ["10-11"]


def test_check_legal_move_exits_0_with_rule_and_source(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "check", "senet-migo", "3", "13-16", "--position", MIGO_START, "--json"
    )
    record = json.loads(out)
    assert status == EXIT_OK
    assert record["legal"] is True
    assert record["rulings"][0]["citation"].startswith("Migo rule 7")


def test_check_illegal_move_exits_1_and_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    position = "WWWB.B..../........../.......... b - play 4/5"
    status, out, _ = run(capsys, "check", "senet-migo", "2", "4-6", "--position", position)
    assert status == EXIT_ILLEGAL
    assert out.startswith("4-6: illegal [G2]")


def test_check_says_which_rule_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    position = "WWW.B...../........../.......... b - play 4/6"
    status, out, _ = run(
        capsys, "check", "senet-migo", "4", "5-1", "--position", position, "--lang", "fr"
    )
    assert status == EXIT_ILLEGAL
    assert "interdit" in out and "S10" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("check", "senet-migo", "3", "1-4", "--position", "nonsense"), "position 'nonsense'"),
        (("check", "senet-migo", "9", "1-4", "--position", MIGO_START), "scores only"),
        (("check", "senet-migo", "3", "1to4", "--position", MIGO_START), "move '1to4'"),
        (("check", "chess", "3", "1-4", "--position", MIGO_START), "no rule set named 'chess'"),
        (("moves", "senet-migo", "3", "--position", MIGO_START.replace("0/0", "0/1")), "pieces"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, _, err = run(capsys, *args)
    assert status == EXIT_BAD_INPUT
    assert message in err


def test_demo_plays_a_game_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "--text", "--seed", "3")
    assert status == EXIT_OK
    assert "Game over after" in out and "wins" in out


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("players=4", "no option 'players'"),
        ("players", "write NAME=VALUE"),
    ],
)
def test_options_a_rule_set_lacks_are_refused_clearly(
    capsys: pytest.CaptureFixture[str], option: str, message: str
) -> None:
    status, _, err = run(capsys, "moves", "senet-migo", "3", "--option", option)
    assert status == EXIT_BAD_INPUT
    assert message in err
