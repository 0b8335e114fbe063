"""Evaluations learnt from games: a position's chance to win, from weighted features.

The hand-written evaluations of :mod:`companion.sphinx` add up progress in squares, with
weights guessed once. Here a family's features (progress per piece, pieces borne off,
pieces within reach of an enemy, ...) are weighted by a logistic regression of the games'
results on positions of seeded games (``benchmarks/fit_evaluation.py``): the player to
move wins with the chance ``1 / (1 + exp(-z))``, where ``z`` is the tempo (being about to
throw) plus the weighted difference of the two sides' features. The weights below are
data: the fit prints them, and they are pasted here with the command that made them.

The search averages values over throws, so a learnt evaluation gives the expected result
itself (a chance to win scaled to the search's scale), not a count of squares.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from operator import mul
from typing import Any

from companion.games.modern import ModernPosition, ModernRules
from companion.games.ur import (
    BORNE_OFF,
    LAYOUTS,
    NOT_ENTERED,
    TRACK,
    WAITING,
    UrPosition,
    UrRules,
)

Features = Callable[[Any, Any, int], list[float]]


@dataclass(frozen=True)
class Learnt:
    """A logistic model of the chance that the player to move wins, for two players."""

    names: tuple[str, ...]  # the features, in the order of ``weights``
    features: Features  # (rules, position, side) -> the side's features
    weights: tuple[float, ...]
    tempo: float  # the worth of being the one about to throw

    def mover_wins(self, rules: Any, position: Any) -> float:
        """The chance that the player about to throw wins."""
        mover = position.turn
        own = self.features(rules, position, mover)
        theirs = self.features(rules, position, 1 - mover)
        weights = self.weights
        return win_chance(self.tempo + sum(map(mul, weights, own)) - sum(map(mul, weights, theirs)))


def win_chance(logit: float) -> float:
    """The logistic function, safe for any logit."""
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    exp = math.exp(logit)
    return exp / (1.0 + exp)


# ----- Senet-Modern ----------------------------------------------------------------------------
MODERN_FEATURES = (
    *(f"on board {n}" for n in range(1, 6)),
    *(f"progress {n}" for n in range(1, 6)),
    *(f"borne off {n}" for n in range(1, 6)),
    "on the sun",
    "on 26-30",
    "within 6 of an enemy behind",
    "within 7-12 of an enemy behind",
    "progress within 12 of an enemy behind",
)


def modern_features(rules: ModernRules, position: ModernPosition, side: int) -> list[float]:
    """The features of ``side`` (see :data:`MODERN_FEATURES`): per piece number, on the
    board, its progress (squares / 30) and borne off; a piece on the sun (the next piece
    sent there puts it out of the game, N3); pieces on the special squares (N5); pieces an
    enemy piece behind can reach with one die or with the sum (a hit sends a piece to
    the sun), and their progress."""
    board = position.board
    squares = rules.squares
    special = rules.special_from
    features = [0.0] * 20
    enemies = position.squares(1 - side)
    for square in position.squares(side):
        number = (board[square] >> 1) - 1
        features[number] = 1.0
        features[5 + number] = square / squares
        if square >= special:
            features[16] += 1.0
            continue
        nearest = 99
        for enemy in enemies:
            if enemy >= square:
                break
            nearest = square - enemy  # the enemies are in track order: the last is nearest
        if nearest <= 6:
            features[17] += 1.0
            features[19] += square / squares
        elif nearest <= 12:
            features[18] += 1.0
            features[19] += square / squares
    for number in position.off[side]:
        features[9 + number] = 1.0
    sun = board[rules.sun]
    if sun and sun & 1 == side:
        features[15] = 1.0
    return features


# Fitted on 22 November 2026 by ``benchmarks/fit_evaluation.py --games 3000 senet-modern``
# (100,451 positions of 2,400 games; log loss 0.492 on the other 600 games' positions, 0.693
# for a coin).
MODERN = Learnt(
    MODERN_FEATURES,
    modern_features,
    tempo=0.0524,
    weights=(
        1.5061,  # on board 1
        1.3668,  # on board 2
        1.4572,  # on board 3
        1.3049,  # on board 4
        1.0959,  # on board 5
        0.0598,  # progress 1
        0.0958,  # progress 2
        0.1565,  # progress 3
        0.2297,  # progress 4
        0.4180,  # progress 5
        0.9609,  # borne off 1
        1.1579,  # borne off 2
        1.2018,  # borne off 3
        1.3938,  # borne off 4
        1.3576,  # borne off 5
        -0.2687,  # on the sun
        -0.2606,  # on 26-30
        -0.1798,  # within 6 of an enemy behind
        -0.1420,  # within 7-12 of an enemy behind
        -0.0281,  # progress within 12 of an enemy behind
    ),
)

# ----- Ur (tablet) -----------------------------------------------------------------------------
UR_FEATURES = (
    "borne off",
    "progress",
    "not entered",
    "captured, waiting",
    "on a chance square",
    "within reach of an enemy",
    "tokens",
    "no token",
    "skips a turn",
)
UR_REACH = frozenset({1, 2, 3, 4, 5, 6, 7, 10})  # U2: every score of the die and stick


def ur_features(rules: UrRules, position: UrPosition, side: int) -> list[float]:
    """The features of ``side`` (see :data:`UR_FEATURES`): pieces borne off, their way
    along the track (squares / 16), pieces not entered yet and captured ones; pieces safe
    on a chance square (U6); pieces on a shared square that an enemy piece can land on with
    one throw, from behind or by entering (a capture costs the piece and a token); tokens
    (/ 10), none at all (a debt skips a turn, U9), and a turn to skip."""
    facing = LAYOUTS[position.layout].facing[side]
    chance = rules.chance_squares
    enemy = position.pieces[1 - side]
    enemy_track = [square for square in enemy if 1 <= square <= TRACK]
    enemy_entries = {
        entry
        for entry, where in zip(rules.entry_squares, enemy, strict=True)
        if where in (NOT_ENTERED, WAITING)
    }
    features = [0.0] * 9
    for square in position.pieces[side]:
        if square == BORNE_OFF:
            features[0] += 1.0
        elif square == NOT_ENTERED:
            features[2] += 1.0
        elif square == WAITING:
            features[3] += 1.0
        else:
            features[1] += square / TRACK
            if square in chance:
                features[4] += 1.0
                continue
            theirs = facing[square]
            if theirs and (
                theirs in enemy_entries or any(theirs - other in UR_REACH for other in enemy_track)
            ):
                features[5] += 1.0
    tokens = position.tokens[side]
    features[6] = tokens / 10
    features[7] = 1.0 if tokens == 0 else 0.0
    features[8] = 1.0 if position.skip == side else 0.0
    return features


# Fitted on 22 November 2026 by ``benchmarks/fit_evaluation.py --games 3000 ur-tablet``
# (186,280 positions of 2,400 games; log loss 0.594 on the other 600 games' positions, 0.693
# for a coin).
UR = Learnt(
    UR_FEATURES,
    ur_features,
    tempo=0.0454,
    weights=(
        0.3375,  # borne off
        0.2908,  # progress
        -0.5574,  # not entered
        -0.1372,  # captured, waiting
        0.0073,  # on a chance square
        -0.1190,  # within reach of an enemy
        0.8274,  # tokens
        0.0862,  # no token
        -0.1245,  # skips a turn
    ),
)

# By rule set: the weights fit one rule set's games (Senet-Kendall and Senet-Migo share a
# family, not their best weights).
LEARNT: dict[str, Learnt] = {"senet-modern": MODERN, "ur-tablet": UR}
