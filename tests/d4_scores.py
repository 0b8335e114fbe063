"""Numeral scores of d4s the reading rules were measured on, shared by their tests."""

from __future__ import annotations

Scores = dict[int, float]

# Generated seed 11 compressed again at JPEG quality 40, scene 256 (thrown 2): one faint
# top numeral, a few pixels off, scored 1 first by 0.14; a base corner unseen let the
# whole numbering be as clear as that numeral alone.
FAINT_TOP_SEEN_ONCE: tuple[Scores, list[Scores | None]] = (
    {1: 0.546, 2: 0.364, 3: 0.401, 4: 0.270},
    [
        {1: 0.521, 2: 0.520, 3: 0.535, 4: 0.887},
        None,
        {1: 0.729, 2: 0.608, 3: 0.786, 4: 0.576},
    ],
)

# Dev 0147 (thrown 1), a d4 far from the picture's centre: its top numerals say 1 by 0.028,
# and the whole numbering by as little, one base corner unseen.
FAR_FROM_CENTRE: tuple[Scores, list[Scores | None]] = (
    {1: 0.740, 2: 0.433, 3: 0.690, 4: 0.713},
    [
        {1: 0.632, 2: 0.806, 3: 0.615, 4: 0.478},
        None,
        {1: 0.650, 2: 0.709, 3: 0.799, 4: 0.366},
    ],
)
