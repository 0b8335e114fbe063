"""senet-modern against its rules: the cases of tests/cases/senet-modern.txt, the dice, and
what a case line cannot say (a throw refused, the order of a pair, the end of the game).

Expected values are written from DECISIONS.md (N1-N8) and the seed, not read from the engine.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product
from pathlib import Path
from random import Random

import pytest
from test_ruledocs import DECISIONS, decision_ids, page

from companion import games
from companion.core import PASS, Move, RuleSet
from companion.errors import IllegalMoveError, NotationError, TurnError
from companion.games.modern import DiceTable, Modern, ModernRules
from companion.randomplay import random_action
from companion.rules import Basis, Ruling
from companion.throws import Throw

NAME = "senet-modern"

# Positions of the case file (see the comments there).
MIDGAME = "..W5....B3../.W4.B1.....W2/.B5........ w - off:W1B4 out:W3B2 play"
LAST_PIECE = "B1........./.B3.......W5/...B5...... w - off:W1W2B4 out:W3W4B2 play"
TWO_HITS = "..W5..W4B5.../B4........B1/.......... w - off:W1B3 out:W2W3B2 play"


def rules() -> ModernRules:
    found = games.get(NAME)
    assert isinstance(found, ModernRules)
    return found


def game(position: str | None = None, throw: str | None = None) -> Modern:
    played = rules().game(position)
    assert isinstance(played, Modern)
    if throw is not None:
        played.throw(throw)
    return played


# ----- the case file ----------------------------------------------------------------------------
def test_every_decision_id_is_on_the_rule_page() -> None:
    expected = [f"N{n}" for n in range(1, 9)]
    if DECISIONS.is_file():
        assert decision_ids(NAME) == expected
    text = page(NAME)
    assert [rule_id for rule_id in expected if f"### {rule_id}\n" not in text] == []


def test_rules_marked_ours_cite_a_decision() -> None:
    ours = {rule.key for rule in rules().rules.values() if rule.basis is Basis.DECISION}
    assert ours == {"choose-die", "bird-nearest", "must-move", "turn-completes"}
    for key in ours:
        assert "DECISIONS.md" in rules().rules[key].citation


# ----- dice (N1, N6) ----------------------------------------------------------------------------
def test_two_dice_are_readings_with_exact_chances() -> None:
    table = rules().throws
    for low, high in product(range(1, 7), repeat=2):
        throw = table.parse(f"{low},{high}")
        assert throw == Throw(low + high, False, tuple(sorted((low, high))))
        assert table.parse(f" {high} , {low} ") == throw
        assert table.probability(throw) == Fraction(1 if low == high else 2, 36)
    assert sum(o.probability for o in table.outcomes()) == 1
    assert len(table.outcomes()) == 21
    assert not any(o.throw.extra_turn for o in table.outcomes())


def test_one_die_and_its_chance() -> None:
    table = rules().throws
    for value in range(1, 7):
        assert table.parse(str(value)) == Throw(value, False, (value,))
        assert table.probability(Throw(value, False, (value,))) == Fraction(1, 6)
    assert len(table.throws) == 21 + 6


@pytest.mark.parametrize("text", ["", "0,4", "4,7", "7", "1,2,3", "4-6", "4,", ",4", "x", "²,3"])
def test_what_no_dice_show_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="4,6"):
        rules().throws.parse(text)


def test_throw_notation_reads_back() -> None:
    table = rules().throws
    for throw in table.throws:
        assert table.parse(str(throw)) == throw
        assert throw.as_dict()["score"] == list(throw.dice)


def test_dice_are_drawn_with_their_chances() -> None:
    import random

    table = DiceTable()
    rng = random.Random(5)
    draws = [table.draw(rng) for _ in range(36_000)]
    doubles = sum(1 for throw in draws if throw.dice[0] == throw.dice[1])
    assert 5_600 < doubles < 6_400  # 1/6 of the draws


def test_one_die_is_refused_with_more_than_one_piece_left() -> None:
    """N6, enforced when the throw is made: the position does not change, undo is clean."""
    played = game(MIDGAME)
    before = played.fen()
    with pytest.raises(IllegalMoveError, match=r"\[N6\]") as refused:
        played.throw("4")
    ruling = refused.value.ruling
    assert isinstance(ruling, Ruling) and ruling.rule.id == "N6"
    assert played.fen() == before
    assert played.history == []
    played.throw("4,6")
    with pytest.raises(IllegalMoveError):
        played.set_throw("4")
    assert played.fen() == before.replace(" w - ", " w 4,6 ")


def test_one_die_is_allowed_with_one_piece_left() -> None:
    played = game(LAST_PIECE, "4")
    assert played.legal_moves() == [Move.parse("20-24")]
    played.set_throw("3,4")  # or two dice: 20 + 7 = 27, the bird; 20 + 3, 20 + 4 (N7)
    assert played.legal_moves() == [Move.parse("20-27")]


# ----- pairs and their order (N3) ---------------------------------------------------------------
def test_an_equivalent_order_is_legal_but_listed_once() -> None:
    played = game(MIDGAME, "3,5")
    listed, other = Move.parse("3-8,12-15"), Move.parse("12-15,3-8")
    assert listed in played.legal_moves()
    assert other not in played.legal_moves()
    assert played.is_legal(other) and played.explain(other).legal
    after_listed = played.push(listed), played.fen()
    played.pop()
    after_other = played.push(other), played.fen()
    assert after_listed[1] == after_other[1]
    assert [r.rule.key for r in after_other[0]] == ["distance", "hit", "hand-passes"]


def test_orders_that_end_differently_are_both_listed() -> None:
    played = game(TWO_HITS, "4,5")
    moves = played.legal_moves()
    assert Move.parse("3-7,6-11") in moves and Move.parse("6-11,3-7") in moves


def test_a_pair_is_two_different_pieces() -> None:
    played = game(MIDGAME, "3,5")
    ruling = played.explain(Move.parse("3-8,8-11")).deciding
    assert (ruling.rule.key, ruling.details["sum_move"]) == ("same-piece", "3-11")


# ----- the end (N7, N8) -------------------------------------------------------------------------
BLOCKED = "....B5...../........../..W5....B3B1. w 5,6 off:W1W2B4 out:W3W4B2 play"


def test_a_player_who_cannot_move_loses() -> None:
    played = game(BLOCKED)
    assert played.legal_moves() == [PASS]
    explanation = played.explain(PASS)
    assert explanation.legal and explanation.deciding.rule.id == "N7"
    assert "lose" in explanation.deciding.short()
    played.push(PASS)
    assert played.is_over() and played.winner() == 1
    assert played.legal_moves() == []
    with pytest.raises(TurnError):
        played.throw("1,2")


def test_passing_is_refused_when_a_move_exists() -> None:
    played = game(MIDGAME, "3,5")
    with pytest.raises(IllegalMoveError, match=r"\[N7\]"):
        played.push(PASS)


def test_the_higher_score_wins_not_the_first_to_finish() -> None:
    played = game("..B1......W4/.B3......../........W5. w 2,3 off:W1W2B4B5 out:W3B2 play")
    effects = played.push("10-13,29-off")
    assert played.winner() == 1  # white 1 + 2 + 5 = 8, black 4 + 5 = 9
    end = effects[-1]
    assert (end.rule.id, end.details["white"], end.details["black"]) == ("N8", 8, 9)


def test_equal_scores_go_to_the_more_pieces_borne_off() -> None:
    # white W1, W2, W3 off: 6 points, 3 pieces; black B2, B4 off: 6 points, 2 pieces
    finished = game("........../.........B5/.......... b - off:W1W2W3B2B4 out:W4W5B1B3 play")
    assert finished.is_over() and finished.winner() == 0


def test_house_rule_end_after_two_pieces() -> None:
    from dataclasses import replace

    house = replace(rules(), end_pieces=2)
    played = house.game("..B1......W4/.B3......../........W5. w 2,3 off:W1B4 out:W2W3B2B5 play")
    played.push("10-13,29-off")
    assert played.winner() == 0  # white 1 + 5 = 6 against black 4


# ----- docs/notation.md -------------------------------------------------------------------------
NOTATION = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
MODERN_POSITION = re.compile(
    r"(?:[.WB1-5]{10,20}/){2}[.WB1-5]{10,20} [wb] [-0-9,]+ off:\S+ out:\S+ (?:play|blocked)"
)


def guide_section() -> str:
    text = NOTATION.read_text(encoding="utf-8")
    start = text.index("## Senet-Modern")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_the_guides_positions_read_back() -> None:
    examples = MODERN_POSITION.findall(guide_section())
    assert len(examples) >= 8
    for example in examples:
        assert game(example).fen() == example


def test_the_guides_examples_do_what_it_says() -> None:
    pairs = re.findall(r"```\n(\S.*)\n(\S.*)\n```", guide_section())
    assert len(pairs) == 2  # one die with the last piece; a blocked player
    for before, after in pairs:
        played = game(before)
        (move,) = played.legal_moves()
        played.push(move)
        assert played.fen() == after
    under_way = game("..W5....B3../.W4.B1.....W2/.B5........ w 3,5 off:W1B4 out:W3B2 play")
    listed = [str(move) for move in under_way.legal_moves()]
    assert len(listed) == 8 and {"3-11", "20-28"} <= set(listed)
    assert under_way.explain(Move.parse("3-6")).deciding.rule.id == "N7"
    start = game(None, "4,6")
    assert Move.parse("7-11,1-7") in start.legal_moves()
    assert not start.explain(Move.parse("1-7,7-11")).legal
    assert game(None).board_lines()[0].startswith("W5 B5 W4 B4")


def test_one_die_or_two_is_a_choice_only_with_one_piece_left() -> None:
    rules = games.get("senet-modern")
    start = rules.game()
    assert list(start.throw_options(start.position)) == ["two dice"]
    lone = _position_with_one_piece_left(rules)
    options = lone.throw_options(lone.position)
    assert list(options) == ["two dice", "one die"]
    assert sorted(o.shown for o in options["one die"]) == ["1", "2", "3", "4", "5", "6"]
    assert sum(o.probability for o in options["one die"]) == 1


def _position_with_one_piece_left(rules: RuleSet) -> Modern:
    rng = Random(4)
    for _ in range(200):
        game = rules.game()
        while not game.is_over():
            position = game.position
            if position.throw is None and len(position.squares(position.turn)) == 1:
                assert isinstance(game, Modern)
                return game
            random_action(game, rng)
    raise AssertionError("no random game left a player with one piece")
