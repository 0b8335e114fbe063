"""Seeded random games of ur-tablet, on both boards, with invariants after every action.

A seeded policy makes the choices that come before a throw: whether to add the stick and
whether to pay the pot to enter a piece instead of throwing; each game draws its own
policy, so that every rule is met (a test below checks that every rule of the book rules
at least once). After every throw, payment, move and pass: the 50 tokens are conserved
(U10) and none is negative; pieces enter in order, one per square and per cell (U1, U3);
the side to move has no skipped turn pending (U9); the game is over exactly when a side has
borne off five pieces, and then the pot is empty (U11). The legal moves are compared with a
list built here from DECISIONS.md alone, and what each action did (pieces, tokens, turn,
skipped turns) with a referee written here from DECISIONS.md alone, not from the engine's
code. Costlier checks (explanations of every candidate, notation read back, push against
push_fast, undo and replay) run on every action of the first games and on a sample of the
others. Every game is undone to its first position at the end.

``play_random_game(rules, seed)`` plays one game and returns the number of actions, for
the soak script; a failing game is replayed by its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import pytest
from game_helpers import undo_and_replay, undo_to_start
from test_ur_tablet import TRACKS

from companion import games
from companion.core import IN, OFF, PASS, START, Action, Move
from companion.errors import IllegalMoveError, TurnError
from companion.games.ur import DieAndStick, Ur, UrPosition, UrRules
from companion.rules import Ruling, Verdict
from companion.throws import Throw

GAMES_PER_BOARD = 48
FULLY_CHECKED = 2  # of which the first games run every check after every action
MAX_ACTIONS = 20_000  # a random game this long is stuck
UNDO_EVERY = 41

# DECISIONS.md, written out here rather than read from the engine.
TOKENS = 50  # U10: 15 + 15 + 20
ENTRY = {1: (2, 1), 2: (5, 5), 3: (6, 6), 4: (7, 7), 5: (10, 10)}  # U3: piece: (throw, square)
ENTRY_BY_SQUARE = {square: piece for piece, (_, square) in ENTRY.items()}
ENTRY_BY_THROW = {throw: piece for piece, (throw, _) in ENTRY.items()}
CHANCE = (4, 8, 12, 16)  # U1, U7
SCORES = (1, 2, 3, 4, 5, 6, 7, 10)  # U2
NOT_ENTERED, WAITING, GONE = -1, 0, 17  # '-', 'x', 'off' in the notation
CELLS = {  # U1, by board: each side's track as cells, square 1 first
    layout: (TRACKS[layout, 0].split(), TRACKS[layout, 1].split()) for layout in (1, 2)
}


@dataclass(frozen=True)
class Rates:
    """How often the costlier checks run; the others run after every action."""

    push: float  # moves played with push (explained) and compared with push_fast
    explain: float  # positions where every candidate move is explained
    notation: float  # positions whose notation is read back
    undo: bool  # undo a few actions now and then and replay them


EVERY_TIME = Rates(push=1, explain=1, notation=1, undo=True)
SAMPLED = Rates(push=0.2, explain=0.03, notation=0.1, undo=True)


@dataclass(frozen=True)
class Policy:
    """The choices made before a throw, drawn per game from its seed."""

    stick: float  # chance of adding the stick to the die
    pay: float  # chance of paying to enter a piece when the rules allow it


POLICIES = (Policy(0.5, 0.0), Policy(1.0, 0.0), Policy(0.1, 0.5), Policy(0.7, 0.2))


@dataclass
class Seen:
    """Rule keys met across games, for the coverage test."""

    keys: set[str] = field(default_factory=set)

    def add(self, rulings: tuple[Ruling, ...] | list[Ruling]) -> None:
        self.keys.update(ruling.rule.key for ruling in rulings)


# ----- a referee written from DECISIONS.md ----------------------------------------------
def cell(layout: int, side: int, square: int) -> str:
    return CELLS[layout][side][square - 1]


def enemy_on(position: UrPosition, side: int, square: int) -> int | None:
    """The enemy piece (number) on the cell of ``side``'s ``square``, if any."""
    where = cell(position.layout, side, square)
    for number, at in enumerate(position.pieces[1 - side], 1):
        if 1 <= at <= 16 and cell(position.layout, 1 - side, at) == where:
            return number
    return None


def may_enter(pieces: tuple[int, ...], number: int) -> bool:
    """U3: a captured piece, or the next piece never entered (lower ones all entered)."""
    at = pieces[number - 1]
    if at == WAITING:
        return True
    return at == NOT_ENTERED and all(p != NOT_ENTERED for p in pieces[: number - 1])


def may_land(position: UrPosition, side: int, square: int) -> bool:
    """U6: not on one's own piece; not on an enemy piece on a chance square."""
    if square in position.pieces[side]:
        return False
    enemy = enemy_on(position, side, square)
    if enemy is None:
        return True
    return position.pieces[1 - side][enemy - 1] not in CHANCE


def expected_moves(position: UrPosition) -> set[str]:
    """The legal moves, from U3-U6 and U8 (pay moves when no throw is pending, U4)."""
    side = position.turn
    mine = position.pieces[side]
    moves: set[str] = set()
    if position.throw is None:
        for number, (cost, square) in ENTRY.items():
            if (
                may_enter(mine, number)
                and position.tokens[side] >= cost
                and may_land(position, side, square)
            ):
                moves.add(f"pay-{square}")
        return moves
    throw = position.throw
    entering = ENTRY_BY_THROW.get(throw)
    if entering is not None and may_enter(mine, entering):
        square = ENTRY[entering][1]
        if may_land(position, side, square):
            moves.add(f"in-{square}")
    for start in mine:
        if not 1 <= start <= 16:
            continue
        end = start + throw
        if end == GONE:
            moves.add(f"{start}-off")
        elif end <= 16 and may_land(position, side, end):
            moves.add(f"{start}-{end}")
    return moves or {"pass"}


@dataclass
class Referee:
    """What an action does, from U3-U11: pieces, tokens, the turn and skipped turns."""

    position: UrPosition
    pieces: list[list[int]] = field(init=False)
    tokens: list[int] = field(init=False)
    pot: int = field(init=False)
    debtors: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.pieces = [list(self.position.pieces[0]), list(self.position.pieces[1])]
        self.tokens = list(self.position.tokens)
        self.pot = self.position.pot

    def pay(self, payer: int, amount: int, to: int | None = None) -> None:
        paid = min(amount, self.tokens[payer])
        self.tokens[payer] -= paid
        if to is None:
            self.pot += paid
        else:
            self.tokens[to] += paid
        if paid < amount:
            self.debtors.add(payer)  # U9: pays what it has, skips its next turn

    def land(self, side: int, number: int, square: int) -> None:
        where = cell(self.position.layout, side, square)
        enemy = 1 - side
        for index, at in enumerate(self.pieces[enemy]):
            if 1 <= at <= 16 and cell(self.position.layout, enemy, at) == where:
                self.pieces[enemy][index] = WAITING  # U6: captured, owner pays 1
                self.pay(enemy, 1, to=side)
        if square in CHANCE:  # U7: takes its number, what is left of it
            taken = min(number, self.pot)
            self.pot -= taken
            self.tokens[side] += taken

    def play(self, move: Move) -> UrPosition:
        side = self.position.turn
        if move == PASS:
            self.pay(side, 1)  # U9
        elif move.start == IN:
            number = ENTRY_BY_SQUARE[move.end]
            if move.kind == "pay":
                self.pay(side, ENTRY[number][0])  # U4
            self.pieces[side][number - 1] = move.end
            self.land(side, number, move.end)  # U3: a placement, nothing for squares skipped
        else:
            number = self.pieces[side].index(move.start) + 1
            end = GONE if move.end == OFF else move.end
            for square in CHANCE:
                if move.start < square < end and not (end == GONE and square == 16):
                    self.pay(side, number)  # U7: passing over a chance square
            if end == GONE and move.start != 16:
                self.pay(side, 2)  # U8: not stopping on 16
            self.pieces[side][number - 1] = end
            if end != GONE:
                self.land(side, number, end)
        return self.next_position(side)

    def next_position(self, side: int) -> UrPosition:
        board = (tuple(self.pieces[0]), tuple(self.pieces[1]))
        layout = self.position.layout
        if all(at == GONE for at in board[side]):  # U11
            self.tokens[side] += self.pot
            self.pot = 0
            loser = board[1 - side]
            owed = sum(1 for at in loser if 1 <= at <= 16) + sum(
                2 for at in loser if at in (NOT_ENTERED, WAITING)
            )
            self.pay(1 - side, owed, to=side)
            return UrPosition(layout, board, self.token_pair(), 0, side, None, None)
        skips = set(self.debtors)
        if self.position.skip is not None:
            skips.add(self.position.skip)
        turn = 1 - side  # T2: no throw gives another throw
        while turn in skips:  # U9: a skipped turn
            skips.discard(turn)
            turn = 1 - turn
        skip = skips.pop() if skips else None
        return UrPosition(layout, board, self.token_pair(), self.pot, turn, None, skip)

    def token_pair(self) -> tuple[int, int]:
        return self.tokens[0], self.tokens[1]


# ----- invariants ------------------------------------------------------------------------
def check_position(game: Ur, fen: str) -> None:
    position = game.position
    assert sum(position.tokens) + position.pot == TOKENS, f"tokens not conserved: {fen}"
    assert min(*position.tokens, position.pot) >= 0, fen
    cells: set[str] = set()
    for side, pieces in enumerate(position.pieces):
        assert len(pieces) == 5, fen
        assert all(at in (NOT_ENTERED, WAITING, GONE) or 1 <= at <= 16 for at in pieces), fen
        entered = [at != NOT_ENTERED for at in pieces]
        assert entered == sorted(entered, reverse=True), f"entered out of order (U3): {fen}"
        for at in pieces:
            if 1 <= at <= 16:
                where = cell(position.layout, side, at)
                assert where not in cells, f"two pieces on {where} (U1): {fen}"
                cells.add(where)
    assert position.skip != position.turn, f"the side to move has a skip pending: {fen}"
    done = [side for side in (0, 1) if all(at == GONE for at in position.pieces[side])]
    assert len(done) <= 1, fen
    assert game.winner() == (done[0] if done else None), fen
    if done:
        assert position.throw is None and position.pot == 0 and position.skip is None, fen


def check_notation(game: Ur, fen: str) -> None:
    """T3: the one-line notation holds the whole position and reads back to it."""
    parsed = game.parse_position(fen)
    assert parsed == game.position, f"{fen!r} reads back as {parsed}"
    assert game.format_position(parsed) == fen
    assert games.get("ur-tablet").game(fen).fen() == fen  # the board is in the notation


def candidates(position: UrPosition) -> list[Move]:
    """Moves a player might propose, legal or not: every piece by the throw and beyond,
    back, off; every entry and payment; pass, start, a split throw."""
    throw = position.throw or 0
    moves = {PASS, START, Move(3, 5, then=Move(8, 10))}
    for square in (1, 3, 5, 6, 7, 10, 12):
        moves.add(Move(IN, square))
        moves.add(Move(IN, square, kind="pay"))
    for side in (0, 1):
        for at in position.pieces[side]:
            if not 1 <= at <= 16:
                continue
            moves.update({Move(at, OFF), Move(at, at + throw), Move(at, max(1, at - 1))})
            moves.add(Move(at, at + throw + 1))
    return sorted(moves, key=str)


def check_explanations(game: Ur, legal: list[Move], seen: Seen) -> None:
    """explain() and legal_moves() run the same rules: they agree on every candidate."""
    fen = game.fen()
    for move in sorted({*legal, *candidates(game.position)}, key=str):
        if game.position.throw is None and move not in game.rules.pay_moves:
            continue  # no throw pending: only moves made instead of one can be explained
        explanation = game.explain(move)
        assert explanation.legal == (move in legal), (move, legal, fen)
        assert explanation.deciding.forbids is not explanation.legal, (move, fen)
        if not explanation.legal:
            assert explanation.deciding.verdict is Verdict.FORBIDS
        for ruling in explanation.rulings:
            assert ruling.short("fr") and ruling.long("en") and ruling.source()
        seen.add(explanation.rulings)


def check_after_the_end(game: Ur) -> None:
    fen = game.fen()
    assert game.legal_moves() == [], fen
    with pytest.raises(TurnError):
        game.throw("3")
    for move in (PASS, Move(IN, 1, kind="pay"), Move(3, 5)):
        with pytest.raises(TurnError):
            game.push(move)
    assert game.fen() == fen


# ----- a whole game ----------------------------------------------------------------------
def choose_action(game: Ur, policy: Policy, rng: random.Random) -> Action:
    """The seeded player: pay to enter, or throw with or without the stick; then a move."""
    position = game.position
    if position.throw is not None:
        return rng.choice(game.legal_moves())
    payments = game.legal_moves()
    if payments and rng.random() < policy.pay:
        return rng.choice(payments)
    throws = game.rules.throws
    assert isinstance(throws, DieAndStick)
    return throws.draw_with(rng, stick=rng.random() < policy.stick)


def play_random_game(
    rules: UrRules, seed: int, rates: Rates = SAMPLED, seen: Seen | None = None
) -> int:
    """One seeded game to its end with every invariant checked; returns the actions."""
    rng = random.Random(seed)
    checks = random.Random(-seed)
    policy = rng.choice(POLICIES)
    seen = seen if seen is not None else Seen()
    game, scratch = rules.game(), rules.game()
    assert isinstance(game, Ur) and isinstance(scratch, Ur)
    fens = [game.fen()]
    actions: list[Action] = []
    check_position(game, fens[0])
    while not game.is_over():
        assert len(actions) < MAX_ACTIONS, f"seed {seed}: no end in sight: {game.fen()}"
        before = game.position
        legal = game.legal_moves()
        assert {str(m) for m in legal} == expected_moves(before), (legal, game.fen())
        if checks.random() < rates.explain:
            check_explanations(game, legal, seen)
        action = choose_action(game, policy, rng)
        if isinstance(action, Throw):
            assert game.throw(action) == action
            assert action.score in SCORES and not action.extra_turn
            assert game.position == replace(before, throw=action.score)
        else:
            play_move(game, scratch, action, checks.random() < rates.push, seen)
            assert game.position == Referee(before).play(action), (action, fens[-1])
        actions.append(action)
        fens.append(game.fen())
        check_position(game, fens[-1])
        if checks.random() < rates.notation:
            check_notation(game, fens[-1])
        if rates.undo and len(actions) % UNDO_EVERY == 0:
            undo_and_replay(game, actions, fens, checks, deepest=5)
    check_after_the_end(game)
    undo_to_start(game, actions, fens)
    return len(actions)


def play_move(game: Ur, scratch: Ur, move: Move, explained: bool, seen: Seen) -> None:
    before = game.position
    if not explained:
        game.push_fast(move)
        return
    effects = game.push(move)
    seen.add(effects)
    scratch.position = before
    scratch.push_fast(move)
    assert scratch.position == game.position, (move, scratch.fen(), game.fen())


def midgame_positions(rules: UrRules, count: int, seed: int = 1) -> list[UrPosition]:
    """Positions with a throw pending and pieces of both sides on the board, sampled from
    seeded random games of the policies above (for benchmarks of legal_moves)."""
    rng = random.Random(seed)
    positions: list[UrPosition] = []
    game = Ur(rules)
    policy = rng.choice(POLICIES)
    while len(positions) < count:
        if game.is_over():
            game, policy = Ur(rules), rng.choice(POLICIES)
        action = choose_action(game, policy, rng)
        if isinstance(action, Throw):
            game.throw(action)
            on_board = [any(1 <= at <= 16 for at in side) for side in game.position.pieces]
            if all(on_board) and rng.random() < 0.2:
                positions.append(game.position)
        else:
            game.push_fast(action)
    return positions


def test_legal_moves_on_midgame_positions() -> None:
    rules = board_rules(1)
    game = rules.game()
    for position in midgame_positions(rules, 200):
        game.position = position
        assert {str(m) for m in game.legal_moves()} == expected_moves(position)


def board_rules(layout: int) -> UrRules:
    rules = games.get("ur-tablet")
    assert isinstance(rules, UrRules)
    return replace(rules, layout=layout)


@pytest.mark.parametrize("layout", [1, 2], ids=["ur-board", "tablet-board"])
@pytest.mark.parametrize("block", range(3))
def test_random_games_keep_every_invariant(layout: int, block: int) -> None:
    rules = board_rules(layout)
    per_block = GAMES_PER_BOARD // 3
    for index in range(block * per_block, (block + 1) * per_block):
        seed = 7919 * index + layout
        try:
            play_random_game(rules, seed, EVERY_TIME if index < FULLY_CHECKED else SAMPLED)
        except Exception as error:
            error.add_note(f"ur-tablet layout={layout}, seed {seed}")
            raise


def test_every_rule_rules_in_random_games() -> None:
    """The policies reach every rule of the book: each one allows, forbids or does
    something in these games."""
    seen = Seen()
    for layout in (1, 2):
        for seed in range(4):
            play_random_game(board_rules(layout), seed, EVERY_TIME, seen)
    book = games.get("ur-tablet").rules
    setup_only = {"board"}  # U1 describes the board: the rule cases cite it, play never does
    assert sorted(set(book) - setup_only - seen.keys) == []


def test_refused_moves_leave_the_game_untouched() -> None:
    game = board_rules(1).game("ur 1@3,2@-,3@-,4@-,5@- 1@5,2@-,3@-,4@-,5@- 15/15/20 w 2 -")
    fen = game.fen()
    for move in ("3-6", "in-5", "pay-1", "5-7"):
        with pytest.raises(IllegalMoveError):
            game.push(move)
        assert game.fen() == fen
