"""Seeded random games to the end, for every Senet rule set, with invariants after every
throw and every move.

After every action: pieces are conserved, square 27 is empty, the move did to the board
what S4/S7/S8/K4-K6 say (swap, water, bearing off), the turn passed as T1/T2 and the
opening (S3, K3) say, and the end has exactly one winner. Costlier checks run after every
action in the first game of each rule set and on a random share of the others, to keep
the suite fast: moves played with ``push`` (explained) rather than ``push_fast``, and the
two compared; ``explain`` against ``legal_moves``; the notation read back; legal moves
against the geometry of DECISIONS.md. Every game is then undone to its first position.

The numbers come from ``DECISIONS.md``, not from the engine's own parameters, wherever the
rules fix them: pieces per side, the throw table's extra throws, who takes which colour in
the opening. A game that fails is replayed by its seed: ``play_random_game(rules, seed)``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

import pytest
from game_helpers import undo_and_replay, undo_to_start

from companion import games
from companion.core import OFF, PASS, START, Action, Move, RaceGame
from companion.errors import IllegalMoveError, TurnError
from companion.games.senet import BLACK, WHITE, Phase, Senet, SenetPosition, SenetRules
from companion.rules import Ruling, Verdict
from companion.throws import Throw

GAMES_PER_RULE_SET = 60
FULLY_CHECKED = 1  # of which the first games run every check after every action
MAX_ACTIONS = 20_000  # throws plus moves; a random game this long is stuck in a loop
EXPLAIN_SAMPLE = 4  # non-legal candidate moves explained after a throw (PASS is always one)
UNDO_EVERY = 37  # actions between two checks that undo a few actions and replay them


@dataclass(frozen=True)
class Rates:
    """How often the costlier checks run; the others run after every action."""

    push: float  # moves played with push (explained, compared with push_fast)
    explain: float  # throws after which every legal move and a few others are explained
    notation: float  # positions whose notation is read back
    reopen: float  # of those, positions also reopened as a new game from their notation
    wrong_moment: float  # throws around which an action at the wrong moment is tried
    shapes: float  # throws whose legal moves are checked against DECISIONS.md's geometry


EVERY_TIME = Rates(push=1, explain=1, notation=1, reopen=0.1, wrong_moment=1, shapes=1)
SAMPLED = Rates(push=0.2, explain=0.03, notation=0.1, reopen=0.03, wrong_moment=0.1, shapes=0.5)


class Checks(random.Random):
    """Draws which sampled checks run where, apart from the game's own random numbers."""

    def __init__(self, seed: int, rates: Rates) -> None:
        super().__init__(seed)
        self.rates = rates

    def now(self, rate: float) -> bool:
        return rate >= 1 or self.random() < rate


SQUARES = 30
ROW = 10
WATER = 27  # S8, K5
REFUGES = frozenset({26, 28, 29, 30})  # S5, K5
W, B, EMPTY = "W", "B", "."
PIECE = {WHITE: W, BLACK: B}


@dataclass(frozen=True)
class Expected:
    """What DECISIONS.md fixes for one Senet rule set."""

    pieces: int
    scores: frozenset[int]
    extra: frozenset[int]
    opener: int  # the colour of the first player to throw a 1
    opening_move: Move  # what that 1 does
    phase_after_opening: Phase


EXPECTED = {
    # S1 (7 pieces), S2 (1-5, extra throw on 1, 4, 5), S3 (the first 1 takes white).
    "senet-migo": Expected(
        7, frozenset({1, 2, 3, 4, 5}), frozenset({1, 4, 5}), WHITE, START, Phase.PLAY
    ),
    # K2 (5 pieces), K1 (1-4 and 6, extra throw on 1, 4, 6), K3 (black, 10-11, then
    # white's first move from 9).
    "senet-kendall": Expected(
        5, frozenset({1, 2, 3, 4, 6}), frozenset({1, 4, 6}), BLACK, Move(10, 11), Phase.FIRST
    ),
}


def expected_for(rules: SenetRules) -> Expected:
    """DECISIONS.md's numbers; a Senet rule set registered later falls back on its own."""
    if rules.name in EXPECTED:
        return EXPECTED[rules.name]
    opening_move = START if rules.opening_move is None else Move(*rules.opening_move)
    first = Phase.PLAY if rules.first_move_square is None else Phase.FIRST
    throws = rules.throws
    return Expected(
        rules.pieces, frozenset(throws.scores), throws.extra, rules.opener, opening_move, first
    )


def start_board(pieces: int) -> str:
    """S1, K2: white on the odd squares, black on the even ones, from square 1."""
    return (W + B) * pieces + EMPTY * (SQUARES - 2 * pieces)


def senet_rules(name: str) -> SenetRules:
    rules = games.get(name)
    assert isinstance(rules, SenetRules), name
    return rules


# The other families have random-game tests of their own (tests/test_<family>*.py).
SENET_NAMES = [name for name in games.names() if isinstance(games.get(name), SenetRules)]


# ----- invariants of one position ----------------------------------------------------------
def check_position(game: Senet, expected: Expected, fen: str, checks: Checks | None = None) -> None:
    """Invariants of the current position, written ``fen``; ``checks`` samples the costlier
    notation ones (all of them run without it)."""
    position = game.position
    board = position.board
    assert len(board) == SQUARES, fen
    assert set(board) <= {W, B, EMPTY}, fen
    assert board[WATER - 1] == EMPTY, f"a piece rests on {WATER} (S8, K5): {fen}"
    for side, piece in PIECE.items():
        off = position.off[side]
        assert 0 <= off <= expected.pieces, fen
        assert board.count(piece) + off == expected.pieces, f"pieces not conserved: {fen}"
    white_done, black_done = (off == expected.pieces for off in position.off)
    assert not (white_done and black_done), f"both sides have borne off everything: {fen}"
    winner = game.winner()
    if white_done:
        assert winner == WHITE, fen
    elif black_done:
        assert winner == BLACK, fen
    else:
        assert winner is None, fen
    assert game.is_over() == (winner is not None)
    if game.is_over():
        assert position.throw is None, fen
    if position.phase is Phase.OPENING:
        assert board == start_board(expected.pieces), fen
        assert position.off == (0, 0), fen
    if checks is None or checks.now(checks.rates.notation):
        check_notation(game, fen, reopen=checks is None or checks.now(checks.rates.reopen))


def check_notation(game: Senet, fen: str, *, reopen: bool) -> None:
    """T3: the one-line notation holds the whole position and reads back to it."""
    position = game.position
    parsed = game.parse_position(fen)
    assert parsed == position, f"{fen!r} reads back as {parsed}"
    assert game.format_position(parsed) == fen
    if reopen:
        assert game.rules.game(fen).fen() == fen
    fields = fen.split()
    assert len(fields) == 5, fen
    board = position.board
    assert fields[0] == "/".join(board[i : i + ROW] for i in range(0, SQUARES, ROW)), fen
    assert fields[2] == ("-" if position.throw is None else str(position.throw)), fen
    assert fields[3] == position.phase.value, fen
    assert fields[4] == f"{position.off[WHITE]}/{position.off[BLACK]}", fen


# ----- legal moves and explanations ---------------------------------------------------------
def check_ruling_texts(rulings: Iterable[Ruling]) -> None:
    for ruling in rulings:
        assert ruling.rule.id, ruling
        for lang in ("en", "fr"):
            assert ruling.short(lang) and ruling.long(lang), ruling
        assert ruling.source()


def candidates(position: SenetPosition) -> list[Move]:
    """Moves a player might propose: every piece (own or not) forward or backward by the
    throw, bearing off, into the water, and the two moves that move no piece."""
    throw = position.throw
    assert throw is not None
    moves = {PASS, START, Move(10, 11)}
    for square, cell in enumerate(position.board, start=1):
        if cell == EMPTY:
            continue
        moves.add(Move(square, square + throw) if square + throw <= SQUARES else Move(square, OFF))
        if square - throw >= 1:
            moves.add(Move(square, square - throw))
        moves.add(Move(square, OFF))
        if square != WATER:
            moves.add(Move(square, WATER))
    return sorted(moves, key=str)


def check_legal_list(legal: list[Move], fen: str) -> None:
    assert legal, f"no legal move, not even a pass: {fen}"
    assert len(set(legal)) == len(legal), f"duplicate legal moves {legal}: {fen}"
    if PASS in legal:
        assert legal == [PASS], f"a pass alongside moves {legal} (T1): {fen}"


def check_explanations(game: Senet, legal: list[Move], rng: random.Random) -> None:
    """legal_moves and explain run the same rules: they must agree."""
    fen = game.fen()
    for move in legal:
        explanation = game.explain(move)
        assert explanation.move == move
        assert explanation.legal, f"{move} is in legal_moves but explain forbids it: {fen}"
        assert not any(r.forbids for r in explanation.rulings), (move, fen, explanation)
        check_ruling_texts(explanation.rulings)
    others = [move for move in candidates(game.position) if move not in legal]
    sample = rng.sample(others, min(EXPLAIN_SAMPLE, len(others)))
    if PASS in others and PASS not in sample:
        sample.append(PASS)
    for i, move in enumerate(sample):
        explanation = game.explain(move)
        assert explanation.move == move
        assert not explanation.legal, (
            f"{move} is not in legal_moves {legal} but explain allows it: {fen}"
        )
        assert explanation.deciding.verdict is Verdict.FORBIDS, (move, fen, explanation)
        check_ruling_texts(explanation.rulings)
        if i == 0:
            with pytest.raises(IllegalMoveError):
                game.push(move)
            assert game.fen() == fen


def enemy_wall(board: str, enemy: str) -> set[int]:
    """Squares of ``enemy`` in a run of 3 or more adjacent pieces (S4, K4)."""
    runs = re.finditer(f"{enemy}{{3,}}", board)
    return {square for run in runs for square in range(run.start() + 1, run.end() + 1)}


# S7: where a piece goes from 26, 28, 29 and 30 with each throw (any other throw: 27).
MIGO_EXITS = {26: {1: WATER, 2: 28, 3: 29, 4: 30, 5: OFF}, 28: {3: OFF}, 29: {2: OFF}, 30: {1: OFF}}


def check_legal_move_shapes(rules: SenetRules, position: SenetPosition, legal: list[Move]) -> None:
    """What DECISIONS.md says of every legal move, checked without the engine's rule code."""
    if legal == [PASS] or position.phase is Phase.OPENING:
        return
    throw = position.throw
    assert throw is not None
    side = position.turn
    board = position.board
    me, enemy = PIECE[side], PIECE[1 - side]
    wall = enemy_wall(board, enemy)
    migo = rules.name == "senet-migo"
    kendall = rules.name == "senet-kendall"
    mine = [square for square, cell in enumerate(board, start=1) if cell == me]
    exits = MIGO_EXITS
    for move in legal:
        start, end = move.start, move.end
        where = (move, throw, board)  # for the messages
        assert start in mine, f"moves a piece that is not the mover's: {where}"
        if migo and start in exits:  # S7; S10 (ours): pieces on 26-30 never move backward
            assert end == exits[start].get(throw, WATER), f"S7, S10: {where}"
            backward = False
        else:
            backward = end != OFF and end == start - throw
        if not backward and not (migo and start in exits):
            target = start + throw
            assert end == (OFF if target > SQUARES else target), f"distance (S2, K1): {where}"
        if migo and not backward:
            assert not (start < 26 < (SQUARES + 1 if end == OFF else end)), f"S6: {where}"
        if kendall and end == OFF:
            assert min(mine) >= 21, f"K6: bearing off with a piece behind row 3: {where}"
        low, high = sorted((start, SQUARES + 1 if end == OFF else end))
        passed = wall & set(range(low + 1, high))
        assert not passed, f"passes the enemy wall on {sorted(passed)} (S4, K4, S10, K7): {where}"
        if end in (OFF, WATER):
            continue
        occupant = board[end - 1]
        assert occupant != me, f"lands on an own piece: {where}"
        if backward:
            assert occupant == EMPTY, f"backward onto an occupied square (S10, K7): {where}"
        elif occupant == enemy:
            assert end not in REFUGES, f"attacks a refuge (S5, K5): {where}"
            neighbours = {board[n - 1] for n in (end - 1, end + 1) if 1 <= n <= SQUARES}
            assert enemy not in neighbours, f"attacks a protected piece (S4, K4): {where}"
    if (
        kendall
        and position.phase is Phase.FIRST
        and side == WHITE
        and any(move.start == 9 for move in legal)
    ):
        assert all(move.start == 9 for move in legal), f"K3: white's first move from 9: {legal}"


# ----- what an action did -------------------------------------------------------------------
def check_throw(
    expected: Expected, throw: Throw, before: SenetPosition, after: SenetPosition
) -> None:
    assert throw.score in expected.scores, throw
    assert throw.extra_turn == (throw.score in expected.extra), f"S2, K1: {throw}"
    assert after == SenetPosition(before.board, before.turn, before.phase, throw.score, before.off)


def moved_board(before: SenetPosition, move: Move) -> tuple[str, tuple[int, int]]:
    """The board and pieces off after ``move``, from S4, S7, S8, K4, K5, K6 alone."""
    side = before.turn
    me = PIECE[side]
    board = list(before.board)
    off = list(before.off)
    start, end = move.start, move.end
    board[start - 1] = EMPTY
    if end == OFF:
        off[side] += 1
    elif end == WATER:  # back to square 1, or the first free square after it
        board[board.index(EMPTY)] = me
    else:  # a swap puts the attacked piece where the attacker stood
        board[start - 1] = before.board[end - 1]
        board[end - 1] = me
    return "".join(board), (off[0], off[1])


def check_move(
    expected: Expected, before: SenetPosition, move: Move, game: Senet, fen: str
) -> None:
    after = game.position
    throw = before.throw
    assert throw is not None
    assert after.throw is None, fen
    if before.phase is Phase.OPENING:  # S3, K3
        if throw != 1:
            assert move == PASS, move
            assert after == SenetPosition(
                before.board, 1 - before.turn, Phase.OPENING, None, (0, 0)
            )
            return
        assert move == expected.opening_move, move
        board = before.board
        if move != START:
            cells = list(board)
            cells[move.start - 1], cells[move.end - 1] = EMPTY, cells[move.start - 1]
            board = "".join(cells)
        assert after == SenetPosition(
            board, expected.opener, expected.phase_after_opening, None, (0, 0)
        ), fen
        return
    side = before.turn
    if move == PASS:  # T1: the hand passes whatever the throw
        assert after == SenetPosition(before.board, 1 - side, before.phase, None, before.off), fen
        return
    board, off = moved_board(before, move)
    assert (after.board, after.off) == (board, off), f"{move} from {before}: {fen}"
    phase = before.phase
    if phase is Phase.FIRST and side == WHITE:
        phase = Phase.PLAY
    assert after.phase is phase, fen
    if off[side] == expected.pieces:  # S11, K8
        assert game.winner() == side, fen
        return
    assert game.winner() is None, fen
    extra = throw in expected.extra  # T2
    assert after.turn == (side if extra else 1 - side), f"T2: {move} with {throw}: {fen}"


# ----- a whole game -------------------------------------------------------------------------
@dataclass
class Record:
    fens: list[str]  # fens[i]: the position before actions[i]; the last one is the end
    actions: list[Action]


def check_after_the_end(game: Senet, expected: Expected) -> None:
    fen = game.fen()
    winner = game.winner()
    assert winner in (WHITE, BLACK), fen
    position = game.position
    assert position.off[winner] == expected.pieces, fen
    assert PIECE[winner] not in position.board, fen
    assert position.off[1 - winner] < expected.pieces, fen
    assert game.legal_moves() == [], fen
    for score in sorted(expected.scores):
        with pytest.raises(TurnError):
            game.throw(score)
    for move in (PASS, START, Move(1, 2), Move(26, OFF)):
        with pytest.raises(TurnError):
            game.push(move)
        with pytest.raises(TurnError):
            game.explain(move)
    assert game.fen() == fen


def play_random_game(rules: SenetRules, seed: int, rates: Rates = SAMPLED) -> None:
    expected = expected_for(rules)
    rng = random.Random(seed)  # throws and moves: the same game as a plain seeded loop
    checks = Checks(-seed, rates)
    game = rules.game()
    scratch = rules.game()  # plays each pushed move again with push_fast
    assert isinstance(game, Senet) and isinstance(scratch, Senet)
    assert game.position == SenetPosition(
        start_board(expected.pieces), 0, Phase.OPENING, None, (0, 0)
    )
    record = Record([game.fen()], [])
    check_position(game, expected, record.fens[-1])
    while not game.is_over():
        assert len(record.actions) < MAX_ACTIONS, f"seed {seed}: no end in sight: {game.fen()}"
        wrong_moment = checks.now(rates.wrong_moment)
        if wrong_moment:
            with pytest.raises(TurnError):  # a move while a throw is awaited
                game.push(PASS)
        before = game.position
        throw = game.random_throw(rng)
        assert game.throw(throw) == throw
        record.actions.append(throw)
        fen = game.fen()
        record.fens.append(fen)
        check_throw(expected, throw, before, game.position)  # the same board: only the
        if checks.now(rates.notation):  # notation has something new to show
            check_notation(game, fen, reopen=checks.now(rates.reopen))
        if wrong_moment:
            with pytest.raises(TurnError):  # a throw while a move is awaited
                game.throw(throw)

        legal = game.legal_moves()
        check_legal_list(legal, fen)
        if checks.now(rates.explain):
            check_explanations(game, legal, checks)
        if checks.now(rates.shapes):
            check_legal_move_shapes(rules, game.position, legal)
        move = rng.choice(legal)
        before = game.position
        if checks.now(rates.push):
            check_ruling_texts(game.push(move))
            scratch.position = before
            scratch.push_fast(move)
            assert scratch.position == game.position, (move, scratch.fen(), game.fen())
        else:
            game.push_fast(move)
        fen = game.fen()
        record.actions.append(move)
        record.fens.append(fen)
        check_position(game, expected, fen, checks)
        check_move(expected, before, move, game, fen)
        if len(record.actions) % UNDO_EVERY < 2:
            undo_and_replay(game, record.actions, record.fens, checks)
    check_after_the_end(game, expected)
    undo_to_start(game, record.actions, record.fens)
    assert game.position == rules.game().position


@pytest.mark.parametrize("name", SENET_NAMES)
@pytest.mark.parametrize("block", range(4))
def test_random_games_keep_every_invariant(name: str, block: int) -> None:
    rules = senet_rules(name)
    per_block = GAMES_PER_RULE_SET // 4
    for index in range(block * per_block, (block + 1) * per_block):
        seed = 1000 * index + 17
        try:
            play_random_game(rules, seed, EVERY_TIME if index < FULLY_CHECKED else SAMPLED)
        except Exception as error:
            error.add_note(f"{name}, seed {seed}")
            raise


@pytest.mark.parametrize("name", SENET_NAMES)
def test_explanations_agree_with_legal_moves_on_every_candidate(name: str) -> None:
    """A game where every candidate move, not only a sample, is explained after each throw."""
    rules = senet_rules(name)
    rng = random.Random(0)
    game = rules.game()
    assert isinstance(game, Senet)
    while not game.is_over():
        game.throw(game.random_throw(rng))
        legal = game.legal_moves()
        for move in candidates(game.position):
            explanation = game.explain(move)
            assert explanation.legal == (move in legal), (move, legal, game.fen())
            if not explanation.legal:
                assert explanation.deciding.forbids, (move, game.fen())
        game.push_fast(rng.choice(legal))


@pytest.mark.parametrize("name", SENET_NAMES)
def test_fast_legal_moves_agree_with_the_tiers(name: str) -> None:
    """Senet's fast path for legal moves gives what the general way through the tiers
    gives, in order, after every throw of a few random games."""
    rules = senet_rules(name)
    rng = random.Random(5)
    compared = 0
    for _ in range(5):
        game = rules.game()
        while not game.is_over():
            game.throw_fast(game.random_throw(rng))
            legal = game.legal_moves()
            assert legal == RaceGame.legal_moves(game), game.fen()
            compared += 1
            game.push_fast(rng.choice(legal))
    assert compared > 500
