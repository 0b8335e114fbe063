"""Our ur-finkel and ur-masters next to royalur 0.0.6, an implementation nobody here wrote.

royalur (MIT, PyPI) is a test-only dependency: the engine never imports it. This module
maps between the two representations and plays both engines side by side:

- a royalur tile ``Tile(x, y)`` is our cell named by column ``"ABCDEFGH"[y - 1]`` and row
  ``x`` (royalur's x runs across the board: 1 is the light player's side, our white's row 1;
  its y runs along the board from the end of the 3x4 block away from the bridge, our A);
- a royalur piece carries its ``path_index`` on its owner's path (0-based): our track
  square is ``path_index + 1``; light is white, dark is black;
- royalur's ``PlayerState`` counts ``piece_count`` (pieces off the board, waiting) and
  ``score`` (borne off): our ``waiting`` and ``off``;
- a royalur move without source enters (``in-N``), one without destination scores (``N-off``);
- royalur has no pass: a roll with no available move goes straight to the other player's
  roll, where we play ``pass`` (T1).

``compare_games`` drives both engines with the same throws and the same moves, and compares
the legal moves and the whole position after every action.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from royalur import Board, Game, PlayerState, PlayerType, Tile
from royalur.rules import WaitingForRollGameState

from companion.core import IN, OFF, PASS, Move
from companion.games.royal import BLACK, WHITE, RoyalPosition, RoyalUr, RoyalUrRules

COLUMNS = "ABCDEFGH"
PLAYERS = (PlayerType.LIGHT, PlayerType.DARK)  # index: our side


def royalur_game(name: str) -> Any:
    """A new royalur game of the rule set named ``name``."""
    if name == "ur-finkel":
        return Game.create_finkel()
    if name == "ur-masters":
        return Game.create_masters()
    raise ValueError(f"royalur has no counterpart of {name}")


def cell_of(tile: Any) -> str:
    return f"{COLUMNS[tile.y - 1]}{tile.x}"


def tile_of(cell: str) -> Any:
    return Tile(int(cell[1]), COLUMNS.index(cell[0]) + 1)


def side_of(player: Any) -> int:
    return PLAYERS.index(player)


# ----- positions ---------------------------------------------------------------------------
def position_of(rules: RoyalUrRules, game: Any) -> RoyalPosition:
    """Our position for royalur's current state (a throw pending when it awaits a move)."""
    state = game.get_current_state()
    board = state.board
    pieces = [0, 0]
    for side, path in enumerate(rules.paths):
        for square, cell in enumerate(path, start=1):
            piece = board.get(tile_of(cell))
            if piece is not None and side_of(piece.owner) == side:
                assert piece.path_index == square - 1, (cell, piece.path_index, square)
                pieces[side] |= 1 << square
    players = (state.light_player, state.dark_player)
    waiting = (players[0].piece_count, players[1].piece_count)
    off = (players[0].score, players[1].score)
    if game.is_finished():
        turn, throw = side_of(game.get_winner()), None
    else:
        turn = side_of(game.get_turn())
        throw = game.get_roll().value if game.is_waiting_for_move() else None
    return RoyalPosition((pieces[0], pieces[1]), waiting, off, turn, throw)


def royalur_state(rules: RoyalUrRules, position: RoyalPosition) -> Any:
    """royalur's state awaiting a roll, for one of our positions (its throw left out)."""
    game = royalur_game(rules.name)
    board = Board(game.rules.board_shape)
    for side in (WHITE, BLACK):
        for square in position.squares[side]:
            piece = game.rules.piece_provider.create_introduced(PLAYERS[side], square - 1)
            board.set(tile_of(rules.cell(side, square)), piece)
    light, dark = (
        PlayerState(PLAYERS[side], position.waiting[side], position.off[side])
        for side in (WHITE, BLACK)
    )
    return WaitingForRollGameState(board, light, dark, PLAYERS[position.turn])


def royalur_moves(rules: RoyalUrRules, position: RoyalPosition, throw: int) -> list[str]:
    """royalur's legal moves for ``throw`` in our position, in our notation (pass: none)."""
    game = royalur_game(rules.name)
    state = royalur_state(rules, position)
    found = game.rules.find_available_moves(state.board, state.get_turn_player(), _roll(throw))
    return sorted(str(move_of(rules, move)) for move in found)


def _roll(value: int) -> Any:
    from royalur.model import Roll

    return Roll(value)


# ----- moves -------------------------------------------------------------------------------
def move_of(rules: RoyalUrRules, move: Any) -> Move:
    """Our move for a royalur move, checking that its tiles are the cells of our squares."""
    side = side_of(move.player)
    start = IN if move.source is None else move.source_piece.path_index + 1
    end = OFF if move.dest is None else move.dest_piece.path_index + 1
    if start != IN:
        assert cell_of(move.source) == rules.cell(side, start), (move.source, start)
    if end != OFF:
        assert cell_of(move.dest) == rules.cell(side, end), (move.dest, end)
    return Move(start, end)


def their_moves(rules: RoyalUrRules, game: Any) -> dict[str, Any]:
    """royalur's available moves by our notation; {} when its roll had none (a pass)."""
    if not game.is_waiting_for_move():
        return {}
    return {str(move_of(rules, move)): move for move in game.find_available_moves()}


# ----- games side by side ------------------------------------------------------------------
@dataclass
class Summary:
    """What a comparison found: counts, and the differences (each with its seed)."""

    games: int = 0
    actions: int = 0
    passes: int = 0
    captures: int = 0
    differences: list[str] = field(default_factory=list)
    wins: list[int] = field(default_factory=lambda: [0, 0])

    def as_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "actions": self.actions,
            "passes": self.passes,
            "captures": self.captures,
            "white_wins": self.wins[WHITE],
            "black_wins": self.wins[BLACK],
            "differences": len(self.differences),
        }


MAX_ACTIONS = 10_000


def compare_game(rules: RoyalUrRules, seed: int, summary: Summary) -> None:
    """One seeded random game on both engines; differences go into ``summary``."""
    rng = random.Random(seed)
    ours = rules.game()
    assert isinstance(ours, RoyalUr)
    theirs = royalur_game(rules.name)
    summary.games += 1
    for _ in range(MAX_ACTIONS):
        difference = _same_position(rules, ours, theirs)
        if difference or ours.is_over():
            break
        throw = ours.random_throw(rng)
        ours.throw(throw)
        theirs.roll_dice(throw.score)
        legal = sorted(str(move) for move in ours.legal_moves())
        available = their_moves(rules, theirs)
        expected = sorted(available) or [str(PASS)]
        if legal != expected:
            difference = f"moves: ours {legal}, royalur {expected}"
            break
        move = rng.choice(ours.legal_moves())
        enemies = ours.position.pieces[1 - ours.position.turn].bit_count()
        mover = ours.position.turn
        ours.push_fast(move)
        summary.actions += 2
        if move == PASS:
            summary.passes += 1
        else:
            theirs.make_move(available[str(move)])
            summary.captures += ours.position.pieces[1 - mover].bit_count() < enemies
    else:
        difference = f"no end after {MAX_ACTIONS} actions"
    if difference:
        summary.differences.append(f"{rules.name} seed {seed} at {ours.fen()}: {difference}")
    elif ours.is_over():
        winner = ours.winner()
        assert winner is not None
        summary.wins[winner] += 1


def _same_position(rules: RoyalUrRules, ours: RoyalUr, theirs: Any) -> str:
    """'' when both engines are in the same position awaiting a roll, else what differs."""
    if ours.is_over() != theirs.is_finished():
        return f"over: ours {ours.is_over()}, royalur {theirs.is_finished()}"
    mapped = position_of(rules, theirs)
    if mapped != ours.position:
        return f"positions: ours {ours.fen()}, royalur {ours.format_position(mapped)}"
    return ""


def compare_games(rules: RoyalUrRules, seeds: Iterable[int]) -> Summary:
    summary = Summary()
    for seed in seeds:
        compare_game(rules, seed, summary)
    return summary
