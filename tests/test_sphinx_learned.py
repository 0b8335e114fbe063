"""The evaluations learnt from games: their features, their fit, and which levels use them."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.fit_evaluation import Sample, fit, play
from companion.games.modern_rules import SENET_MODERN
from companion.games.ur_rules import UR_TABLET
from companion.sphinx import (
    WIN,
    Level,
    Sphinx,
    evaluate_modern,
    evaluate_ur,
    learnt_evaluator,
)
from companion.sphinx_learned import LEARNT, modern_features, ur_features, win_chance

MODERN = SENET_MODERN
# White: W5 on the sun, W3 on 7 (B4 one die behind), W2 borne off, W1 and W4 out. Black:
# B4 on 6 (W5 five behind), B5 on 16 (W3 nine behind), B1 borne off, B2 and B3 out.
MODERN_FEN = "W5....B4W3.../.....B5..../.......... w - off:W2B1 out:W4W1B2B3 play"


def test_modern_features_name_pieces_progress_and_reach() -> None:
    position = MODERN.game().parse_position(MODERN_FEN)
    white = modern_features(MODERN, position, 0)
    black = modern_features(MODERN, position, 1)
    assert white[:5] == [0.0, 0.0, 1.0, 0.0, 1.0]  # on board: pieces 3 and 5
    assert white[7] == pytest.approx(7 / 30)  # piece 3's progress
    assert white[10:15] == [0.0, 1.0, 0.0, 0.0, 0.0]  # piece 2 borne off
    assert white[15:19] == [1.0, 0.0, 1.0, 0.0]  # on the sun; W3 within one die of B4
    assert black[17:19] == [1.0, 1.0]  # B4 one die from W5, B5 nine from W3
    assert black[19] == pytest.approx(6 / 30 + 16 / 30)


def test_ur_features_see_safe_squares_and_entering_enemies() -> None:
    game = UR_TABLET.game()
    position = game.parse_position("ur 1@4,2@9,3@-,4@-,5@- 1@6,2@x,3@off,4@-,5@- 15/0/35 w - -")
    white = ur_features(UR_TABLET, position, 0)
    black = ur_features(UR_TABLET, position, 1)
    assert white[2] == 3.0 and white[4] == 1.0  # three to enter; piece 1 on a chance square
    assert white[5] == 1.0  # piece 2 on 9: black's piece on 6 reaches it with a 3
    assert black[0] == 1.0 and black[3] == 1.0  # one borne off, one captured
    assert black[5] == 1.0  # on 6: white's piece 3 enters there with a 6
    assert black[7] == 1.0  # no token left


def test_learnt_value_is_zero_sum_and_falls_with_a_piece_put_out() -> None:
    game = MODERN.game()
    evaluate = learnt_evaluator(LEARNT["senet-modern"])
    before = game.parse_position(MODERN_FEN)
    after = game.parse_position(
        "W5....B4..../.....B5..../.......... w - off:W2B1 out:W4W1W3B2B3 play"
    )
    white, black = evaluate(game, before)
    assert white == -black and abs(white) < WIN
    assert evaluate(game, after)[0] < white


def test_win_chance_is_the_logistic_function_at_any_logit() -> None:
    assert win_chance(0.0) == 0.5
    assert win_chance(800.0) == 1.0 and win_chance(-800.0) == 0.0
    assert win_chance(1.0) + win_chance(-1.0) == pytest.approx(1.0)


def test_levels_use_the_learnt_evaluation_only_where_named() -> None:
    game = MODERN.game()
    position = game.parse_position(MODERN_FEN)
    learnt = learnt_evaluator(LEARNT["senet-modern"])(game, position)
    hand = evaluate_modern(game, position)
    assert learnt != hand
    strong = Sphinx(MODERN, level=Level.STRONG)
    assert strong.evaluator(game, position) == learnt
    for level in (Level.EASY, Level.NORMAL):
        assert Sphinx(MODERN, level=level).evaluator(game, position) == hand
    ur = UR_TABLET.game()
    tablet = ur.position
    assert Sphinx(UR_TABLET, level=Level.STRONG).evaluator(ur, tablet) == learnt_evaluator(
        LEARNT["ur-tablet"]
    )(ur, tablet)
    assert Sphinx(UR_TABLET, level=Level.NORMAL).evaluator(ur, tablet) == evaluate_ur(ur, tablet)


def test_fit_recovers_the_weights_that_made_the_results() -> None:
    rng = np.random.default_rng(3)
    features = rng.normal(size=(20000, 2))
    rows = np.column_stack([np.ones(len(features)), features])
    truth = np.array([0.2, 1.5, -0.7])
    won = (rng.random(len(rows)) < 1 / (1 + np.exp(-rows @ truth))).astype(float)
    assert fit(rows, won, penalty=0.0) == pytest.approx(truth, abs=0.1)


def test_self_play_gives_the_same_positions_for_a_seed() -> None:
    learnt = LEARNT["senet-modern"]
    one, two = Sample([], []), Sample([], [])
    play(MODERN, learnt, 7, one, level=Level.EASY, own=False)
    play(MODERN, learnt, 7, two, level=Level.EASY, own=False)
    assert one.rows == two.rows and one.won == two.won
    assert {row[0] for row in one.rows} == {1.0}  # the tempo's column
    assert set(one.won) == {0.0, 1.0}  # the mover won some positions and lost others
