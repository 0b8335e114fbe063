"""From observations to throws of a rule set (application layer, no OpenCV needed)."""

from __future__ import annotations

import pytest

from companion import games
from companion.errors import NotationError
from companion.reading import Seen, kit_for, throw_text


def sticks(*faces: str) -> list[Seen]:
    return [Seen("stick", face=face) for face in faces]


@pytest.mark.parametrize(
    ("kit", "seen", "text"),
    [
        ("sticks4", sticks("P", "M", "P", "M"), "MMPP"),
        ("sticks3", sticks("P", "P", "P"), "PPP"),
        ("ur-nostick", [Seen("d4", value=3)], "3"),
        ("ur", [Seen("d4", value=3), Seen("yesno", face="yes")], "3+yes"),
        ("ur", [Seen("yesno", face="no"), Seen("d4", value=1)], "1+no"),
        ("modern", [Seen("d6", value=4), Seen("d6", value=6)], "4,6"),
        ("binary-d4", [Seen("d4", face=f) for f in "MPMM"], "MPMM"),
    ],
)
def test_throw_text_per_kit(kit: str, seen: list[Seen], text: str) -> None:
    assert throw_text(kit, seen) == text


def test_unread_faces_are_no_throw() -> None:
    with pytest.raises(NotationError):
        throw_text("sticks4", [*sticks("M", "M", "P"), Seen("stick")])
    with pytest.raises(NotationError):
        throw_text("modern", [Seen("d6", value=4)])


@pytest.mark.parametrize("name", games.names())
def test_rule_sets_with_sticks_parse_what_the_camera_reads(name: str) -> None:
    rules = games.get(name)
    kit = kit_for(rules)
    count = int(kit.removeprefix("sticks"))
    for marked in range(count + 1):
        text = throw_text(kit, sticks(*("M" * marked + "P" * (count - marked))))
        assert rules.parse_throw(text) == rules.parse_throw("M" * marked + "P" * (count - marked))
