"""Mehen against its rules: the cases of tests/cases/mehen.txt, the throws, the options, the
notation, the command line and a terminal session with more than two players.

Every rule id of DECISIONS.md for Mehen (M1-M10), T1, T2 and G1 has a section of cases, with
a case the rules allow and one they refuse; every key of the rule book is named by at least
one case. Expected values are written from the seed text and DECISIONS.md, not read from
the engine.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from cases_reader import Case, read_cases
from game_helpers import TypedLines
from test_ruledocs import DECISIONS, decision_ids

from companion import games
from companion.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_OK, main
from companion.core import END, PASS, Move
from companion.errors import NotationError, TurnError
from companion.games.mehen import Mehen, MehenRules
from companion.play import run_session
from companion.throws import StickTable, Throw

NAME = "mehen"
CASES = read_cases(NAME)
START_88 = "88 -/86/- r:6:wait:-,b:6:wait:- r - play"


def mehen() -> MehenRules:
    rules = games.get(NAME)
    assert isinstance(rules, MehenRules)
    return rules


# ----- rule cases ----------------------------------------------------------------------------
def test_every_decision_id_has_rules_on_the_page() -> None:
    ids = decision_ids(NAME) if DECISIONS.is_file() else []
    expected = [f"M{n}" for n in range(1, 11)]
    assert ids in ([], expected)
    page = (Path(__file__).parents[1] / "docs" / "rules" / f"{NAME}.md").read_text()
    assert all(f"### {rule_id}\n" in page for rule_id in expected)


def test_our_interpretations_are_marked_as_ours() -> None:
    """DECISIONS.md marks these as ours; the rule book must not present them as source."""
    book = mehen().rules
    ours = ["pass", "board", "skip", "protected-edge", "backward-occupied", "exit-two"]
    assert all(book[key].basis.value == "decision" for key in [*ours, "agreement"])
    assert book["swap"].basis.value == "source" and book["swap"].quote


# ----- throws --------------------------------------------------------------------------------
SCORES = {0: 6, 1: 1, 2: 2, 3: 3}  # M2: decorated faces up -> score
EXTRA = {1, 3, 6}


def sticks() -> StickTable:
    table = mehen().throws
    assert isinstance(table, StickTable)
    return table


def test_every_combination_of_three_sticks() -> None:
    for letters in product("MP", repeat=3):
        faces = "".join(letters)
        score = SCORES[faces.count("M")]
        assert sticks().read_faces(faces) == Throw(score, score in EXTRA), faces


@pytest.mark.parametrize("faces", ["MMPP", "MP", "MXP", "", "4", "0"])
def test_what_three_sticks_cannot_show_is_refused(faces: str) -> None:
    with pytest.raises(NotationError):
        mehen().parse_throw(faces)


def test_exact_probabilities() -> None:
    assert dict(sticks().score_probabilities()) == {
        6: Fraction(1, 8),
        1: Fraction(3, 8),
        2: Fraction(3, 8),
        3: Fraction(1, 8),
    }


def test_throw_record_adds_the_predators_double() -> None:
    rules = mehen()
    for faces, record in [
        ("MPP", {"score": 1, "extra_turn": True, "predator_score": 2}),
        ("MMP", {"score": 2, "extra_turn": False, "predator_score": 4}),
        ("MMM", {"score": 3, "extra_turn": True, "predator_score": 6}),
        ("PPP", {"score": 6, "extra_turn": True, "predator_score": 12}),
    ]:
        assert rules.throw_record(rules.parse_throw(faces)) == record


# ----- options and positions that carry them ------------------------------------------------
def test_options_set_players_and_length() -> None:
    rules = mehen().with_options({"players": "4", "length": "60"})
    game = rules.game()
    assert game.fen() == ("60 -/58/- r:6:wait:-,b:6:wait:-,g:6:wait:-,y:6:wait:- r - play")
    assert [rules.game().turn_label()] == ["red"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": "7"}, "2 to 6 players"),
        ({"players": "1"}, "2 to 6 players"),
        ({"length": "7"}, "8 to 999 squares"),
        ({"length": "1000"}, "8 to 999 squares"),
        ({"length": "sixty"}, "whole number"),
        ({"pieces": "5"}, "no option 'pieces'"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, str], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        mehen().with_options(options)


def test_a_position_sets_the_game_up_whatever_the_rule_sets_options() -> None:
    """A saved game resumes from its start notation with the registry's rule set."""
    text = "60 -/58/- r:6:wait:-,b:6:wait:-,g:6:wait:- r - play"
    game = mehen().game(text)
    assert isinstance(game, Mehen)
    assert (game.rules.players, game.rules.length) == (3, 60)
    assert game.fen() == text
    game.throw(3)
    assert game.legal_moves() == [PASS]
    game.push(PASS)
    assert game.turn_label() == "blue" and game.turn_label("fr") == "les bleus"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("88 -/86/- r:6:wait:- r - play", "1 seats"),
        ("88 -/85/- r:6:wait:-,b:6:wait:- r - play", "86 squares"),
        ("88 -/86/- r:6:wait:-,b:6:nap:- r - play", "'wait'"),
        ("88 -/86/- r:6:wait:-,b:6:wait:- g - play", "r, b"),
        ("88 -/86/- r:6:wait:-,b:6:wait:- r 4 play", "1, 2, 3, 6"),
        ("88 -/86x/- r:6:wait:-,b:6:wait:- r - play", "'x'"),
        ("88 -/999999999/- r:6:wait:-,b:6:wait:- r - play", "86 squares"),
        ("88 -/86/- r:6:wait:r,b:6:wait:- r - play", "other seats"),
    ],
)
def test_bad_positions_say_what_is_wrong_and_show_the_start(text: str, problem: str) -> None:
    with pytest.raises(NotationError) as caught:
        mehen().game(text)
    message = str(caught.value)
    assert repr(text) in message and problem in message and START_88 in message


def test_tail_and_centre_read_in_any_order_and_write_seat_by_seat() -> None:
    game = mehen().game("20 brRr/18/bbBrbrbbrr r:0:on:-,b:0:on:- r 2 play")
    assert game.fen() == "20 rrRb/18/rrrrbbbbbB r:0:on:-,b:0:on:- r 2 play"


# ----- end of the game -----------------------------------------------------------------------
DRAW = "20 -/2R15/rrrrrbbbbb r:0:on:b,b:0:out:r r 2 play"


def test_a_draw_is_over_with_no_winner() -> None:
    game = mehen().game(DRAW)
    game.push("p4-off")
    assert game.is_over() and game.winner() is None
    assert game.result_text() == "draw: red, blue (6)"
    assert game.result_text("fr") == "égalité : les rouges, les bleus (6)"
    assert game.legal_moves() == []
    with pytest.raises(TurnError):
        game.throw(1)


def test_a_win_names_the_colour_and_its_score() -> None:
    game = mehen().game("20 -/2R15/rrrrrrbbbbb r:0:on:b,b:0:wait:- r 2 play")
    effects = game.push("p4-off")
    assert game.winner() == 0 and game.result_text() == "red wins (7)"
    assert effects[-1].long() == (
        "Every predator has left the board or can never be released: the game ends. "
        "Scores (own pieces in play + pieces eaten): red 7, blue 5; red wins (7)."
    )


def test_the_end_by_agreement_is_explained_counted_and_undone() -> None:
    game = mehen().game("20 r/3r2b11/- r:4:wait:-,b:5:wait:- r - play")
    assert game.legal_moves() == [END]
    explanation = game.explain(END)
    assert explanation.legal and explanation.deciding.rule.id == "M10"
    assert "red 2, blue 1" in explanation.deciding.long()  # pieces to enter do not count
    game.push(END)
    assert game.is_over() and game.winner() == 0
    assert game.pop() == END
    assert not game.is_over()
    game.throw(2)
    refused = game.explain(END)
    assert not refused.legal and "undo it first" in refused.deciding.long()


# ----- command line and terminal play --------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_throw_json_keeps_score_and_extra_turn_and_adds_the_predators(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "throw", NAME, "MPP", "--json")
    record = json.loads(out)
    assert status == EXIT_OK
    assert (record["score"], record["extra_turn"], record["predator_score"]) == (1, True, 2)
    assert record["probability"] == "3/8"


def test_throw_with_four_sticks_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "throw", NAME, "MMPP")
    assert status == EXIT_BAD_INPUT and "3 letters" in err


def test_moves_with_options_start_a_bigger_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("moves", NAME, "MPP", "--option", "players=4", "--option", "length=60", "--json")
    status, out, _ = run(capsys, *args)
    record = json.loads(out)
    assert status == EXIT_OK
    assert record["position"].startswith("60 -/58/- r:6:wait:-,b:6:wait:-,g:6:wait:-,y:")
    assert record["throw"] == {"score": 1, "extra_turn": True, "predator_score": 2}
    assert [entry["move"] for entry in record["moves"]] == ["in-1"]
    assert record["to_move"] == "red"


def test_moves_lists_predator_moves_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    position = "20 -/10b3R3/rrrrrr r:0:on:-,b:5:wait:- r - play"
    status, out, _ = run(capsys, "moves", NAME, "MMP", "--position", position, "--lang", "fr")
    assert status == EXIT_OK
    assert "les rouges jouent un 2" in out
    assert "p16-12" in out and "Mangé en 12" in out


def test_check_names_the_predators_rule(capsys: pytest.CaptureFixture[str]) -> None:
    position = "20 -/10bb2R3/rrrrrr r:0:on:-,b:4:wait:- r - play"
    status, out, _ = run(capsys, "check", NAME, "2", "p16-12", "--position", position)
    assert status == EXIT_ILLEGAL
    assert out.startswith("p16-12: illegal [M5] 12 is protected by 13.")


@pytest.mark.parametrize("option", ["players=9", "length=3", "players=two"])
def test_bad_options_exit_2_without_a_traceback(
    capsys: pytest.CaptureFixture[str], option: str
) -> None:
    status, _, err = run(capsys, "moves", NAME, "1", "--option", option)
    assert status == EXIT_BAD_INPUT and "Traceback" not in err
    assert option.partition("=")[0] in err


def test_play_three_players_then_end_by_agreement_and_resume(tmp_path: Path) -> None:
    rules = mehen().with_options({"players": "3", "length": "30"})
    path = tmp_path / "mehen.json"
    lines = ["MPP", "in-1", "MMP", "1", "PPP", "pass", "MMP", "pass", "end"]
    table = TypedLines(lines)
    assert run_session(rules, new=True, save=str(path), ask=table.ask, say=table.say) == 0
    text = "\n".join(table.printed)
    assert "[red] throw> " in text and "[green] throw> " in text
    assert "Game over: red wins (1)." in text
    saved = json.loads(path.read_text())
    assert saved["start"] == "30 -/28/- r:6:wait:-,b:6:wait:-,g:6:wait:- r - play"
    assert saved["actions"][-1] == "move end"
    # the registry's rule set (2 players, 88 squares) resumes the 3-player game, and undo works
    again = TypedLines(["undo", "position"])
    assert run_session(NAME, save=str(path), ask=again.ask, say=again.say) == 0
    assert "undone: end" in "\n".join(again.printed)
    position = next(line for line in reversed(again.printed) if line.startswith("  30 "))
    assert position.endswith(" r - play") and "g:6:wait:-" in position


def test_moves_listed_in_play_read_back_as_moves() -> None:
    game = mehen().game("20 -/8R7r1/rrrrr r:0:on:-,b:6:wait:- r 3 play")
    assert sorted(map(str, game.legal_moves())) == ["p10-16", "p10-4"]
    assert all(Move.parse(str(move)) == move for move in game.legal_moves())


LEGAL_CASES = [case for case in CASES if case.kind.value == "legal"]


@pytest.mark.parametrize("case", LEGAL_CASES, ids=[case.name for case in LEGAL_CASES])
def test_every_ruling_of_a_case_reads_in_both_languages(case: Case) -> None:
    game = mehen().game(case.position)
    for ruling in game.explain(Move.parse(case.move)).rulings:
        for lang in ("fr", "en"):
            assert "{" not in ruling.short(lang) + ruling.long(lang), ruling


# ----- docs/notation.md ----------------------------------------------------------------------
NOTATION = Path(__file__).resolve().parents[1] / "docs" / "notation.md"


def notation_section() -> str:
    text = NOTATION.read_text(encoding="utf-8")
    start = text.index("## Mehen (mehen)")
    end = text.find("\n## ", start)
    return text[start:] if end < 0 else text[start:end]


def documented_positions() -> list[str]:
    """Lines of the section's code blocks written as positions (they start with a length)."""
    blocks = notation_section().split("```")[1::2]
    lines = [line.strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line[:1].isdigit() and len(line.split()) == 6]


def test_the_documented_positions_read_back_exactly() -> None:
    positions = documented_positions()
    assert len(positions) >= 6
    for text in positions:
        assert mehen().game(text).fen() == text


def test_the_documented_examples_say_what_the_rules_do() -> None:
    early, swapped, *_ = documented_positions()[2:]
    game = mehen().game(early)
    assert sorted(map(str, game.legal_moves())) == ["1-3", "5-7"]
    game.set_throw(3)
    game.push("5-8")
    assert game.fen() == swapped
    hunt = "20 -/10b3R3/rrrrrr r:0:on:-,b:5:wait:- r 2 play"
    eaten = "20 -/10R7/rrrrrr r:0:on:b,b:5:wait:- b - play"
    assert {hunt, eaten} <= set(documented_positions())
    game = mehen().game(hunt)
    assert sorted(map(str, game.legal_moves())) == ["p16-12", "p16-20"]
    game.push("p16-12")
    assert game.fen() == eaten
    end = mehen().game("20 -/18/rrrrrrbbbb r:0:out:bb,b:0:out:- b - over")
    assert end.is_over() and end.winner() == 0
    assert [end.position.score(seat) for seat in (0, 1)] == [8, 4]


def test_the_documented_throw_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    section = notation_section()
    for faces, score, then in [("PPP", 6, "again"), ("MPP", 1, "again"), ("MMP", 2, "pass")]:
        throw = mehen().parse_throw(faces)
        assert (throw.score, throw.extra_turn) == (score, then == "again")
        probability = sticks().probability(throw)
        extra = "throw again" if throw.extra_turn else "pass the hand"
        row = (
            f"| `{faces}` | {faces.count('M')} | {score} | {2 * score} | {extra} | {probability} |"
        )
        assert row in section
    documented = json.loads(section.split("```")[-2])
    _, out, _ = run(capsys, "throw", NAME, "MPP", "--json")
    assert json.loads(out) == documented
