"""The registry of rule sets: find one by name."""

from __future__ import annotations

from companion.core import RuleSet
from companion.errors import UnknownGameError
from companion.games.modern_rules import SENET_MODERN
from companion.games.senet_rules import SENET_KENDALL, SENET_MIGO

_REGISTRY: dict[str, RuleSet] = {rules.name: rules for rules in (SENET_MIGO, SENET_KENDALL)}
_REGISTRY[SENET_MODERN.name] = SENET_MODERN


def names() -> list[str]:
    """Names of every registered rule set."""
    return list(_REGISTRY)


def get(name: str) -> RuleSet:
    """The rule set registered under ``name``."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise UnknownGameError(f"no rule set named {name!r}; known: {known}") from None
