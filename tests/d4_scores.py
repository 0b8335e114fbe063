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
