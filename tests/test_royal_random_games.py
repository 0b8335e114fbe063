"""Seeded random games of ur-finkel and ur-masters to the end, with invariants after every
throw and every move.

After every action: 7 pieces per side on the board, waiting or off; never two pieces on one
cell; a throw changes nothing but the pending throw; a move did to the board what the rules
say, worked out here from the cells of DECISIONS.md U1 (a) and Bell's path (entering on the
throw's square, exact bearing off, captures sending a piece back, no capture on a rosette
in ur-finkel); the turn passes unless the move ended on a rosette or won (T1, R8); the legal
moves are those the geometry allows. Costlier checks run on every action of the first game
and on a random share of the others: ``explain`` against ``legal_moves`` for every legal move
and a sample of others, ``push`` against ``push_fast``, the notation read back. Every game is
then undone to its start.

``play_random_game(rules, seed)`` plays one game and returns the number of actions (throws
and moves), for a soak script to call many times.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from game_helpers import undo_to_start
from ur_geometry import PATHS, ROSETTES, SAFE_ROSETTES

from companion import games
from companion.core import IN, OFF, PASS, Action, Move
from companion.errors import IllegalMoveError, TurnError
from companion.games.royal import BLACK, WHITE, RoyalPosition, RoyalUr, RoyalUrRules
from companion.rules import Verdict
from companion.throws import Throw

NAMES = ("ur-finkel", "ur-masters")
GAMES_PER_RULE_SET = 100
MAX_ACTIONS = 20_000
PIECES = 7
SCORES = range(5)  # four binary dice: 0-4 marked tips up


@dataclass(frozen=True)
class Rates:
    """How often the costlier checks run."""

    explain: float
    push: float
    notation: float


EVERY_TIME = Rates(explain=1, push=1, notation=1)
SAMPLED = Rates(explain=0.05, push=0.2, notation=0.1)


@dataclass
class Tally:
    """What the games went through, so that a test can see the rules were exercised."""

    passes: int = 0
    captures: int = 0
    rosette_captures: int = 0
    extra_throws: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])


# ----- the board as DECISIONS.md draws it ---------------------------------------------------
@dataclass(frozen=True)
class Board:
    """A position as cells: who stands where, and the counts."""

    cells: dict[str, int]  # cell -> side
    waiting: tuple[int, int]
    off: tuple[int, int]


def board_of(name: str, position: RoyalPosition) -> Board:
    cells: dict[str, int] = {}
    for side in (WHITE, BLACK):
        for square in position.squares[side]:
            cell = PATHS[name][side][square - 1]
            assert cell not in cells, f"two pieces on {cell}: {position}"
            cells[cell] = side
    return Board(cells, position.waiting, position.off)


def expected_moves(name: str, position: RoyalPosition) -> list[Move]:
    """The legal moves, from the geometry alone."""
    throw = position.throw
    assert throw is not None
    side = position.turn
    path = PATHS[name][side]
    cells = board_of(name, position).cells
    starts = [IN] if position.waiting[side] else []
    starts += list(position.squares[side])
    moves = []
    for start in starts:
        end = start + throw
        if throw == 0 or end > len(path) + 1:
            continue
        if end == len(path) + 1:
            moves.append(Move(start, OFF))
            continue
        cell = path[end - 1]
        occupant = cells.get(cell)
        if occupant == side:
            continue
        if occupant is not None and SAFE_ROSETTES[name] and cell in ROSETTES:
            continue
        moves.append(Move(start, end))
    return moves or [PASS]


def check_position(name: str, game: RoyalUr) -> None:
    position = game.position
    board = board_of(name, position)  # asserts one piece per cell
    length = len(PATHS[name][WHITE])
    for side in (WHITE, BLACK):
        squares = position.squares[side]
        assert all(1 <= square <= length for square in squares), position
        total = len(squares) + position.waiting[side] + position.off[side]
        assert total == PIECES, f"pieces not conserved: {game.fen()}"
    done = [side for side in (WHITE, BLACK) if position.off[side] == PIECES]
    assert len(done) <= 1, game.fen()
    assert game.winner() == (done[0] if done else None)
    if done:
        assert position.throw is None and game.legal_moves() == [], game.fen()
    assert len(board.cells) == sum(len(position.squares[side]) for side in (WHITE, BLACK))


def check_move(
    name: str, before: RoyalPosition, move: Move, after: RoyalPosition, tally: Tally
) -> None:
    """What the move did, worked out from the cells: the new board and whose turn it is."""
    side = before.turn
    assert after.throw is None
    if move == PASS:
        tally.passes += 1
        assert after == before._replace(turn=1 - side, throw=None), (before, after)
        return
    path = PATHS[name][side]
    cells = dict(board_of(name, before).cells)
    waiting, off = list(before.waiting), list(before.off)
    if move.start == IN:
        waiting[side] -= 1
    else:
        assert cells.pop(path[move.start - 1]) == side
    landing = None
    if move.end == OFF:
        off[side] += 1
    else:
        landing = path[move.end - 1]
        if cells.get(landing) == 1 - side:
            assert not (SAFE_ROSETTES[name] and landing in ROSETTES), f"R7: {before} {move}"
            waiting[1 - side] += 1
            tally.captures += 1
            tally.rosette_captures += landing in ROSETTES
        cells[landing] = side
    got = board_of(name, after)
    assert got == Board(cells, (waiting[0], waiting[1]), (off[0], off[1])), (before, move, after)
    if off[side] == PIECES:
        assert after.turn == side
        tally.wins[side] += 1
    elif landing in ROSETTES:
        assert after.turn == side, f"R8: {before} {move}"
        tally.extra_throws += 1
    else:
        assert after.turn == 1 - side, f"R8: {before} {move}"


def candidates(game: RoyalUr) -> list[Move]:
    """Moves a player might propose: from every square and from off the board, by every
    distance, onto every square or off, and pass."""
    length = game.rules.length
    moves = {PASS}
    for start in range(length + 1):
        for end in range(start + 1, length + 2):
            moves.add(Move(start, OFF if end == length + 1 else end))
        moves.add(Move(start, OFF))
    return sorted(moves, key=str)


def check_explanations(game: RoyalUr, legal: list[Move], rng: random.Random) -> None:
    fen = game.fen()
    for move in legal:
        explanation = game.explain(move)
        assert explanation.legal, (move, fen)
        assert not any(r.forbids for r in explanation.rulings), (move, fen)
        for ruling in explanation.rulings:
            assert ruling.short("fr") and ruling.long("en") and ruling.source()
    others = [move for move in candidates(game) if move not in legal]
    for i, move in enumerate(rng.sample(others, min(12, len(others)))):
        explanation = game.explain(move)
        assert not explanation.legal, (move, legal, fen)
        assert explanation.deciding.verdict is Verdict.FORBIDS
        assert explanation.deciding.short("en") and explanation.deciding.long("fr")
        if i == 0:
            with pytest.raises(IllegalMoveError):
                game.push(move)
            assert game.fen() == fen


def check_notation(game: RoyalUr) -> None:
    fen = game.fen()
    assert game.parse_position(fen) == game.position, fen
    assert game.rules.game(fen).fen() == fen


# ----- a whole game -------------------------------------------------------------------------
def play_random_game(
    rules: RoyalUrRules, seed: int, rates: Rates = SAMPLED, tally: Tally | None = None
) -> int:
    """One seeded random game with every invariant checked; returns the actions played."""
    name = rules.name
    tally = Tally() if tally is None else tally
    rng = random.Random(seed)
    checks = random.Random(-seed)
    game = rules.game()
    scratch = rules.game()
    assert isinstance(game, RoyalUr) and isinstance(scratch, RoyalUr)
    fens = [game.fen()]
    actions: list[Action] = []
    check_position(name, game)
    while not game.is_over():
        assert len(actions) < MAX_ACTIONS, f"seed {seed}: no end in sight: {game.fen()}"
        before = game.position
        throw = game.random_throw(rng)
        assert throw.score in SCORES and not throw.extra_turn, throw
        game.throw(throw)
        assert game.position == before._replace(throw=throw.score)
        actions.append(throw)
        fens.append(game.fen())
        legal = game.legal_moves()
        assert sorted(legal, key=str) == sorted(expected_moves(name, game.position), key=str), (
            legal,
            game.fen(),
        )
        if checks.random() < rates.explain:
            check_explanations(game, legal, checks)
        move = rng.choice(legal)
        before = game.position
        if checks.random() < rates.push:
            game.push(move)
            scratch.position = before
            scratch.push_fast(move)
            assert scratch.position == game.position
        else:
            game.push_fast(move)
        actions.append(move)
        fens.append(game.fen())
        check_position(name, game)
        check_move(name, before, move, game.position, tally)
        if checks.random() < rates.notation:
            check_notation(game)
    check_after_the_end(game)
    undo_to_start(game, actions, fens)
    assert game.position == rules.game().position
    return len(actions)


def check_after_the_end(game: RoyalUr) -> None:
    fen = game.fen()
    assert game.legal_moves() == []
    for score in SCORES:
        with pytest.raises(TurnError):
            game.throw(score)
    for move in (PASS, Move(IN, 1), Move(1, 2)):
        with pytest.raises(TurnError):
            game.push(move)
    assert game.fen() == fen


def rules_of(name: str) -> RoyalUrRules:
    rules = games.get(name)
    assert isinstance(rules, RoyalUrRules)
    return rules


@pytest.mark.parametrize("name", NAMES)
def test_random_games_keep_every_invariant(name: str) -> None:
    rules = rules_of(name)
    tally = Tally()
    for index in range(GAMES_PER_RULE_SET):
        seed = 1000 * index + 29
        try:
            play_random_game(rules, seed, EVERY_TIME if index == 0 else SAMPLED, tally)
        except Exception as error:
            error.add_note(f"{name}, seed {seed}")
            raise
    # The games went through what the rules are about.
    assert tally.passes and tally.captures and tally.extra_throws and min(tally.wins) > 0
    if SAFE_ROSETTES[name]:
        assert tally.rosette_captures == 0
    else:
        assert tally.rosette_captures > 0


@pytest.mark.parametrize("name", NAMES)
def test_play_random_game_returns_the_actions(name: str) -> None:
    assert play_random_game(rules_of(name), 3) > 50


@pytest.mark.parametrize("name", NAMES)
def test_explanations_agree_with_legal_moves_on_every_candidate(name: str) -> None:
    rules = rules_of(name)
    rng = random.Random(11)
    game = rules.game()
    assert isinstance(game, RoyalUr)
    while not game.is_over():
        game.throw(game.random_throw(rng))
        legal = game.legal_moves()
        for move in candidates(game):
            explanation = game.explain(move)
            assert explanation.legal == (move in legal), (move, legal, game.fen())
        game.push_fast(rng.choice(legal))


def test_a_throw_is_recorded_as_the_pending_throw() -> None:
    game = rules_of("ur-finkel").game()
    game.throw(Throw(3, False))
    assert game.position.throw == 3
