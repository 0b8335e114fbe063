"""Kits: which implements a throw uses. The application layer picks one per rule set."""

from __future__ import annotations

from dataclasses import dataclass

from vision.errors import VisionError
from vision.observation import Kind


class UnknownKitError(VisionError, LookupError):
    """No kit has that name."""


@dataclass(frozen=True, slots=True)
class Kit:
    """What a throw holds: exact counts, and the optional yes/no stick."""

    name: str
    sticks: int = 0
    d4: int = 0
    d6: int = 0
    yesno_optional: bool = False
    binary_d4: bool = False  # d4s read as marked tip up or not (today's Ur rule sets)

    def expected(self, kind: Kind) -> int:
        return {Kind.STICK: self.sticks, Kind.D4: self.d4, Kind.D6: self.d6, Kind.YESNO: 0}[kind]

    def allows(self, kind: Kind, count: int) -> bool:
        if kind is Kind.YESNO:
            return count <= (1 if self.yesno_optional else 0)
        return count == self.expected(kind)


KITS: dict[str, Kit] = {
    kit.name: kit
    for kit in (
        Kit("sticks4", sticks=4),
        Kit("sticks3", sticks=3),
        Kit("ur", d4=1, yesno_optional=True),
        Kit("ur-nostick", d4=1),
        Kit("modern", d6=2),
        Kit("binary-d4", d4=4, binary_d4=True),
    )
}


def kit_named(name: str) -> Kit:
    try:
        return KITS[name]
    except KeyError:
        known = ", ".join(KITS)
        raise UnknownKitError(f"no kit named {name!r}; known: {known}") from None
