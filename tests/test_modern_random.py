"""Seeded random games of senet-modern to the end, with invariants after every action.

A small reference model, written from DECISIONS.md N2-N8 and independent of the engine's
code (its own notation reader, pieces in dictionaries, every turn tried by brute force),
says after each throw which turns are legal and which of them are listed (of two orders
of the same steps that end alike, the one with the lower start first), and after each
move what the position must be. Besides: pieces are conserved (every number once, on the
board, off or out), nothing rests on the moon or the bird, the end has one winner,
``explain`` agrees with ``legal_moves``, the notation reads back, ``push`` and
``push_fast`` agree, undo goes back through every position. Costlier checks run on a
random share of the actions, all of them in the first game.

``play_random_game(rules, seed)`` plays one game and returns the number of actions; a
failing game is replayed by its seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from game_helpers import undo_and_replay, undo_to_start

from companion import games
from companion.core import PASS, START, Action, Move, RaceGame
from companion.errors import IllegalMoveError, TurnError
from companion.games.modern import Modern, ModernPosition, ModernRules
from companion.randomplay import sampled_games
from companion.rules import Ruling, Verdict

NAME = "senet-modern"
GAMES = 120
FULLY_CHECKED = 1
MAX_ACTIONS = 5_000
UNDO_EVERY = 37
EXPLAIN_SAMPLE = 6

# DECISIONS.md: N2 pieces 1-5 from the sun, N4 goal one past 30, N5 moon, bird, landing
# and special squares, N8 three pieces off.
SQUARES, GOAL, SUN, MOON, BIRD, LANDING, SPECIAL, END = 30, 31, 1, 26, 27, 15, 26, 3
NUMBERS = frozenset(range(1, 6))
COLOURS = "WB"


@dataclass(frozen=True)
class Rates:
    push: float
    explain: float
    reference: float
    notation: float


EVERY_TIME = Rates(push=1, explain=1, reference=1, notation=1)
SAMPLED = Rates(push=0.2, explain=0.05, reference=0.5, notation=0.2)


# ----- the reference model -----------------------------------------------------------------------
Piece = tuple[int, int]  # side, number


@dataclass
class Ref:
    board: dict[int, Piece]
    turn: int
    dice: tuple[int, ...] | None
    off: tuple[set[int], set[int]]
    out: tuple[set[int], set[int]]
    blocked: bool = False
    moved: set[int] = field(default_factory=set)  # squares whose pieces moved this turn

    def copy(self) -> Ref:
        return Ref(
            dict(self.board),
            self.turn,
            self.dice,
            (set(self.off[0]), set(self.off[1])),
            (set(self.out[0]), set(self.out[1])),
            self.blocked,
            set(self.moved),
        )

    def key(self) -> tuple[object, ...]:
        return (
            sorted(self.board.items()),
            [sorted(s) for s in self.off],
            [sorted(s) for s in self.out],
        )

    def mine(self) -> list[int]:
        return sorted(sq for sq, (side, _) in self.board.items() if side == self.turn)

    def winner(self) -> int | None:
        if self.blocked:
            return 1 - self.turn
        if all(len(off) < END for off in self.off):
            return None
        scores = [(sum(off), len(off)) for off in self.off]
        assert scores[0] != scores[1], "N8: the finisher always has more pieces off"
        return 0 if scores[0] > scores[1] else 1


def read(fen: str) -> Ref:
    """The notation of docs/notation.md, read without the engine."""
    board_text, side, dice, off, out, state = fen.split()
    cells = re.findall(r"\.|[WB][1-5]", board_text)
    assert "".join(cells) == board_text.replace("/", "") and len(cells) == SQUARES, fen
    board = {sq: (COLOURS.index(c[0]), int(c[1])) for sq, c in enumerate(cells, 1) if c != "."}
    return Ref(
        board,
        "wb".index(side),
        None if dice == "-" else tuple(int(d) for d in dice.split(",")),
        _numbers(off, "off:"),
        _numbers(out, "out:"),
        {"play": False, "blocked": True}[state],
    )


def _numbers(text: str, label: str) -> tuple[set[int], set[int]]:
    assert text.startswith(label), text
    found: tuple[set[int], set[int]] = (set(), set())
    for colour, number in re.findall(r"([WB])([1-5])", text[len(label) :]):
        found[COLOURS.index(colour)].add(int(number))
    return found


def step_name(start: int, count: int) -> str:
    target = start + count
    end = "off" if target == GOAL else str(target if target < GOAL else 2 * GOAL - target)
    return f"{start}-{end}"


def to_sun(state: Ref, piece: Piece) -> None:
    """N3: a piece sent to the sun; the one already there leaves the game."""
    if SUN in state.board:
        side, number = state.board[SUN]
        state.out[side].add(number)
    state.board[SUN] = piece


def ref_step(state: Ref, start: int, count: int, piece: Piece) -> Ref | None:
    """One step of ``count`` for ``piece`` from ``start``, or None if N3-N5 forbid it."""
    side = state.turn
    if state.board.get(start) != piece or start in state.moved:
        return None
    new = state.copy()
    del new.board[start]
    target = start + count
    if target == GOAL:  # N4: exactly the goal
        new.off[side].add(piece[1])
        return new
    end = target if target < GOAL else 2 * GOAL - target  # N4: and back by the excess
    if end == MOON:
        to_sun(new, piece)
        new.moved.add(SUN)
        return new
    if end == BIRD:
        end = LANDING
        if new.board.get(end, (None, 0))[0] == side:  # ours: nearest free square before
            end = max(sq for sq in range(1, LANDING) if sq not in new.board)
    elif end in new.board:
        if new.board[end][0] == side:
            return None  # N3, N4: not onto an own piece
        if end >= SPECIAL > start:
            return None  # N5: no hit on 26-30 from outside
    occupant = new.board.get(end)
    new.board[end] = piece
    new.moved.add(end)
    if occupant is not None:
        to_sun(new, occupant)
    return new


def ref_turns(state: Ref) -> tuple[dict[str, Ref], set[str]]:
    """Every legal turn (notation -> position after it) and those not listed."""
    assert state.dice is not None
    mine = state.mine()
    board = state.board
    full: dict[str, tuple[Ref, set[int]]] = {}
    if len(state.dice) == 2:
        low, high = state.dice
        for start in mine:
            after = ref_step(state, start, low + high, board[start])
            if after is not None:
                full[step_name(start, low + high)] = (after, {start})
        for first in mine:
            for second in mine:
                for one, other in {(low, high), (high, low)}:
                    if first == second:
                        continue
                    half = ref_step(state, first, one, board[first])
                    after = half and ref_step(half, second, other, board[second])
                    if after is not None:
                        name = f"{step_name(first, one)},{step_name(second, other)}"
                        full[name] = (after, {first, second})
    turns = full
    if not turns:  # N7: one die alone, the player's choice (N3)
        for start in mine:
            for die in set(state.dice):
                after = ref_step(state, start, die, board[start])
                if after is not None:
                    turns[step_name(start, die)] = (after, {start})
    obliged = {sq for sq in mine if sq >= SPECIAL}
    if obliged and turns:  # N5 (ours): as many of them as the dice allow
        most = max(len(moved & obliged) for _, moved in turns.values())
        turns = {k: v for k, v in turns.items() if len(v[1] & obliged) == most}
    results = {name: after for name, (after, _) in turns.items()}
    hidden = set()
    for name, after in results.items():
        head, comma, tail = name.partition(",")
        swapped = f"{tail},{head}"
        if (
            comma
            and swapped in results
            and results[swapped].key() == after.key()
            and int(tail.split("-")[0]) < int(head.split("-")[0])
        ):
            hidden.add(name)
    return results, hidden


def ref_after_turn(after: Ref, side: int) -> Ref:
    """N8 when the turn is over; otherwise the hand passes (T2)."""
    done = after.copy()
    done.dice, done.moved = None, set()
    done.turn = side if len(done.off[side]) >= END else 1 - side
    return done


def write(state: Ref) -> str:
    cells = [f"{COLOURS[p[0]]}{p[1]}" if (p := state.board.get(sq)) else "." for sq in range(1, 31)]
    rows = "/".join("".join(cells[i : i + 10]) for i in range(0, 30, 10))
    dice = "-" if state.dice is None else ",".join(map(str, state.dice))
    return " ".join(
        [
            rows,
            "wb"[state.turn],
            dice,
            "off:" + (_pieces(state.off) or "-"),
            "out:" + (_pieces(state.out) or "-"),
            "blocked" if state.blocked else "play",
        ]
    )


def _pieces(numbers: tuple[set[int], set[int]]) -> str:
    return "".join(f"{COLOURS[side]}{n}" for side in (0, 1) for n in sorted(numbers[side]))


# ----- checks ----------------------------------------------------------------------------------
def check_position(game: Modern, fen: str) -> Ref:
    state = read(fen)
    for side in (0, 1):
        on_board = [n for s, n in state.board.values() if s == side]
        every = on_board + sorted(state.off[side]) + sorted(state.out[side])
        assert sorted(every) == sorted(NUMBERS), f"N2: pieces not conserved: {fen}"
    assert MOON not in state.board and BIRD not in state.board, f"N5: {fen}"
    assert not all(len(off) >= END for off in state.off), fen
    assert game.winner() == state.winner(), fen
    assert game.is_over() == (state.winner() is not None), fen
    if state.dice is not None:
        assert list(state.dice) == sorted(state.dice) and set(state.dice) <= set(range(1, 7))
        assert len(state.dice) == 2 or len(state.mine()) == 1, f"N6: {fen}"
    return state


def check_notation(game: Modern, fen: str) -> None:
    assert write(read(fen)) == fen, fen
    parsed = game.parse_position(fen)
    assert parsed == game.position and game.format_position(parsed) == fen
    assert game.rules.game(fen).fen() == fen


def check_ruling_texts(rulings: list[Ruling] | tuple[Ruling, ...]) -> None:
    for ruling in rulings:
        assert ruling.rule.id and ruling.source()
        for lang in ("en", "fr"):
            assert ruling.short(lang) and ruling.long(lang), ruling


def proposals(state: Ref) -> Iterator[str]:
    """Moves a player might propose: every step of every piece (either side) by a die or
    the sum, every pair of steps of the mover's pieces in both orders (the same piece
    twice included), and moves that are no turn at all."""
    assert state.dice is not None
    counts = sorted({*state.dice, sum(state.dice)})
    yield from (step_name(sq, n) for sq in state.board for n in counts)
    own = [step_name(sq, n) for sq in state.mine() for n in counts]
    yield from (f"{a},{b}" for a in own for b in own if a != b)
    yield from ("pass", "start", "in-3", "3-off", "p5-6", "12-13,13-14", "1-2,3-4")


def check_explanations(game: Modern, legal: list[Move], rng: random.Random) -> None:
    fen = game.fen()
    for move in legal:
        explanation = game.explain(move)
        assert explanation.legal and not any(r.forbids for r in explanation.rulings), (move, fen)
        check_ruling_texts(explanation.rulings)
    others = [text for text in proposals(read(fen)) if not game.is_legal(Move.parse(text))]
    for i, text in enumerate(rng.sample(others, min(EXPLAIN_SAMPLE, len(others)))):
        move = Move.parse(text)
        explanation = game.explain(move)
        assert not explanation.legal, (move, legal, fen)
        assert explanation.deciding.verdict is Verdict.FORBIDS, (move, fen)
        check_ruling_texts(explanation.rulings)
        if i == 0:
            with pytest.raises(IllegalMoveError):
                game.push(move)
            assert game.fen() == fen


def check_against_reference(game: Modern, fen: str) -> dict[str, Ref]:
    """N3-N7: the engine's legal moves are the reference's, listed once per result."""
    results, hidden = ref_turns(read(fen))
    listed = sorted(str(move) for move in game.legal_moves())
    expected = sorted(set(results) - hidden) or ["pass"]
    assert listed == expected, f"{fen}: engine {listed}, reference {expected}"
    for name in hidden:
        assert game.is_legal(Move.parse(name)), (name, fen)
    return results


def check_after_the_end(game: Modern) -> None:
    fen = game.fen()
    assert game.legal_moves() == []
    with pytest.raises(TurnError):
        game.throw("1,2")
    for move in (PASS, START, Move(1, 2)):
        with pytest.raises(TurnError):
            game.push(move)
        with pytest.raises(TurnError):
            game.explain(move)
    assert game.fen() == fen


# ----- a whole game ----------------------------------------------------------------------------
def play_random_game(rules: ModernRules, seed: int, rates: Rates = SAMPLED) -> int:
    """One seeded random game with the checks above; returns the number of actions."""
    rng = random.Random(seed)  # throws and moves: the same game as a plain seeded loop
    checks = random.Random(-seed)
    game = rules.game()
    scratch = rules.game()
    assert isinstance(game, Modern) and isinstance(scratch, Modern)
    fens = [game.fen()]
    actions: list[Action] = []
    check_position(game, fens[0])
    while not game.is_over():
        assert len(actions) < MAX_ACTIONS, f"seed {seed}: no end in sight: {game.fen()}"
        with pytest.raises(TurnError):
            game.push(PASS)  # a move while a throw is awaited
        before = game.fen()
        throw = game.random_throw(rng)
        assert game.throw(throw) == throw and not throw.extra_turn
        fen = game.fen()
        actions.append(throw)
        fens.append(fen)
        dice = ",".join(map(str, throw.dice))
        assert fen == before.replace(" - ", f" {dice} ", 1), (before, fen)
        state = check_position(game, fen)
        if checks.random() < rates.notation:
            check_notation(game, fen)

        legal = game.legal_moves()
        assert legal and len(set(legal)) == len(legal), fen
        assert PASS not in legal or legal == [PASS], fen
        results = check_against_reference(game, fen) if checks.random() < rates.reference else None
        if checks.random() < rates.explain:
            check_explanations(game, legal, checks)
        move = rng.choice(legal)
        if checks.random() < rates.push:
            position = game.position
            check_ruling_texts(game.push(move))
            scratch.position = position
            scratch.push_fast(move)
            assert scratch.position == game.position, (move, fen)
        else:
            game.push_fast(move)
        fen = game.fen()
        actions.append(move)
        fens.append(fen)
        check_position(game, fen)
        if results is not None:
            if move == PASS:  # N7: the player who cannot move loses
                expected = state.copy()
                expected.dice, expected.blocked = None, True
            else:
                expected = ref_after_turn(results[str(move)], state.turn)
            assert fen == write(expected), f"{move} from {fens[-2]}: {fen}"
        if len(actions) % UNDO_EVERY < 2:
            undo_and_replay(game, actions, fens, checks)
    check_after_the_end(game)
    undo_to_start(game, actions, fens)
    return len(actions)


def modern_rules() -> ModernRules:
    rules = games.get(NAME)
    assert isinstance(rules, ModernRules)
    return rules


@pytest.mark.parametrize("block", range(4))
def test_random_games_keep_every_invariant(block: int) -> None:
    per_block = GAMES // 4
    for index in range(block * per_block, (block + 1) * per_block):
        seed = 7919 * index + 3
        try:
            play_random_game(modern_rules(), seed, EVERY_TIME if index < FULLY_CHECKED else SAMPLED)
        except Exception as error:
            error.add_note(f"{NAME}, seed {seed}")
            raise


def test_explanations_agree_with_legal_moves_on_every_proposal() -> None:
    """One game where every proposal, not a sample, is explained after each throw."""
    rng = random.Random(11)
    game = modern_rules().game()
    assert isinstance(game, Modern)
    proposals_checked = 0
    while not game.is_over():
        game.throw(game.random_throw(rng))
        for text in proposals(read(game.fen())):
            move = Move.parse(text)
            explanation = game.explain(move)
            assert explanation.legal == game.is_legal(move), (text, game.fen())
            assert explanation.deciding.forbids is not explanation.legal, (text, game.fen())
            proposals_checked += 1
        game.push_fast(rng.choice(game.legal_moves()))
    assert proposals_checked > 1000


def test_random_games_end_both_ways() -> None:
    """Over many games both ends happen: three pieces borne off (N8), and a blocked player
    (N7); each side wins some."""
    rules = modern_rules()
    blocked = finished = 0
    winners = set()
    for seed in range(60):
        rng = random.Random(seed)
        game = rules.game()
        while not game.is_over():
            game.throw(game.random_throw(rng))
            game.push_fast(rng.choice(game.legal_moves()))
        assert isinstance(game, Modern)
        blocked += game.position.blocked
        finished += not game.position.blocked
        winners.add(game.winner())
    assert blocked and finished and winners == {0, 1}


def midgame_positions(count: int, seed: int = 1) -> list[ModernPosition]:
    """Positions with dice pending, one in seven of seeded random games' throws."""

    def wanted(game: RaceGame[Any]) -> bool:
        return game.position.throw is not None

    found = sampled_games(modern_rules(), count, random.Random(seed), wanted=wanted, rate=1 / 7)
    return [game.position for game in found]


def test_midgame_positions_have_dice_pending() -> None:
    positions = midgame_positions(50)
    assert len(positions) == 50 and all(p.throw is not None for p in positions)
    assert len({p.board for p in positions}) > 40
