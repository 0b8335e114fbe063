"""Property tests of the notation readers: positions, moves and throws.

Whatever a person types, a reader either returns a value whose notation reads back to the
same value, or raises the project's :class:`NotationError` (``errors.py``: "anything a person
types that the engine cannot accept ends here, never in a traceback"). Texts are arbitrary,
or near-valid: valid notations from random play with characters or fields replaced,
deleted, inserted, duplicated or swapped.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion import games
from companion.core import END, IN, OFF, PASS, START, Move, RaceGame, RuleSet
from companion.errors import NotationError
from companion.games.senet import BLACK, WHITE, Phase, SenetPosition, SenetRules
from companion.throws import Throw

NAMES = games.names()
MAX_ACTIONS = 10_000  # per random game collecting valid notations (Mehen: a few thousand)

FAST = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAY = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Characters that readers meet in typed or pasted text: the notation's own, case variants,
# Unicode digits that str.isdigit() accepts (superscripts int() refuses, Arabic-Indic and
# mathematical digits it reads), and spaces str.split() splits on.
ODD_CHARACTERS = "²³¹①٣𝟓\u3000\xa0\t\n\x0bİıß"
NOTATION_ALPHABET = "WB./-0123456789 wbopenilayfrstMPmpdx" + ODD_CHARACTERS
HUGE_NUMBER = "9" * 5000  # longer than int()'s default limit of 4300 digits


# ----- valid notations, from random play ---------------------------------------------------
def play(rules: RuleSet, seed: int, actions: int) -> RaceGame[Any]:
    """A game of ``rules`` after ``actions`` random throws and moves (or at its end)."""
    rng = random.Random(seed)
    game = rules.game()
    for _ in range(actions):
        if game.is_over():
            break
        if game.position.throw is None:
            game.throw(game.random_throw(rng))
        else:
            game.push_fast(rng.choice(game.legal_moves()))
    return game


@cache
def valid_notations(name: str) -> tuple[str, ...]:
    """Every position of a few random games, throws pending or not, in notation."""
    rules = games.get(name)
    fens: dict[str, None] = {}
    for seed in range(3):
        game = play(rules, seed, MAX_ACTIONS)
        assert game.is_over()
        while game.history:
            fens[game.fen()] = None
            game.pop()
        fens[game.fen()] = None
    return tuple(fens)


@cache
def reader(name: str) -> RaceGame[Any]:
    """A game of the rule set, used only for its parse_position and format_position."""
    return games.get(name).game()


# ----- near-valid texts ---------------------------------------------------------------------
# Replacements for each field (board, side, throw, phase, off), valid or not.
FIELD_TOKENS: tuple[tuple[str, ...], ...] = (
    ("WBWBWBWBWB/........../..........", "........../........../..........", "/", "//", "-"),
    ("w", "b", "1", "2", "W", "B", "0", "3", "white", "ww", "-"),
    ("-", "--", "0", "1", "2", "3", "4", "5", "6", "7", "10", "01", "+1", "-1", "1.0"),
    ("opening", "play", "first", "Play", "PLAY", "end", "over", "opening,", "-", "1"),
    ("0/0", "1/0", "0/1", "3/4", "5/5", "6/6", "7/0", "0/7", "7/7", "5/0", "0/5", "8/0"),
)
# Replacements for the fields that hold numbers: digits str.isdigit() accepts.
NUMBER_TOKENS = ("²", "٣", "𝟓", "①", "0²", HUGE_NUMBER)
OFF_TOKENS = (
    *("00/00", "-1/0", "0/", "/0", "0/0/0", "1-0", "²/0", "0/³", "٣/0", "0/①"),
    *(HUGE_NUMBER + "/0", "0/" + HUGE_NUMBER),
)
SEPARATORS = (" ", " ", " ", "  ", "\t", "\n", "\u3000", "\xa0", "", "/")


@st.composite
def mutated_board(draw: st.DrawFn, board: str) -> str:
    """A board field with squares swapped, replaced, deleted or inserted."""
    cells = list(board)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(("swap", "replace", "delete", "insert")))
        i = draw(st.integers(0, len(cells) - 1)) if cells else 0
        if op == "swap" and cells:
            j = draw(st.integers(0, len(cells) - 1))
            cells[i], cells[j] = cells[j], cells[i]
        elif op == "replace" and cells:
            cells[i] = draw(st.sampled_from("WB./wb0 x²"))
        elif op == "delete" and cells:
            del cells[i]
        else:
            cells.insert(i, draw(st.sampled_from("WB./")))
    return "".join(cells)


@st.composite
def near_valid_position(draw: st.DrawFn, name: str) -> str:
    """A valid notation from random play, then up to three mutations, and other spaces."""
    fields = draw(st.sampled_from(valid_notations(name))).split()
    ops = ("token", "token", "token", "number", "text", "board", "drop", "duplicate", "swap")
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from((*ops, "char")))
        if not fields:
            fields.append(draw(st.text(NOTATION_ALPHABET, max_size=12)))
            continue
        i = draw(st.integers(0, len(fields) - 1))
        if op == "token":
            fields[i] = draw(st.sampled_from(FIELD_TOKENS[min(i, len(FIELD_TOKENS) - 1)]))
        elif op == "number":
            tokens = OFF_TOKENS if i >= 4 else NUMBER_TOKENS
            fields[i] = draw(st.sampled_from(tokens))
        elif op == "text":
            fields[i] = draw(st.text(NOTATION_ALPHABET, max_size=12))
        elif op == "board":
            fields[0] = draw(mutated_board(fields[0]))
        elif op == "drop":
            del fields[i]
        elif op == "duplicate":
            fields.insert(i, fields[i])
        elif op == "swap":
            j = draw(st.integers(0, len(fields) - 1))
            fields[i], fields[j] = fields[j], fields[i]
        else:  # one character of one field replaced, deleted or inserted
            field = fields[i]
            k = draw(st.integers(0, len(field)))
            char = draw(st.sampled_from(NOTATION_ALPHABET))
            how = draw(st.sampled_from(("replace", "delete", "insert")))
            if how == "insert" or not field[k:]:
                fields[i] = field[:k] + char + field[k:]
            elif how == "replace":
                fields[i] = field[:k] + char + field[k + 1 :]
            else:
                fields[i] = field[:k] + field[k + 1 :]
    text = ""
    for field in fields:
        text += draw(st.sampled_from(SEPARATORS)) if text else ""
        text += field
    lead, trail = draw(st.sampled_from(("", " ", "\n"))), draw(st.sampled_from(("", " ", "\n")))
    return lead + text + trail


# ----- positions ----------------------------------------------------------------------------
def check_senet_position(rules: SenetRules, position: SenetPosition) -> None:
    """What docs/notation.md ("What makes a position valid") requires of a position read."""
    board = position.board
    pieces = rules.pieces
    assert len(board) == 30 and set(board) <= {"W", "B", "."}, position
    assert board[26] == ".", f"a piece rests on 27: {position}"
    assert board.count("W") + position.off[WHITE] == pieces, position
    assert board.count("B") + position.off[BLACK] == pieces, position
    assert position.turn in (WHITE, BLACK), position
    assert position.throw is None or position.throw in rules.throws.scores, position
    assert position.phase is not Phase.FIRST or rules.first_move_square is not None, position
    if position.phase is Phase.OPENING:
        assert board == rules.start_board() and position.off == (0, 0), position
    finished = [side for side in (WHITE, BLACK) if position.off[side] == pieces]
    assert len(finished) <= 1, position
    if finished:
        assert position.throw is None, position


def check_position_text(name: str, text: str) -> None:
    """``text`` reads as a position whose notation reads back to it, or is refused with a
    NotationError that quotes it; a position read can be played on."""
    rules = games.get(name)
    game = reader(name)
    try:
        position = game.parse_position(text)
    except NotationError as error:
        assert repr(text) in str(error), f"the message does not quote the text: {error}"
        with pytest.raises(NotationError):
            rules.game(text)
        return
    fen = game.format_position(position)
    again = game.parse_position(fen)
    assert again == position, f"{text!r} -> {fen!r} -> {again}"
    assert game.format_position(again) == fen
    opened = rules.game(text)
    assert opened.position == position
    assert opened.fen() == fen
    if isinstance(rules, SenetRules):
        assert isinstance(position, SenetPosition)
        check_senet_position(rules, position)
    # A position that was accepted can be played on.
    if opened.is_over():
        assert opened.legal_moves() == []
        return
    if opened.position.throw is None:
        opened.throw(opened.random_throw(random.Random(len(text))))
    legal = opened.legal_moves()
    assert legal, f"no legal move, not even a pass: {opened.fen()}"
    assert opened.explain(legal[0]).legal, (legal[0], opened.fen())
    opened.push(legal[0])
    assert game.parse_position(opened.fen()) == opened.position


BOARD = "WBWBWBWBWB/........../.........."


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(text=st.text(max_size=80))
@example(text=f"{BOARD} 1 ² opening 0/0")
@example(text=f"{BOARD} 1 - opening ²/0")
@example(text=f"{BOARD} 1 {HUGE_NUMBER} opening 0/0")
@example(text=f"{BOARD} w - play 0/{HUGE_NUMBER}")
def test_any_text_reads_as_a_position_or_a_notation_error(name: str, text: str) -> None:
    check_position_text(name, text)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_notation_like_text_reads_as_a_position_or_a_notation_error(
    name: str, data: st.DataObject
) -> None:
    words = st.text(NOTATION_ALPHABET, min_size=1, max_size=32)
    text = data.draw(st.lists(words, min_size=4, max_size=6).map(" ".join))
    check_position_text(name, text)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(data=st.data())
def test_near_valid_text_reads_as_a_position_or_a_notation_error(
    name: str, data: st.DataObject
) -> None:
    check_position_text(name, data.draw(near_valid_position(name)))


@pytest.mark.parametrize("name", NAMES)
def test_the_near_valid_texts_are_not_all_refused(name: str) -> None:
    """The mutations keep a share of valid texts, so the round trip above is exercised."""
    game = reader(name)
    accepted = 0

    @settings(max_examples=100, deadline=None, database=None)
    @given(data=st.data())
    def count(data: st.DataObject) -> None:
        nonlocal accepted
        try:
            game.parse_position(data.draw(near_valid_position(name)))
        except (NotationError, ValueError):  # ValueError: reported by the tests above
            return
        accepted += 1

    count()
    assert accepted >= 5


@pytest.mark.parametrize("name", NAMES)
@PLAY
@given(seed=st.integers(0, 2**32 - 1), actions=st.integers(0, 1200))
def test_positions_reached_by_random_play_read_back(name: str, seed: int, actions: int) -> None:
    rules = games.get(name)
    game = play(rules, seed, actions)
    fen = game.fen()
    parsed = game.parse_position(fen)
    assert parsed == game.position, f"{fen!r} reads back as {parsed}"
    assert game.format_position(parsed) == fen
    assert rules.game(fen).fen() == fen
    if isinstance(rules, SenetRules):
        assert isinstance(game.position, SenetPosition)
        check_senet_position(rules, game.position)
    for action in reversed(game.history):  # and every position before it
        assert game.pop() == action
        fen = game.fen()
        assert game.format_position(game.parse_position(fen)) == fen


# ----- moves --------------------------------------------------------------------------------
SQUARE_TOKENS = (
    *("1", "9", "14", "26", "30", "31", "99", "0", "00", "007", "-1", "+3", "3.0", " 3"),
    *("in", "IN", "In", "off", "OFF", "Off", "of", "²", "٣", "𝟓", "①", "", HUGE_NUMBER),
)
MOVE_KINDS = ("", "", "p", "pay", "P", "in", "-", "x1", "toolongakind")
MOVE_SEPARATORS = ("-", "-", "--", "–", "—", " - ", "", "_", " ")
MOVE_WORDS = (
    "pass",
    "PASS",
    " Pass ",
    "start",
    "START",
    "pas",
    "passs",
    "start-1",
    "pass-",
    "end",
    " End",
)


@st.composite
def near_valid_move(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(MOVE_WORDS))
    start = draw(st.sampled_from(SQUARE_TOKENS) | st.integers(0, 40).map(str))
    end = draw(st.sampled_from(SQUARE_TOKENS) | st.integers(0, 40).map(str))
    separator = draw(st.sampled_from(MOVE_SEPARATORS))
    kind = draw(st.sampled_from(MOVE_KINDS))
    lead, trail = draw(st.sampled_from(("", " ", "\t"))), draw(st.sampled_from(("", " ", "\n")))
    pair = "," + draw(near_valid_move()) if draw(st.integers(0, 5)) == 0 else ""
    return lead + kind + start + separator + end + trail + pair


def check_move_text(text: str) -> None:
    try:
        move = Move.parse(text)
    except NotationError:
        return
    written = str(move)
    again = Move.parse(written)
    assert again == move, f"{text!r} -> {move!r} -> {written!r} -> {again!r}"
    assert str(again) == written
    if move.moves_a_piece:
        assert move.start == IN or move.start >= 1, move
        assert move.end == OFF or move.end >= 1, move
    else:
        assert move in (PASS, START, END), move


@FAST
@given(text=st.text(max_size=40))
@example(text="²-3")
@example(text="1-①")
@example(text=f"{HUGE_NUMBER}-2")
@example(text="inin-1,start-1")
def test_any_text_reads_as_a_move_or_a_notation_error(text: str) -> None:
    check_move_text(text)


@FAST
@given(text=near_valid_move())
def test_near_valid_text_reads_as_a_move_or_a_notation_error(text: str) -> None:
    check_move_text(text)


SINGLE_MOVES = st.builds(
    Move,
    start=st.one_of(st.just(IN), st.integers(1, 10**6)),
    end=st.one_of(st.just(OFF), st.integers(1, 10**6)),
    kind=st.sampled_from(("", "p", "pay", "x")),
)


@FAST
@given(
    move=SINGLE_MOVES,
    then=st.none() | SINGLE_MOVES,
    upper=st.booleans(),
    spaces=st.sampled_from(("", " ", "  ", "\t")),
)
def test_every_move_reads_back_from_its_notation(
    move: Move, then: Move | None, upper: bool, spaces: str
) -> None:
    move = replace(move, then=then)
    text = str(move).upper() if upper else str(move)
    assert Move.parse(spaces + text + spaces) == move
    assert Move.parse(text).steps == ((move,) if then is None else (replace(move, then=None), then))


def test_pass_and_start_read_back() -> None:
    for move in (PASS, START, END):
        assert Move.parse(str(move)) == move
        assert Move.parse(str(move).upper()) == move


# ----- throws -------------------------------------------------------------------------------
# S2 and K1: the score for each count of marked (senet-kendall: white) faces up, and the
# scores that give another throw.
THROW_TABLES = {
    "senet-migo": ({0: 5, 1: 1, 2: 2, 3: 3, 4: 4}, frozenset({1, 4, 5})),
    "senet-kendall": ({0: 6, 1: 1, 2: 2, 3: 3, 4: 4}, frozenset({1, 4, 6})),
}


def check_throw_text(name: str, text: str) -> None:
    rules = games.get(name)
    try:
        throw = rules.parse_throw(text)
    except NotationError:
        return
    assert isinstance(throw, Throw)
    assert throw in rules.throws.throws, throw
    assert rules.parse_throw(str(throw)) == throw
    if name in THROW_TABLES:
        scores, extra = THROW_TABLES[name]
        assert throw.score in scores.values(), throw
        assert throw.extra_turn == (throw.score in extra), throw


@st.composite
def near_valid_throw(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 2))
    if kind == 0:
        text = draw(st.text("MPmp", min_size=0, max_size=6))
    elif kind == 1:
        text = str(draw(st.integers(-2, 12)))
    else:
        text = draw(
            st.sampled_from(("²", "٣", "𝟓", "①", "+3", "3.0", "0x3", "MMPPx", HUGE_NUMBER, "-"))
        )
    lead, trail = draw(st.sampled_from(("", " ", "\t"))), draw(st.sampled_from(("", " ", "\n")))
    return lead + text + trail


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(text=st.text(max_size=20))
@example(text="²")
@example(text=HUGE_NUMBER)
def test_any_text_reads_as_a_throw_or_a_notation_error(name: str, text: str) -> None:
    check_throw_text(name, text)


@pytest.mark.parametrize("name", NAMES)
@FAST
@given(text=near_valid_throw())
def test_near_valid_text_reads_as_a_throw_or_a_notation_error(name: str, text: str) -> None:
    check_throw_text(name, text)


@pytest.mark.parametrize("name", sorted(THROW_TABLES))
@settings(max_examples=50, deadline=None)
@given(faces=st.lists(st.sampled_from("MPmp"), min_size=4, max_size=4).map("".join))
def test_faces_read_as_the_decisions_throw_table(name: str, faces: str) -> None:
    scores, extra = THROW_TABLES[name]
    score = scores[faces.upper().count("M")]
    assert games.get(name).parse_throw(faces) == Throw(score, score in extra)
