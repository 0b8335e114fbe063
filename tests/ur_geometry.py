"""The Ur board of today as DECISIONS.md draws it, written out for the tests (not read from
the engine): the cells of each side's track, square 1 first, and the rosettes.

U1 (a) names the cells: column A-H (A is the end of the 3x4 block away from the bridge), row
1-3 (1 is white's side). Bell's path (ur-finkel) and the Masters path (ur-masters) are those
of "Beyond the sources".
"""

from __future__ import annotations


def cells(text: str) -> list[str]:
    return text.split()


BELL = (
    cells("D1 C1 B1 A1 A2 B2 C2 D2 E2 F2 G2 H2 H1 G1"),
    cells("D3 C3 B3 A3 A2 B2 C2 D2 E2 F2 G2 H2 H3 G3"),
)
MASTERS = (
    cells("D1 C1 B1 A1 A2 B2 C2 D2 E2 F2 G2 G3 H3 H2 H1 G1"),
    cells("D3 C3 B3 A3 A2 B2 C2 D2 E2 F2 G2 G1 H1 H2 H3 G3"),
)
PATHS = {"ur-finkel": BELL, "ur-masters": MASTERS}
ROSETTES = frozenset(cells("A1 A3 D2 G1 G3"))
SAFE_ROSETTES = {"ur-finkel": True, "ur-masters": False}
