"""From what the camera saw to a throw of a rule set, written as the players write it.

The vision pipeline knows implements, never games; this module knows both. It takes plain
values (kind, face, value per implement) so that it, like the engine, needs no OpenCV.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.core import RuleSet
from companion.errors import NotationError
from companion.throws import MARKED, PLAIN, StickTable

# Kits of the rule sets not thrown with plain sticks (the others: "sticksN").
KIT_BY_RULES: dict[str, str] = {
    "senet-modern": "modern",
    "ur-tablet": "ur",
    "ur-finkel": "binary-d4",
    "ur-masters": "binary-d4",
}


@dataclass(frozen=True, slots=True)
class Seen:
    """One implement as read: ``kind`` is stick, yesno, d4 or d6."""

    kind: str
    face: str | None = None  # M / P for sticks and binary d4s, yes / no for the yes/no stick
    value: int | None = None


def kit_for(rules: RuleSet) -> str:
    """The name of the kit (vision.kit) a rule set is thrown with."""
    if rules.name in KIT_BY_RULES:
        return KIT_BY_RULES[rules.name]
    if isinstance(rules.throws, StickTable):
        return f"sticks{rules.throws.sticks}"
    raise NotationError(f"{rules.name}: no camera kit is known for this rule set")


def throw_text(kit: str, seen: Sequence[Seen]) -> str:
    """The throw in notation: ``MMPP``, ``3``, ``3+yes``, ``4,6`` or ``MPMM``."""
    by_kind: dict[str, list[Seen]] = {}
    for item in seen:
        by_kind.setdefault(item.kind, []).append(item)
    if kit.startswith("sticks"):
        faces = [item.face or "?" for item in by_kind.get("stick", [])]
        return _faces(sorted(faces, key=lambda f: f != MARKED))
    if kit == "binary-d4":
        return _faces([item.face or "?" for item in by_kind.get("d4", [])])
    if kit in ("ur", "ur-nostick"):
        (die,) = by_kind.get("d4", [Seen("d4")])[:1] or [Seen("d4")]
        if die.value is None:
            raise NotationError("the d4 was not read")
        sticks = by_kind.get("yesno", [])
        return f"{die.value}+{sticks[0].face}" if sticks else str(die.value)
    if kit == "modern":
        values = [item.value for item in by_kind.get("d6", [])]
        if len(values) != 2 or None in values:
            raise NotationError("two six-sided dice were not read")
        return ",".join(str(v) for v in values)
    raise NotationError(f"unknown kit {kit!r}")


def _faces(faces: list[str]) -> str:
    if set(faces) - {MARKED, PLAIN}:
        raise NotationError("a face was not read")
    return "".join(faces)
