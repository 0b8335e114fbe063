"""The Sphinx at the table: who sits where, and its decisions off the event loop.

Seats are the people (or the Sphinx) in seating order; the seat chosen to start plays
the side the rules let start (white, red, the first to throw in Senet's opening) and the
others follow in order. In an opening that gives colours (Senet: the first to throw a 1
takes the opener's colour), the seats' colours are read from the game's history.

A decision is asked with a :class:`ThinkRequest` (immutable: the rule set, the position
in notation, the level) and answered by :func:`think` as a :class:`SphinxAnswer` event.
The event loop runs it in a worker thread and puts the answer on the queue, so the
buttons still answer while the Sphinx searches; scripts call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.core import END, Move, RaceGame, RuleSet
from companion.device.events import SphinxAnswer
from companion.errors import CompanionError
from companion.games.senet import Phase
from companion.sphinx import Level, Sphinx

AnyGame = RaceGame[Any]
HINTS_SHOWN = 3


class Purpose(Enum):
    MOVE = "move"  # the Sphinx's move with the pending throw
    BEFORE = "before"  # before its throw: a move instead of throwing, or how to throw
    HINT = "hint"  # the best moves for a person, with their values


@dataclass(frozen=True)
class ThinkRequest:
    purpose: Purpose
    rules: RuleSet
    fen: str
    level: Level
    seed: int


def think(request: ThinkRequest) -> SphinxAnswer:
    """The Sphinx's answer to a request (pure: builds its own game from the notation);
    a refusal of the engine comes back as the answer's ``problem``."""
    try:
        return _think(request)
    except CompanionError as error:
        return SphinxAnswer(request.purpose.value, request.fen, problem=str(error))


def _think(request: ThinkRequest) -> SphinxAnswer:
    game = request.rules.game(request.fen)
    sphinx = Sphinx(request.rules, level=request.level, seed=request.seed)
    purpose = request.purpose.value
    if request.purpose is Purpose.BEFORE:
        instead, option = sphinx.before_throw(game)
        moves: tuple[str, ...] = () if instead is None else (str(instead),)
        return SphinxAnswer(purpose, request.fen, moves, (), option)
    if request.purpose is Purpose.MOVE:
        return SphinxAnswer(purpose, request.fen, (str(sphinx.choose(game)),))
    hints = sphinx.hints(game)[:HINTS_SHOWN]
    moves = tuple(str(hint.move) for hint in hints)
    return SphinxAnswer(purpose, request.fen, moves, tuple(hint.value for hint in hints))


def decides_before_throw(game: AnyGame) -> bool:
    """Whether the rules offer a choice before this throw (a move instead, a way to throw)."""
    position = game.position
    if position.throw is not None or game.is_over():
        return False
    instead = [move for move in game.legal_moves() if move.moves_a_piece]
    return bool(instead) or len(game.throw_options(position)) > 1


def agrees_to_end(game: AnyGame, side: int) -> bool:
    """Whether the Sphinx playing ``side`` agrees to end the game now (Mehen's M10): only
    when it would not lose by it."""
    position = game.apply(game.position, END, explain=False)[0]
    winner = game.winner_of(position)
    return winner is None or winner == side


def players_of(game: AnyGame) -> int:
    players: int = getattr(game.position, "players", game.rules.players)  # Mehen's own count
    return players


def seat_of_side(game: AnyGame, start: str, first: int, side: int) -> int:
    """The seat playing ``side`` (a turn index of the position) in a game begun at ``start``
    by seat ``first``."""
    players = players_of(game)
    begun = game.rules.game(start)
    shift: int = first - begun.position.turn
    if _in_opening(begun) and not _in_opening(game):
        thrower = _opening_thrower(game, start)
        if thrower is not None:  # the thrower of the 1 took the opener's colour
            seat = (thrower + shift) % players
            opener: int = getattr(game.rules, "opener", 0)
            return seat if side == opener else (seat + 1) % players
    return (side + shift) % players


def side_of_seat(game: AnyGame, start: str, first: int, seat: int) -> int:
    for side in range(players_of(game)):
        if seat_of_side(game, start, first, side) == seat:
            return side
    return seat


def _in_opening(game: AnyGame) -> bool:
    return getattr(game.position, "phase", None) is Phase.OPENING


def _opening_thrower(game: AnyGame, start: str) -> int | None:
    """The turn (in the opening's count) that made the move ending the opening."""
    replay = game.rules.game(start)
    for action in game.history:
        if not _in_opening(replay):
            return None
        before = replay.position.turn
        if isinstance(action, Move):
            replay.push(action)
        else:
            replay.throw(action)
        if not _in_opening(replay):
            return int(before)
    return None
