"""Seeded random Mehen games, for several tables (players and board lengths), with the game's
invariants asserted after every throw and every move.

After every action: each colour's six pieces are all somewhere (to enter, on the board, or
eaten and kept by the eater), one piece per square off the tail and centre, predators where
their seats say, the end of the game exactly when M10 says. After every move the position is
compared with the one a second, plain model of DECISIONS.md (written here, not taken from
the engine) expects: swaps, eating, predator swaps, release, exits, and who throws next
(T2, M2). On a share of the throws the legal moves are compared with that model's, and
``explain`` with ``legal_moves`` on every candidate; the notation is read back; every game
is undone to its start.

Random games can last: players who let their predators roam never end them. Each game is
capped at MAX_MOVES moves, after which the players end it by agreement (M10, ``end``).
``play_random_game(rules, seed)`` is the function the soak script runs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pytest
from game_helpers import undo_and_replay, undo_to_start

from companion import games
from companion.core import END, IN, OFF, PASS, START, Action, Move
from companion.errors import IllegalMoveError, TurnError
from companion.games.mehen import Mehen, MehenRules
from companion.games.mehen_position import MehenPosition
from companion.rules import Verdict

# What DECISIONS.md fixes (M2, M3, M9), independent of the engine's parameters.
LETTERS = "rbgywk"
PIECES = 6
SCORES = (1, 2, 3, 6)
EXTRA = frozenset({1, 3, 6})
FACTOR = 2
WAITING, GONE = 0, -1  # the engine's predator squares for "not released" and "left"
EMPTY = "."

MAX_MOVES = 400  # then the players end the game by agreement
UNDO_EVERY = 41  # actions between two checks that undo a few actions and replay them


@dataclass(frozen=True)
class Rates:
    """How often the costlier checks run (1: after every action)."""

    model_moves: float  # throws whose legal moves are compared with the model's
    explain: float  # throws after which every candidate move is explained
    notation: float  # positions whose notation is read back
    push: float  # moves played with push (explained) rather than push_fast


FIRST_GAME = Rates(model_moves=1, explain=0.2, notation=1, push=1)  # per table
SAMPLED = Rates(model_moves=0.3, explain=0.01, notation=0.05, push=0.1)

# (players, length): the default table, odd boards (the two-squares exit, M9), crowded
# small boards where games end by themselves, and six players.
TABLES = [(2, 88), (3, 31), (4, 20), (6, 24), (2, 9), (5, 41)]
GAMES_PER_TABLE = 10


def table_rules(players: int, length: int) -> MehenRules:
    rules = games.get("mehen").with_options({"players": str(players), "length": str(length)})
    assert isinstance(rules, MehenRules)
    return rules


# ----- a plain model of the rules --------------------------------------------------------------
def can_release(p: MehenPosition, seat: int) -> bool:
    """M8/M10: a piece of the seat can still come to the centre."""
    return p.to_enter[seat] > 0 or p.tail[seat] > 0 or LETTERS[seat] in p.board


def can_ever_move(p: MehenPosition, seat: int) -> bool:
    """M2: anything left that can ever move."""
    return can_release(p, seat) or p.predators[seat] > 0


def finished(p: MehenPosition) -> bool:
    """M10: every predator out, or waiting with no piece left that could release it."""
    return all(
        p.predators[s] == GONE or (p.predators[s] == WAITING and not can_release(p, s))
        for s in range(p.players)
    )


def protected(p: MehenPosition, square: int) -> bool:
    """M5: a neighbour of its colour or its own active predator next to it; on the tail or
    the centre too (our reading)."""
    piece = p.board[square - 1]
    owner = LETTERS.index(piece)
    for n in (square - 1, square + 1):
        if n == 1:
            if p.tail[owner] or p.predators[owner] == 1:
                return True
        elif n == p.length:
            if p.centre[owner] or p.predators[owner] == p.length:
                return True
        elif p.board[n - 1] in (piece, piece.upper()):
            return True
    return False


def can_take(p: MehenPosition, square: int) -> bool:
    """Whether the mover's piece may land on ``square`` off the tail and centre (M4, M5)."""
    cell = p.board[square - 1]
    if cell == EMPTY:
        return True
    return cell.islower() and cell != LETTERS[p.turn] and not protected(p, square)


def model_moves(p: MehenPosition) -> set[Move]:
    throw = p.throw
    assert throw is not None
    seat, n = p.turn, p.length
    first: set[Move] = set()
    if throw == 1 and p.to_enter[seat]:  # M3
        first.add(Move(IN, 1))
    squares = [s for s in range(2, n) if p.board[s - 1] == LETTERS[seat]]
    for start in ([1] if p.tail[seat] else []) + squares:
        end = start + throw  # M6: exactly to the centre, never past it
        if end == n or (end < n and can_take(p, end)):
            first.add(Move(start, end))
    start = p.predators[seat]
    if start > 0:  # M9
        for end in (start + FACTOR * throw, start - FACTOR * throw):
            if end in (1, n) or (1 < end < n and (p.board[end - 1].isupper() or can_take(p, end))):
                first.add(Move(start, end, kind="p"))
            elif end == 0 or (end == -1 and n % 2 == 1):
                first.add(Move(start, OFF, kind="p"))
    if first:
        return first
    back = {  # M7
        Move(s, s - throw)
        for s in squares
        if s - throw == 1 or (s - throw > 1 and p.board[s - throw - 1] == EMPTY)
    }
    return back or {PASS}  # T1


def model_after(p: MehenPosition, move: Move) -> MehenPosition:
    """The position after ``move``, from M3-M10, T1 and T2 alone."""
    seat, n = p.turn, p.length
    board = list(p.board)
    tail, centre = list(p.tail), list(p.centre)
    predators, to_enter, eaten = list(p.predators), list(p.to_enter), list(p.eaten)
    if move == END:
        return replace(p, throw=None, agreed=True)
    if move == PASS:
        return replace(p, turn=next_seat(p, seat + 1), throw=None)
    start, end = move.start, move.end
    if move.kind == "p":
        if 1 < start < n:
            board[start - 1] = EMPTY
        predators[seat] = GONE if end == OFF else end
        if 1 < end < n:
            cell = board[end - 1]
            board[end - 1] = LETTERS[seat].upper()
            if cell.isupper():  # the enemy predator goes where this one came from
                predators[LETTERS.index(cell.lower())] = start
                if 1 < start < n:
                    board[start - 1] = cell
            elif cell != EMPTY:  # eaten, and kept by the eater
                eaten[seat] = "".join(sorted(eaten[seat] + cell, key=LETTERS.index))
    elif start == IN:
        to_enter[seat] -= 1
        tail[seat] += 1
    else:
        if start == 1:
            tail[seat] -= 1
        else:
            board[start - 1] = EMPTY
        if end == 1:
            tail[seat] += 1
        elif end == n:
            centre[seat] += 1
            if predators[seat] == WAITING and to_enter[seat] == 0:  # M8
                predators[seat] = n
        else:
            cell = board[end - 1]
            board[end - 1] = LETTERS[seat]
            if cell != EMPTY:  # M5: the enemy goes back where the attacker came from
                if start == 1:
                    tail[LETTERS.index(cell)] += 1
                else:
                    board[start - 1] = cell
    after = MehenPosition(
        n, "".join(board), (*tail,), (*centre,), (*predators,), (*to_enter,), (*eaten,), seat, None
    )
    if finished(after):
        return after
    throw = p.throw
    return replace(after, turn=next_seat(after, seat if throw in EXTRA else seat + 1))


def next_seat(p: MehenPosition, start: int) -> int:
    """M2: the first seat from ``start`` in seating order that can still move."""
    for step in range(p.players):
        seat = (start + step) % p.players
        if can_ever_move(p, seat):
            return seat
    raise AssertionError(f"nobody can move but the game goes on: {p}")


def scores(p: MehenPosition) -> list[int]:
    """M10: own simple pieces in play plus pieces eaten."""
    return [
        p.tail[s] + p.centre[s] + p.board.count(LETTERS[s]) + len(p.eaten[s])
        for s in range(p.players)
    ]


# ----- invariants --------------------------------------------------------------------------
def check_position(game: Mehen, players: int, length: int) -> None:
    p = game.position
    fen = game.fen()
    assert (p.players, p.length, len(p.board)) == (players, length, length), fen
    letters = LETTERS[:players]
    assert set(p.board) <= {EMPTY, *letters, *letters.upper()}, fen
    assert p.board[0] == EMPTY and p.board[-1] == EMPTY, fen
    all_eaten = "".join(p.eaten)
    for seat, letter in enumerate(letters):
        on_board = p.tail[seat] + p.centre[seat] + p.board.count(letter)
        total = p.to_enter[seat] + on_board + all_eaten.count(letter)
        assert total == PIECES, f"{letter}'s pieces are not all somewhere: {fen}"
        assert letter not in p.eaten[seat], fen
        square = p.predators[seat]
        assert square in (WAITING, GONE) or 1 <= square <= length, fen
        if 1 < square < length:
            assert p.board[square - 1] == letter.upper(), fen
        assert p.board.count(letter.upper()) == (1 if 1 < square < length else 0), fen
        if square > 0:  # predators start on the centre and move by even numbers (M9)
            assert (length - square) % 2 == 0, f"a predator off its parity: {fen}"
        if square != WAITING:
            assert p.to_enter[seat] == 0, f"M8: released before all entered: {fen}"
        else:
            assert p.eaten[seat] == "", fen
    over = p.agreed or finished(p)
    assert game.is_over() == over, fen
    if over:
        assert p.throw is None and game.legal_moves() == [], fen
        points = scores(p)
        best = max(points)
        expected = points.index(best) if points.count(best) == 1 else None
        assert game.winner() == expected, f"M10: scores {points}: {fen}"
    else:
        assert game.winner() is None, fen
        assert can_ever_move(p, p.turn), f"M2: the seat to act cannot move: {fen}"


def check_notation(game: Mehen) -> None:
    fen = game.fen()
    parsed = game.parse_position(fen)
    assert parsed == game.position, f"{fen!r} reads back as {parsed}"
    assert game.rules.game(fen).fen() == fen
    assert games.get("mehen").game(fen).fen() == fen  # the position carries its table


def candidates(p: MehenPosition) -> list[Move]:
    """Moves a player might propose: any piece by the throw or its double, either way,
    off the board, entering, and the moves that move no piece."""
    throw = p.throw
    assert throw is not None
    moves = {PASS, START, END, Move(IN, 1), Move(IN, throw)}
    squares = {s for s in range(1, p.length + 1) if p.board[s - 1] != EMPTY} | {1, p.length}
    squares |= {s for s in p.predators if s > 0}
    for s in squares:
        for distance in (throw, FACTOR * throw):
            for kind in ("", "p"):
                for end in (s + distance, s - distance):
                    moves.add(Move(s, end, kind=kind) if end >= 1 else Move(s, OFF, kind=kind))
    return sorted(moves, key=str)


def check_explanations(game: Mehen, legal: list[Move]) -> None:
    fen = game.fen()
    for move in candidates(game.position):
        explanation = game.explain(move)
        assert explanation.legal == (move in legal), (move, legal, fen, explanation)
        if not explanation.legal:
            assert explanation.deciding.verdict is Verdict.FORBIDS, (move, fen)
        for ruling in explanation.rulings:
            assert ruling.short("fr") and ruling.long("en") and ruling.source(), ruling


# ----- a whole game ----------------------------------------------------------------------------
@dataclass
class Record:
    fens: list[str]  # fens[i]: the position before actions[i]
    actions: list[Action]


def play_random_game(rules: MehenRules, seed: int, rates: Rates = SAMPLED) -> int:
    """One seeded random game with every invariant checked; returns the actions played."""
    rng = random.Random(seed)
    checks = random.Random(-seed)
    game = rules.game()
    assert isinstance(game, Mehen)
    players, length = rules.players, rules.length
    record = Record([game.fen()], [])
    moves = 0
    while not game.is_over():
        before = game.position
        if moves >= MAX_MOVES:
            action: Action = END  # the cap: the players agree to stop (M10)
            assert game.legal_moves() == [END]
            game.push(END)
        else:
            throw = game.random_throw(rng)
            assert throw.score in SCORES and throw.extra_turn == (throw.score in EXTRA)
            game.throw(throw)
            assert game.position == replace(before, throw=throw.score)
            record.actions.append(throw)
            record.fens.append(game.fen())
            with pytest.raises(TurnError):
                game.throw(throw)
            legal = game.legal_moves()
            assert legal and len(set(legal)) == len(legal), game.fen()
            if checks.random() < rates.model_moves:
                assert set(legal) == model_moves(game.position), game.fen()
            if checks.random() < rates.explain:
                check_explanations(game, legal)
            action = rng.choice(legal)
            before = game.position
            if checks.random() < rates.push:
                for ruling in game.push(action):
                    assert ruling.verdict is not Verdict.FORBIDS
            else:
                assert isinstance(action, Move)
                game.push_fast(action)
            moves += 1
        assert isinstance(action, Move)
        expected = model_after(before, action)
        assert game.position == expected, f"{action} from {record.fens[-1]}: {game.fen()}"
        record.actions.append(action)
        record.fens.append(game.fen())
        check_position(game, players, length)
        if checks.random() < rates.notation:
            check_notation(game)
        if len(record.actions) % UNDO_EVERY < 2 and not game.is_over():
            undo_and_replay(game, record.actions, record.fens, checks)
    check_notation(game)
    with pytest.raises(TurnError):
        game.throw(1)
    with pytest.raises((TurnError, IllegalMoveError)):
        game.push(END)
    undo_to_start(game, record.actions, record.fens)
    assert game.position == rules.game().position
    return len(record.actions)


@pytest.mark.parametrize(("players", "length"), TABLES, ids=lambda value: str(value))
def test_random_games_keep_every_invariant(players: int, length: int) -> None:
    rules = table_rules(players, length)
    ends = 0
    for index in range(GAMES_PER_TABLE):
        seed = 1000 * index + 31 * players + length
        try:
            play_random_game(rules, seed, FIRST_GAME if index == 0 else SAMPLED)
        except Exception as error:
            error.add_note(f"mehen players={players} length={length}, seed {seed}")
            raise
        ends += 1
    assert ends == GAMES_PER_TABLE


def test_small_boards_end_by_themselves() -> None:
    """Without the cap, games on a small board reach M10's end: predators out or never
    to be released; the cap is for long boards only."""
    rules = table_rules(2, 9)
    rng = random.Random(5)
    natural = 0
    for _ in range(20):
        game = rules.game()
        for _ in range(100_000):
            if game.is_over():
                break
            game.throw(game.random_throw(rng))
            game.push_fast(rng.choice(game.legal_moves()))
        assert game.is_over() and not game.position.agreed
        natural += 1
    assert natural == 20
