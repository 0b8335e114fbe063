"""``companion demo``: a demonstration game played through the engine and printed.

Throws are drawn with the rule set's exact stick odds and shown as the faces a camera
would read; each side plays a simple greedy move. The opening moves are told in full,
with a ruling on a move the rules forbid, then the game runs to its end.
"""

from __future__ import annotations

import random
from typing import Any

from companion import games
from companion.core import PASS, Move, RaceGame
from companion.device.boards import screens_for
from companion.rules import Explanation
from companion.throws import MARKED, PLAIN

AnyGame = RaceGame[Any]
_DULL_DISPUTES = frozenset({"distance", "not-your-piece", "opening"})
TOLD_IN_FULL = 30  # actions told one by one before the game is fast-forwarded
SUMMARY_EVERY = 60

# Preferences of the greedy player: what a move does, as a rule key, and its worth.
_WORTH = {"win": 100, "bear-off": 50, "exit": 40, "swap": 20, "water": -40, "backward": -10}


def run_demo(game_name: str, *, seed: int, lang: str) -> int:
    rules = games.get(game_name)
    game = rules.game()
    rng = random.Random(seed)
    print(f"Demonstration: {rules.title}, seed {seed}")
    print(f"Throws drawn with their exact odds: {rules.throws.describe()}")
    _show_board(game)
    dispute_told = False
    actions = 0
    while not game.is_over():
        faces = _throw_faces(game, rng)
        throw = game.throw(rules.parse_throw(faces))
        moves = game.legal_moves()
        move = _greedy(game, moves, rng)
        telling = actions < TOLD_IN_FULL
        if telling:
            consequence = rules.throw_consequence(throw)
            print(f"{game.turn_label(lang)} throws {faces}: {throw.score} ({consequence})")
            if not dispute_told:
                dispute_told = _tell_a_dispute(game, moves, lang)
        effects = game.push(move)
        actions += 1
        if telling:
            told = [r.short(lang) for r in effects if r.rule.key not in ("distance",)]
            print(f"    plays {move}: " + "; ".join(told))
        elif actions % SUMMARY_EVERY == 0:
            print(f"... move {actions}: {game.fen()}")
        if actions == TOLD_IN_FULL:
            _show_board(game)
            print("... the game goes on; one line every", SUMMARY_EVERY, "moves")
    _show_board(game)
    print(f"Game over after {actions} moves: {game.result_text(lang)}.")
    print(f"Final position: {game.fen()}")
    return 0


def _throw_faces(game: AnyGame, rng: random.Random) -> str:
    """What the implements show for a throw drawn with its exact odds; sticks in any order."""
    outcomes = game.rules.throws.outcomes()
    shown = rng.choices(outcomes, weights=[float(o.probability) for o in outcomes])[0].shown
    if set(shown) <= {MARKED, PLAIN}:
        letters = list(shown)
        rng.shuffle(letters)
        return "".join(letters)
    return shown


def _greedy(game: AnyGame, moves: list[Move], rng: random.Random) -> Move:
    if moves == [PASS]:
        return PASS
    worths = {move: _worth(game, move) for move in moves}
    best = max(worths.values())
    return rng.choice([move for move, worth in worths.items() if worth == best])


def _worth(game: AnyGame, move: Move) -> tuple[int, int]:
    """What the greedy player thinks of a move: what it does, then the rearmost piece."""
    keys = {r.rule.key for r in game.explain(move).rulings}
    return sum(_WORTH.get(key, 0) for key in keys), -move.start


def _tell_a_dispute(game: AnyGame, moves: list[Move], lang: str) -> bool:
    """Show the ruling on one tempting move the rules forbid, once per demo."""
    screens = screens_for(game)  # what each piece could try, as "why?" asks on the device
    if screens is None:
        return False
    for square in screens.pieces(game):
        for candidate in screens.moves_from(game, square):
            if candidate in moves:
                continue
            explanation: Explanation = game.explain(candidate)
            if explanation.legal or explanation.deciding.rule.key in _DULL_DISPUTES:
                continue
            ruling = explanation.deciding
            print(f"    why not {candidate}? {ruling.long(lang)}")
            print(f"    rule {ruling.rule.id}: {ruling.source(lang)}")
            return True
    return False


def _show_board(game: AnyGame) -> None:
    for line in game.board_lines():
        print("    " + line)
