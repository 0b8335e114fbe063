"""The Sphinx: the companion as an opponent, and hints for the players.

Expectimax over the rule set's exact throw probabilities: at a throw the value is the
expectation over every outcome; at a move the player to move takes the move best for
them. Values are vectors, one number per player (max-n), so the same search serves two
players and a Mehen table of six; "best" is the mover's value less the best other
player's, so a player also values harm done to the leader (a capture), not only its own
progress. Leaves are scored by the family's evaluation (pieces'
progress, safety, ...), registered in :data:`EVALUATORS`; an ended game scores its result.

Three levels: ``easy`` looks one move ahead and sometimes errs, ``normal`` looks at the
opponent's reply, ``strong`` searches deeper by iterative deepening (in Senet-Modern it
also cuts moves proven worse than one already searched, :meth:`Sphinx._ranked_pruned`, so
that it completes the opponent's reply within its budget), and in Senet-Modern and Ur-tablet
scores leaves by an evaluation learnt from games (:mod:`companion.sphinx_learned`), which the
lower levels lack. Past the first depth a
search keeps to a budget of nodes (moves tried), so the same position and seed always give
the same choice whatever the machine; a deeper search that would overrun the budget is
abandoned for the last one completed. A clock is a second, safety limit for slow hardware
(``clock=False`` turns it off, as the match benchmark does to stay reproducible).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from companion.core import OFF, PASS, Move, RaceGame, RuleSet
from companion.errors import TurnError
from companion.games.mehen import Mehen
from companion.games.mehen_position import GONE, TAIL, MehenPosition
from companion.games.modern import Modern, ModernPosition
from companion.games.royal import RoyalPosition, RoyalUr
from companion.games.senet import Senet, SenetPosition, SenetRules
from companion.games.ur import BORNE_OFF, Ur, UrPosition
from companion.sphinx_learned import LEARNT, Learnt
from companion.throws import Outcome, Throw

Values = tuple[float, ...]
Evaluator = Callable[[RaceGame[Any], Any], Values]

WIN = 1000.0  # the value of a won game, far above any evaluation
# Node budgets, measured to keep every decision under 200 ms on the development machine
# (benchmarks/match.py); a Raspberry Pi 4 core is about five times slower.
NORMAL_NODES = 3000
STRONG_NODES = 4000


class Level(Enum):
    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"


@dataclass(frozen=True)
class LevelSettings:
    depth: int  # moves looked ahead (the deepest search tried)
    nodes: int  # moves tried past the first depth, per decision (0: no limit)
    seconds: float  # clock limit past the first depth, a safety net (0: none)
    blunder_rate: float  # chance of playing a random legal move instead
    # Families where choose() skips moves proven worse than one already searched (the
    # cuts choose the full search's move, but reach deeper within the budget, so a level's
    # strength changes where they apply: measured in docs/sphinx.md for these only).
    prune: tuple[type[RaceGame[Any]], ...] = ()
    # Rule sets (by name) where the level scores leaves by the evaluation learnt from
    # games (companion/sphinx_learned.py) instead of the hand-written one.
    learnt: frozenset[str] = frozenset()


SETTINGS = {
    Level.EASY: LevelSettings(depth=1, nodes=0, seconds=0.0, blunder_rate=0.15),
    Level.NORMAL: LevelSettings(depth=2, nodes=NORMAL_NODES, seconds=0.15, blunder_rate=0.0),
    Level.STRONG: LevelSettings(
        depth=4,
        nodes=STRONG_NODES,
        seconds=0.15,
        blunder_rate=0.0,
        prune=(Modern,),
        learnt=frozenset({"senet-modern", "ur-tablet"}),
    ),
}
# A cut needs the bound below the best value by more than the rounding of two ways of
# summing the same expectation.
CUT_MARGIN = 1e-9


@dataclass(frozen=True)
class Hint:
    """A move and what the search expects of it for the player to move."""

    move: Move
    value: float  # own evaluation minus the best opponent's; WIN for a won game

    def __str__(self) -> str:
        return f"{self.move} ({self.value:+.1f})"


@dataclass(frozen=True)
class _Probe:
    """The opponent's position after one throw, its legal moves, and one reply tried."""

    position: Any
    legal: list[Move]
    reply: Move
    values: Values


class _OutOfBudgetError(Exception):
    """The search has used its nodes or its time: keep the last completed depth."""


class Sphinx:
    """Chooses moves for the player to move; ``hints`` ranks the legal moves."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        level: Level = Level.NORMAL,
        seed: int | None = None,
        evaluator: Evaluator | None = None,
        clock: bool = True,
    ) -> None:
        self.rules = rules
        self.level = level
        self.settings = SETTINGS[level]
        self.clock = clock
        self.rng = random.Random(seed)
        self.evaluator = evaluator or evaluator_for(rules, learnt=self.settings.learnt)
        self._scratch = rules.game()
        self._cache: dict[tuple[Any, int], Values] = {}
        self._grouped: dict[tuple[Outcome, ...], list[tuple[Throw, float]]] = {}
        self._deadline = 0.0
        self._nodes_left = -1  # below zero: no limit
        self._killers: dict[Throw, Move] = {}  # the opponent's best reply to each throw

    def choose(self, game: RaceGame[Any]) -> Move:
        """The move to play with the pending throw; with none, the move to make instead of
        throwing when the rules offer one that beats throwing (else TurnError: throw)."""
        if game.position.throw is None and not game.is_over():
            instead, _ = self.before_throw(game)
            if instead is None:
                raise TurnError(f"the Sphinx would throw: throw first ({game.fen()})")
            return instead
        legal = game.legal_moves()
        if not legal:
            raise TurnError(f"the game is over: the Sphinx has no move to choose ({game.fen()})")
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < self.settings.blunder_rate:
            return self.rng.choice(legal)
        prune = issubclass(self.rules.family, self.settings.prune)
        return self._deepened(game, prune=prune)[0].move

    def before_throw(self, game: RaceGame[Any]) -> tuple[Move | None, str]:
        """With no throw pending: the move to make instead of throwing (None: throw), and
        the best way to throw (a key of the game's ``throw_options``)."""
        position = game.position
        if position.throw is not None or game.is_over():
            raise TurnError(f"the Sphinx decides before a throw only ({game.fen()})")
        self._scratch.position = position
        options = {
            name: _grouped(outcomes)
            for name, outcomes in self._scratch.throw_options(position).items()
        }
        instead = _instead_moves(game)
        if len(options) == 1 and not instead:  # nothing to weigh: throw
            return None, next(iter(options))
        self._start_budget(unlimited=True)  # the first depth always completes
        choice = self._before_throw_at(position, options, instead, 1)
        self._start_budget()
        with contextlib.suppress(_OutOfBudgetError):
            choice = self._before_throw_at(position, options, instead, min(self.settings.depth, 2))
        return choice

    def _before_throw_at(
        self,
        position: Any,
        options: dict[str, list[tuple[Throw, float]]],
        instead: list[Move],
        depth: int,
    ) -> tuple[Move | None, str]:
        self._cache.clear()
        mover = position.turn
        valued = {
            name: _advantage(self._expectation(position, outcomes, depth), mover)
            for name, outcomes in options.items()
        }
        best_option = max(valued, key=lambda name: valued[name])
        best_move: Move | None = None
        best_value = valued[best_option]
        for move in instead:
            value = _advantage(self._after_move(position, move, depth), mover)
            if value > best_value:
                best_move, best_value = move, value
        return best_move, best_option

    def hints(self, game: RaceGame[Any]) -> list[Hint]:
        """Every legal move with its expected value for the player to move, best first."""
        return self._deepened(game, prune=False)

    def _deepened(self, game: RaceGame[Any], *, prune: bool) -> list[Hint]:
        """Iterative deepening within the budget. With ``prune`` only the first hint is
        sure to be exact: a move proven worse than it is ranked by an upper bound."""
        position = game.position
        legal = game.legal_moves() if position.throw is not None else _instead_moves(game)
        self._start_budget(unlimited=True)  # the first depth always completes
        ranked = self._ranked(position, legal, 1)
        self._start_budget()
        prune = prune and self._prunable(position)
        used = [max(1, len(legal))]  # nodes each depth took
        for depth in range(2, self.settings.depth + 1):
            before = self._nodes_left
            if depth > 2 and before >= 0 and used[-1] * used[-1] / used[-2] > before:
                break  # the next depth would overrun the budget: save the nodes
            try:
                if prune:
                    ranked = self._ranked_pruned(position, legal, depth, ranked)
                else:
                    ranked = self._ranked(position, legal, depth)
            except _OutOfBudgetError:
                break
            used.append(max(1, before - self._nodes_left))
        return ranked

    def _start_budget(self, *, unlimited: bool = False) -> None:
        """Nodes and time for what follows (shared by every deeper search of a decision)."""
        settings = self.settings
        self._nodes_left = -1 if unlimited or not settings.nodes else settings.nodes
        seconds = 0.0 if unlimited or not self.clock else settings.seconds
        self._deadline = time.perf_counter() + seconds if seconds else 0.0

    # ----- search ------------------------------------------------------------------------
    def _ranked(self, position: Any, legal: Sequence[Move], depth: int) -> list[Hint]:
        self._cache.clear()
        mover = position.turn
        scored = [
            Hint(move, _advantage(self._after_move(position, move, depth), mover)) for move in legal
        ]
        return sorted(scored, key=lambda hint: -hint.value)

    def _prunable(self, position: Any) -> bool:
        """Cuts need a zero-sum value (two players: one's advantage is the other's loss)
        and a move to be chosen after the throw."""
        players: int = getattr(position, "players", self.rules.players)
        return players == 2 and position.throw is not None

    def _ranked_pruned(
        self, position: Any, legal: Sequence[Move], depth: int, previous: Sequence[Hint]
    ) -> list[Hint]:
        """As :meth:`_ranked`, searching the moves in the order of the previous depth and
        cutting a move's search once an upper bound of its value falls below the best
        value found (Star1 over the opponent's throws, with each throw's bound probed by
        one reply, as Ballard's Star2 does). The best move and its value are those of the
        full search; ties go to the earlier legal move, as there."""
        self._cache.clear()
        self._killers.clear()
        index = {move: number for number, move in enumerate(legal)}
        exact: list[tuple[float, int, Move]] = []
        bounded: list[tuple[float, int, Move]] = []
        best = -float("inf")
        for hint in previous:
            value, is_exact = self._bounded_after_move(position, hint.move, depth, best)
            (exact if is_exact else bounded).append((value, index[hint.move], hint.move))
            if is_exact and value > best:
                best = value
        order = sorted(exact, key=lambda item: (-item[0], item[1]))
        order += sorted(bounded, key=lambda item: (-item[0], item[1]))
        return [Hint(move, value) for value, _, move in order]

    def _bounded_after_move(
        self, position: Any, move: Move, depth: int, alpha: float
    ) -> tuple[float, bool]:
        """The mover's advantage after ``move`` (exact: True), or an upper bound of it
        below ``alpha`` (False) where the opponent's throws prove it cannot reach it."""
        mover = position.turn
        child = self._child(position, move)
        scratch = self._scratch
        scratch.position = child
        if (
            depth < 2
            or child.turn == mover
            or scratch.is_over()
            or _instead_moves(scratch)
            or len(scratch.throw_options(child)) != 1
        ):
            return _advantage(self._value(child, depth - 1), mover), True
        key = (child, depth - 1)
        cached = self._cache.get(key)
        if cached is not None:
            return _advantage(cached, mover), True
        if self._deadline and time.perf_counter() > self._deadline:
            raise _OutOfBudgetError
        outcomes = self._throw_options(child)[0]
        probes = [self._probe(child, throw, depth - 1) for throw, _ in outcomes]
        bounds = [_advantage(probe.values, mover) for probe in probes]
        upper = 0.0
        for (_, probability), bound in zip(outcomes, bounds, strict=True):
            upper += probability * bound
        total: list[float] = []
        for number, (throw, probability) in enumerate(outcomes):
            if upper < alpha - CUT_MARGIN * (1.0 + abs(alpha)):
                return upper, False
            values = self._best_reply_probed(throw, probes[number], depth - 1)
            upper += probability * (_advantage(values, mover) - bounds[number])
            if not total:
                total = [0.0] * len(values)
            for component, value in enumerate(values):
                total[component] += probability * value
        expected = tuple(total)
        self._cache[key] = expected
        return _advantage(expected, mover), True

    def _child(self, position: Any, move: Move) -> Any:
        """The position after ``move`` (a node of the budget)."""
        self._spend_node()
        scratch = self._scratch
        scratch.position = position
        if move == PASS:
            return scratch.apply_pass(position)
        return scratch.apply(position, move, explain=False)[0]

    def _probe(self, position: Any, throw: Throw, depth: int) -> _Probe:
        """One reply to ``throw`` and its value: the opponent does at least as well, so
        it bounds the mover's value. The reply that was best against the previous move
        searched is tried first (it often is best again)."""
        thrown = self._scratch.with_throw(position, throw)
        self._scratch.position = thrown
        legal = self._scratch.legal_moves()
        killer = self._killers.get(throw)
        reply = killer if killer is not None and killer in legal else legal[0]
        return _Probe(thrown, legal, reply, self._after_move(thrown, reply, depth))

    def _best_reply_probed(self, throw: Throw, probe: _Probe, depth: int) -> Values:
        """:meth:`_best_reply` for ``throw``, reusing the probed reply's value; moves are
        taken in the same order, so ties fall as in the full search."""
        thrown = probe.position
        mover = thrown.turn
        best: Values | None = None
        best_move = probe.reply
        for move in probe.legal:
            reused = move == probe.reply
            values = probe.values if reused else self._after_move(thrown, move, depth)
            if best is None or _advantage(values, mover) > _advantage(best, mover):
                best, best_move = values, move
        self._killers[throw] = best_move
        assert best is not None
        return best

    def _spend_node(self) -> None:
        """One node of the budget (a negative budget: none)."""
        if self._nodes_left >= 0:
            if self._nodes_left == 0:
                raise _OutOfBudgetError
            self._nodes_left -= 1

    def _after_move(self, position: Any, move: Move, depth: int) -> Values:
        return self._value(self._child(position, move), depth - 1)

    def _value(self, position: Any, depth: int) -> Values:
        """The expected values of a position where the player to move is about to throw."""
        scratch = self._scratch
        scratch.position = position
        if scratch.is_over():
            return self._result(position)
        if depth <= 0:
            return self.evaluator(scratch, position)
        key = (position, depth)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if self._deadline and time.perf_counter() > self._deadline:
            raise _OutOfBudgetError
        expected = self._expected_over_throws(position, depth)
        scratch.position = position
        instead = _instead_moves(scratch)
        mover = position.turn
        for move in instead:
            values = self._after_move(position, move, depth)
            if _advantage(values, mover) > _advantage(expected, mover):
                expected = values
        self._cache[key] = expected
        return expected

    def _expected_over_throws(self, position: Any, depth: int) -> Values:
        """The best way to throw for the player to move (most rule sets have one), with
        the expectation over its outcomes."""
        best: Values | None = None
        mover = position.turn
        for outcomes in self._throw_options(position):
            values = self._expectation(position, outcomes, depth)
            if best is None or _advantage(values, mover) > _advantage(best, mover):
                best = values
        assert best is not None
        return best

    def _throw_options(self, position: Any) -> list[list[tuple[Throw, float]]]:
        self._scratch.position = position
        options = []
        for outcomes in self._scratch.throw_options(position).values():
            key = tuple(outcomes)
            grouped = self._grouped.get(key)
            if grouped is None:
                grouped = self._grouped[key] = _grouped(outcomes)
            options.append(grouped)
        return options

    def _expectation(
        self, position: Any, outcomes: list[tuple[Throw, float]], depth: int
    ) -> Values:
        scratch = self._scratch
        total: list[float] = []
        for throw, probability in outcomes:
            thrown = scratch.with_throw(position, throw)
            values = self._best_reply(thrown, depth)
            if not total:
                total = [0.0] * len(values)
            for index, value in enumerate(values):
                total[index] += probability * value
        return tuple(total)

    def _best_reply(self, position: Any, depth: int) -> Values:
        scratch = self._scratch
        scratch.position = position
        mover = position.turn
        best: Values | None = None
        for move in scratch.legal_moves():
            values = self._after_move(position, move, depth)
            if best is None or _advantage(values, mover) > _advantage(best, mover):
                best = values
        assert best is not None  # legal_moves is never empty with a throw pending
        return best

    def _result(self, position: Any) -> Values:
        scratch = self._scratch
        winner = scratch.winner_of(position)
        players: int = getattr(position, "players", self.rules.players)  # Mehen's own count
        if winner is None:  # a draw
            return (0.0,) * players
        return tuple(WIN if player == winner else -WIN for player in range(players))


def _instead_moves(game: RaceGame[Any]) -> list[Move]:
    """Moves that replace the throw and move a piece (Ur's paid entry); never Mehen's
    'end', which needs every player's agreement."""
    return [move for move in game.legal_moves() if move.moves_a_piece]


def _advantage(values: Values, player: int) -> float:
    others = [value for index, value in enumerate(values) if index != player]
    return values[player] - max(others)


def _grouped(outcomes: Sequence[Outcome]) -> list[tuple[Throw, float]]:
    """Each distinct throw once, with its total probability."""
    grouped: dict[Throw, Fraction] = {}
    for outcome in outcomes:
        grouped[outcome.throw] = grouped.get(outcome.throw, Fraction(0)) + outcome.probability
    return [(throw, float(probability)) for throw, probability in grouped.items()]


# ----- evaluations per family -------------------------------------------------------------
def evaluate_senet(game: RaceGame[Any], position: SenetPosition) -> Values:
    """Progress along the track, pieces borne off, and pairs that cannot be attacked.
    Progress is counted in squares, except with Migo's exits (S6-S9): see
    :func:`_exit_values` and :func:`_water_risk`."""
    assert isinstance(game, Senet)
    rules = game.rules
    values = _exit_values(rules) if rules.exits else None
    scores = []
    for side in (0, 1):
        squares = position.pieces(side)
        if values is None:
            progress = sum(squares) + position.off[side] * 36.0
        else:
            progress = sum(values[square] for square in squares) + position.off[side] * values[0]
            progress -= WATER_RISK_WEIGHT * _water_risk(rules, position.board, squares, values)
        safe = sum(1 for square in squares if _next_to_own(position.board, square))
        scores.append(progress + 2.0 * safe - 0.5 * _behind_home(squares, rules.home_row))
    return tuple(scores)


WATER_RISK_WEIGHT = 3.0  # the risk comes back every turn until a throw fits


_EXIT_VALUES: dict[int, tuple[SenetRules, list[float]]] = {}


def _exit_values(rules: SenetRules) -> list[float]:
    """Each square's worth (index 0: borne off) with exits: the throws a piece needs from
    square 1 to leave, less those it needs from there, in units of one square early on the
    track, for a piece whose unusable throws other pieces take (the water's risk, when no
    other piece can, is :func:`_water_risk`). A piece on 26-30 waits for one exact throw,
    so leaving is worth far more than the few squares it looks like."""
    cached = _EXIT_VALUES.get(id(rules))
    if cached is None or cached[0] is not rules:
        throws = _throws_to_leave(rules)
        square = (throws[1] - throws[11]) / 10
        values = [throws[1] / square] + [(throws[1] - t) / square for t in throws[1:]]
        values[rules.water] = 0.0
        cached = _EXIT_VALUES[id(rules)] = (rules, values)
    return cached[1]


def _throws_to_leave(rules: SenetRules) -> list[float]:
    """Expected throws for a piece to leave from each square (index 0 unused), by value
    iteration; a throw the piece cannot use (or that would drop it in the water) is left
    to another piece, and the piece takes a throw only when it brings it nearer."""
    chances = [(score, float(p)) for score, p in rules.throws.score_probabilities().items()]
    last = len(rules.start_board())
    throws = [0.0] * (last + 1)
    for _ in range(300):
        following = [0.0] * (last + 1)
        for start in range(1, last + 1):
            expected = 1.0
            for score, chance in chances:
                target = _target(rules, start, score)
                expected += chance * min(throws[start], throws[target])
            following[start] = expected if start != rules.water else 0.0
        throws = following
    return throws


def _target(rules: SenetRules, start: int, score: int) -> int:
    """Where a piece goes with this throw: 0 once off; ``start`` when it cannot use it."""
    end = rules.forward_end(start, score)
    if end == OFF:
        return 0
    exact = rules.exact_square
    if end == rules.water or (exact is not None and start < exact < end):
        return start
    return end


def _water_risk(
    rules: SenetRules, board: str, squares: Sequence[int], values: Sequence[float]
) -> float:
    """S9: with every piece on the exit squares, the worth expected to be lost to the
    water on the next throw (a throw no piece can use drops one back to the start)."""
    waiting = [square for square in squares if square in rules.exits]
    if not waiting or len(waiting) < len(squares):
        return 0.0  # a piece before the exits can take the throw (forward or backward)
    lost = min(values[square] for square in waiting) - values[1]
    risk = 0.0
    for score, chance in _score_chances(rules):
        if not any(_exit_open(rules, board, square, score) for square in waiting):
            risk += chance * lost
    return risk


def _exit_open(rules: SenetRules, board: str, square: int, score: int) -> bool:
    end = rules.forward_end(square, score)
    return end == OFF or (end != rules.water and board[end - 1] == ".")


_SCORE_CHANCES: dict[int, tuple[SenetRules, list[tuple[int, float]]]] = {}


def _score_chances(rules: SenetRules) -> list[tuple[int, float]]:
    cached = _SCORE_CHANCES.get(id(rules))
    if cached is None or cached[0] is not rules:
        chances = [(score, float(p)) for score, p in rules.throws.score_probabilities().items()]
        cached = _SCORE_CHANCES[id(rules)] = (rules, chances)
    return cached[1]


def _next_to_own(board: str, square: int) -> bool:
    piece = board[square - 1]
    before = square >= 2 and board[square - 2] == piece
    after = square < len(board) and board[square] == piece
    return before or after


def _behind_home(squares: Sequence[int], home_row: int | None) -> int:
    """Kendall's K6: pieces still short of the row from which pieces bear off."""
    if home_row is None:
        return 0
    return sum(home_row - square for square in squares if square < home_row)


def evaluate_ur(game: RaceGame[Any], position: UrPosition) -> Values:
    """Progress of the five pieces (borne off counts most), then tokens (U11 settles them)."""
    scores = []
    for side in (0, 1):
        progress = 0.0
        for square in position.pieces[side]:
            if square == BORNE_OFF:
                progress += square + 4.0
            elif square > 0:
                progress += square
        scores.append(progress + 0.3 * position.tokens[side])
    return tuple(scores)


def evaluate_mehen(game: RaceGame[Any], position: MehenPosition) -> Values:
    """M10's score (own pieces in play and pieces eaten) first, then the way to the centre
    (safe there, and it releases the predator), and the predator: on the board while there
    is prey for it, gone once there is none (the game ends when every predator has left,
    so a predator with nothing to eat should head for the tail and leave)."""
    length = position.length
    prey = [_prey(position, seat) for seat in range(position.players)]
    total_prey = sum(prey)
    scores = []
    for seat in range(position.players):
        progress = sum(position.track_squares(seat)) / length + position.centre[seat]
        predator = position.predators[seat]
        if predator == GONE:
            hunting = 1.0
        elif predator >= TAIL:
            hunting = 2.0 if total_prey - prey[seat] else 1.0 - predator / length
        else:
            hunting = 0.0
        scores.append(10.0 * position.score(seat) + progress + hunting)
    return tuple(scores)


def _prey(position: MehenPosition, seat: int) -> int:
    """The seat's simple pieces a predator may still eat: on the way to the centre, on the
    tail or still to enter."""
    return len(position.track_squares(seat)) + position.tail[seat] + position.to_enter[seat]


def evaluate_modern(game: RaceGame[Any], position: ModernPosition) -> Values:
    """N8: points borne off count most; then each piece's way home, weighted by the points
    it will bring (piece 5 is worth five times piece 1)."""
    scores = []
    for side in (0, 1):
        home = sum(position.board[square] >> 1 for square in position.squares(side))
        progress = sum(square * (position.board[square] >> 1) for square in position.squares(side))
        scores.append(40.0 * sum(position.off[side]) + progress / 10 + home)
    return tuple(scores)


def evaluate_royal(game: RaceGame[Any], position: RoyalPosition) -> Values:
    """Pieces borne off, then each piece's way along the track."""
    scores = []
    for side in (0, 1):
        progress = sum(position.squares[side])
        scores.append(20.0 * position.off[side] + progress)
    return tuple(scores)


def learnt_evaluator(learnt: Learnt) -> Evaluator:
    """A learnt evaluation (two players) on the search's scale: the mover's chance to win
    ``p`` is worth ``WIN * (2p - 1)`` to them and the opposite to the other player, so that
    a sure win is worth what an ended game is."""

    def evaluate(game: RaceGame[Any], position: Any) -> Values:
        value = WIN * (2.0 * learnt.mover_wins(game.rules, position) - 1.0)
        return (value, -value) if position.turn == 0 else (-value, value)

    return evaluate


EVALUATORS: dict[type[RaceGame[Any]], Evaluator] = {
    Senet: evaluate_senet,
    Ur: evaluate_ur,
    Mehen: evaluate_mehen,
    Modern: evaluate_modern,
    RoyalUr: evaluate_royal,
}


def evaluator_for(rules: RuleSet, *, learnt: frozenset[str] = frozenset()) -> Evaluator:
    """The evaluation registered for the rule set's family; the one learnt for the rule
    set if it is named in ``learnt`` and has one."""
    if rules.name in learnt and rules.name in LEARNT:
        return learnt_evaluator(LEARNT[rules.name])
    for family, evaluator in EVALUATORS.items():
        if issubclass(rules.family, family):
            return evaluator
    raise TurnError(f"the Sphinx cannot play {rules.name} yet: no evaluation for its family")
