"""The registry of rule sets: find one by name."""

from __future__ import annotations

from companion.core import RuleSet
from companion.errors import UnknownGameError
from companion.games.mehen_rules import MEHEN
from companion.games.modern_rules import SENET_MODERN
from companion.games.royal_rules import UR_FINKEL, UR_MASTERS
from companion.games.senet_rules import SENET_KENDALL, SENET_MIGO
from companion.games.ur_rules import UR_TABLET

_RULE_SETS: tuple[RuleSet, ...] = (
    SENET_MIGO,
    SENET_KENDALL,
    SENET_MODERN,
    MEHEN,
    UR_TABLET,
    UR_FINKEL,
    UR_MASTERS,
)
_REGISTRY: dict[str, RuleSet] = {rules.name: rules for rules in _RULE_SETS}


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
