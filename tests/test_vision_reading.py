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


STICK_GAMES = [name for name in games.names() if kit_for(games.get(name)).startswith("sticks")]


def test_every_rule_set_has_a_kit() -> None:
    kits = {name: kit_for(games.get(name)) for name in games.names()}
    assert kits["senet-migo"] == kits["senet-kendall"] == "sticks4"
    assert kits["mehen"] == "sticks3"
    assert kits["ur-finkel"] == kits["ur-masters"] == "binary-d4"
    assert (kits["ur-tablet"], kits["senet-modern"]) == ("ur", "modern")


@pytest.mark.parametrize(
    ("name", "seen", "score"),
    [
        ("senet-modern", [Seen("d6", value=4), Seen("d6", value=6)], (4, 6)),
        ("ur-tablet", [Seen("d4", value=3), Seen("yesno", face="yes")], (7,)),
        ("ur-tablet", [Seen("d4", value=3), Seen("yesno", face="no")], (3,)),
        ("ur-tablet", [Seen("d4", value=2)], (2,)),
        ("ur-finkel", [Seen("d4", face=f) for f in "MPMM"], (3,)),
    ],
)
def test_dice_rule_sets_parse_what_the_camera_reads(
    name: str, seen: list[Seen], score: tuple[int, ...]
) -> None:
    rules = games.get(name)
    throw = rules.parse_throw(throw_text(kit_for(rules), seen))
    assert (throw.dice or (throw.score,)) == score


@pytest.mark.parametrize("name", STICK_GAMES)
def test_rule_sets_with_sticks_parse_what_the_camera_reads(name: str) -> None:
    rules = games.get(name)
    kit = kit_for(rules)
    count = int(kit.removeprefix("sticks"))
    for marked in range(count + 1):
        text = throw_text(kit, sticks(*("M" * marked + "P" * (count - marked))))
        assert rules.parse_throw(text) == rules.parse_throw("M" * marked + "P" * (count - marked))
