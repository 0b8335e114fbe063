"""Where throws come from: the seam between the camera pipeline and the screens.

A throw source puts :class:`ThrowRead` events (what the implements show, in the rule
set's throw notation, e.g. ``MMPP``) or :class:`ThrowRefused` ones on the queue. Until
the vision pipeline (``vision/``) lands, :class:`FakeThrows` stands in for it: it draws
what the sticks show with the rule set's exact odds, as the camera would read them.
A camera source will wrap ``hardware.camera.PiCamera`` frames and the vision reader in
the same shape.
"""

from __future__ import annotations

import random
from typing import Protocol

from companion.core import RuleSet
from companion.device.events import Event, ThrowRead


class ThrowSource(Protocol):
    def next_throw(self, rules: RuleSet) -> Event:
        """The next reading for a game of ``rules``: a throw or a refused one."""


class FakeThrows:
    """Readings drawn with exact odds, the sticks in any order (as the camera sees them)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def next_throw(self, rules: RuleSet) -> Event:
        outcomes = rules.throws.outcomes()
        weights = [float(o.probability) for o in outcomes]
        shown = self.rng.choices(outcomes, weights=weights)[0].shown
        letters = list(shown)
        self.rng.shuffle(letters)
        return ThrowRead("".join(letters) if shown.isalpha() else shown)
