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
from typing import Any

from companion.games.modern import Modern, ModernPosition, ModernRules

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
        total = self.tempo
        for weight, one, other in zip(self.weights, own, theirs, strict=True):
            total += weight * (one - other)
        return win_chance(total)


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


# Fitted by benchmarks/fit_evaluation.py (see there); placeholder until fitted.
MODERN = Learnt(
    MODERN_FEATURES,
    modern_features,
    tempo=0.0353,
    weights=(
        1.4566,  # on board 1
        1.2158,  # on board 2
        1.3294,  # on board 3
        1.2174,  # on board 4
        1.1843,  # on board 5
        -0.0965,  # progress 1
        -0.0161,  # progress 2
        -0.0104,  # progress 3
        -0.0026,  # progress 4
        0.0818,  # progress 5
        1.2382,  # borne off 1
        1.0700,  # borne off 2
        1.2423,  # borne off 3
        1.0435,  # borne off 4
        1.2851,  # borne off 5
        -0.2759,  # on the sun
        -0.0807,  # on 26-30
        -0.1904,  # within 6 of an enemy behind
        -0.1532,  # within 7-12 of an enemy behind
        0.0908,  # progress within 12 of an enemy behind
    ),
)

LEARNT: dict[type[Any], Learnt] = {Modern: MODERN}
